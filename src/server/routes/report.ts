/**
 * The data quality reports (Underpass's /report routes): POST /report/dataQualityGeo,
 * /report/dataQualityTags (and /report/dataQualityTag), /report/dataQualityTagStats, each with a
 * /csv twin that answers the same rows as RFC 4180 CSV.
 */
import type { FastifyInstance, FastifyPluginAsync } from "fastify";
import { DEFAULT_PAGE_SIZE } from "../api/raw.js";
import type { DataQualityGeoCollection, DataQualityGeoProperties, DataQualityRequest, DataQualityTagRow, DataQualityTagStat } from "../api/report.js";
import { csvRecord, type CsvValue } from "../formats/rfc4180.js";
import { GEOMETRY_STATUSES, TAG_STATUSES } from "../../model/statuses.js";
import type { FeatureStore, FindingFilter, Page, Paged } from "../store/store.js";
import type { FindingRow, FindingValueCount, FindingValueRow } from "../../model/features.js";
import type { RouteContext } from "./context.js";
import { areaFromRing } from "../http/area.js";
import { parseUtcDateTime } from "../http/dates.js";
import type { ValidationError } from "../api/errors.js";
import type { BodyCheck, Refused } from "../http/body-checks.js";
import { BodyReader, RequestProblem } from "../http/problems.js";
import { geoFeature, geoProperties, tagRow, tagStat } from "../http/report-rows.js";

interface Paging {
  page: number;
  pageSize: number;
  hasMore: boolean;
}

type ReadRows<Row> = (store: FeatureStore, filter: FindingFilter, page: Page) => Promise<Paged<Row>>;

/** A CSV record: a value per column, lists as one field. */
type CsvRecord<T> = Record<keyof T, CsvValue | readonly string[]>;

interface Report<Row, Csv extends CsvRecord<Csv>> {
  names: readonly string[];
  summary: string;
  statuses: readonly string[];
  /** The $id of the JSON answer's schema. */
  response: string;
  read: ReadRows<Row>;
  json(rows: Row[], paging: Paging): unknown;
  /** The CSV columns, in order, and each row's values by column. */
  columns: ReadonlyArray<keyof Csv & string>;
  record(row: Row): Csv;
}

const geo: Report<FindingRow, DataQualityGeoProperties & { lon: number; lat: number }> = {
  names: ["dataQualityGeo"],
  summary: "Geometry problems (badgeom, overlapping, duplicate), as GeoJSON points at each feature's centroid",
  statuses: GEOMETRY_STATUSES,
  response: "DataQualityGeoCollection",
  read: (store, filter, page) => store.qualityFindings(filter, page),
  json: (rows, paging): DataQualityGeoCollection => ({ type: "FeatureCollection", features: rows.map(geoFeature), ...paging }),
  columns: ["osm_id", "type", "status", "source", "values", "changeset", "timestamp", "hashtags", "link", "lon", "lat"],
  record: (row) => ({ ...geoProperties(row), lon: row.lon, lat: row.lat }),
};

const tags: Report<FindingValueRow, DataQualityTagRow> = {
  names: ["dataQualityTags", "dataQualityTag"],
  summary: "Tag problems (badvalue, incomplete): one row per offending tag or missing key",
  statuses: TAG_STATUSES,
  response: "DataQualityTagList",
  read: (store, filter, page) => store.findingValues(filter, page),
  json: (rows) => rows.map(tagRow),
  columns: ["osm_id", "type", "link", "status", "tag", "source", "changeset", "timestamp"],
  record: tagRow,
};

const tagStats: Report<FindingValueCount, DataQualityTagStat> = {
  names: ["dataQualityTagStats"],
  summary: "Tag problems counted by tag, source and status, most frequent first",
  statuses: TAG_STATUSES,
  response: "DataQualityTagStats",
  read: (store, filter, page) => store.findingValueCounts(filter, page),
  json: (rows) => rows.map(tagStat),
  columns: ["tag", "source", "status", "count"],
  record: tagStat,
};

/** The findings `body` asks for, or every problem of its dates and area; members the schema refused are not read. */
async function readFindingFilter(body: DataQualityRequest, statuses: readonly string[], refused?: Refused): Promise<{ filter: FindingFilter } | { problems: ValidationError[] }> {
  const reader = new BodyReader(refused);
  // Every member is read through the reader, so that one the schema refused (of any type) is left alone.
  const from = await reader.member("fromDate", (loc) => parseUtcDateTime(body.fromDate, loc));
  const { toDate } = body;
  const to = await reader.member("toDate", (loc) => (toDate === undefined ? undefined : parseUtcDateTime(toDate, loc, "to")));
  if (from !== undefined && to !== undefined && to < from) {
    reader.problems.push({ loc: ["body", "toDate"], msg: `toDate ${JSON.stringify(toDate)} is before fromDate ${JSON.stringify(body.fromDate)}`, type: "value_error" });
  }
  const area = await reader.member("area", (loc) => areaFromRing(body.area, loc));
  const hashtags = await reader.member("hashtags", () => [body.hashtags ?? []].flat());
  if (reader.problems.length > 0 || from === undefined || area === undefined || hashtags === undefined) return { problems: reader.problems };
  return { filter: { statuses, from, to, hashtags, area } };
}

/** readFindingFilter's problems, for a 422 that also names the schema's. */
function findingFilterProblems(statuses: readonly string[]): BodyCheck<DataQualityRequest> {
  return async (body, refused) => {
    const read = await readFindingFilter(body, statuses, refused);
    return "problems" in read ? read.problems : [];
  };
}

async function readReport<Row>(
  store: FeatureStore,
  report: { statuses: readonly string[]; read: ReadRows<Row> },
  body: DataQualityRequest,
): Promise<{ rows: Row[]; paging: Paging }> {
  const read = await readFindingFilter(body, report.statuses);
  if ("problems" in read) throw new RequestProblem(read.problems);
  const page = body.page ?? 0;
  const pageSize = body.pageSize ?? DEFAULT_PAGE_SIZE;
  const { rows, hasMore } = await report.read(store, read.filter, { offset: page * pageSize, limit: pageSize });
  return { rows, paging: { page, pageSize, hasMore } };
}

/** Arrays (values, hashtags) as one field, their items joined by ";" as OSM joins multiple values. */
function csvTable<Row, Csv extends CsvRecord<Csv>>(report: Report<Row, Csv>, rows: readonly Row[]): string {
  const records = rows.map((row) => {
    const record = report.record(row);
    return csvRecord(report.columns.map((column) => [record[column]].flat().join(";")));
  });
  return csvRecord(report.columns) + records.join("");
}

function registerReport<Row, Csv extends CsvRecord<Csv>>(app: FastifyInstance, store: FeatureStore, report: Report<Row, Csv>): void {
  const schema = (summary: string, answer: object) => ({
    tags: ["data quality reports"],
    summary,
    body: { $ref: "DataQualityRequest#" },
    response: { 200: answer, 422: { $ref: "HTTPValidationError#" } },
  });
  const config = { handlerChecks: findingFilterProblems(report.statuses) };
  report.names.forEach((name, index) => {
    const summary = index === 0 ? report.summary : `${report.summary} (the same as ${report.names[0]})`;
    app.post<{ Body: DataQualityRequest }>(`/${name}`, { schema: schema(summary, { $ref: `${report.response}#` }), config }, async (request) => {
      const { rows, paging } = await readReport(store, report, request.body);
      return report.json(rows, paging);
    });
    app.post<{ Body: DataQualityRequest }>(
      `/${name}/csv`,
      {
        schema: schema(`${summary}; as CSV`, {
          description: "RFC 4180 CSV: a header row, then the rows of the JSON answer; lists joined by ;",
          content: { "text/csv": { schema: { $ref: "CsvText#" } } },
        }),
        config,
      },
      async (request, reply) => {
        const { rows } = await readReport(store, report, request.body);
        return reply.type("text/csv; charset=utf-8").send(csvTable(report, rows));
      },
    );
  });
}

export const reportRoutes: FastifyPluginAsync<RouteContext> = async (app, { store }) => {
  registerReport(app, store, geo);
  registerReport(app, store, tags);
  registerReport(app, store, tagStats);
};
