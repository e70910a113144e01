/**
 * The data quality reports' reads of the PostGIS store: every filter, the exact area test on
 * each finding's location and the paging in SQL, in the SQLite store's order (text compared
 * byte by byte, COLLATE "C", as SQLite does).
 */
import type { FeatureTable, FindingRow, FindingValueCount, FindingValueRow } from "../../../model/features.js";
import type { FindingFilter, Page, Paged } from "../store.js";
import type { Queries } from "./connection.js";
import { Parameters } from "./parameters.js";

const COLUMNS = `q.feature_table, q.osm_id, q.status, q.source, q.changeset, q.timestamp, q.lon, q.lat, c.hashtags::text`;
const FROM = "FROM quality q LEFT JOIN changesets c ON c.id = q.changeset";
const ORDER = `q.timestamp COLLATE "C" DESC NULLS LAST, q.osm_id, q.feature_table COLLATE "C", q.status COLLATE "C", q.source COLLATE "C"`;
/** When the edit behind a finding was made (see FindingFilter). */
const EDITED_AT = `coalesce(c.closed_at, q.timestamp) COLLATE "C"`;

type ReportRow = [table: FeatureTable, osmId: number, status: string, source: string, changeset: number | null, timestamp: string | null, lon: number, lat: number, hashtags: string | null];

export class PostgisReports {
  constructor(private readonly queries: Queries) {}

  async qualityFindings(filter: FindingFilter, page: Page): Promise<Paged<FindingRow>> {
    const parameters = new Parameters();
    const where = findingWhere(filter, parameters);
    const rows = await this.queries.rows(`SELECT ${COLUMNS}, q."values"::text ${FROM} WHERE ${where} ORDER BY ${ORDER} ${pageSql(page, parameters)}`, parameters.values);
    return paged(rows, page, (row) => ({ ...reportRow(row as unknown as ReportRow), values: JSON.parse(row[9] as string) as string[] }));
  }

  async findingValues(filter: FindingFilter, page: Page): Promise<Paged<FindingValueRow>> {
    const parameters = new Parameters();
    const where = findingWhere(filter, parameters);
    const rows = await this.queries.rows(
      `SELECT ${COLUMNS}, v.value ${FROM} CROSS JOIN LATERAL jsonb_array_elements_text(q."values") WITH ORDINALITY v(value, n)
       WHERE ${where} ORDER BY ${ORDER}, v.n ${pageSql(page, parameters)}`,
      parameters.values,
    );
    return paged(rows, page, (row) => ({ ...reportRow(row as unknown as ReportRow), value: row[9] as string }));
  }

  async findingValueCounts(filter: FindingFilter, page: Page): Promise<Paged<FindingValueCount>> {
    const parameters = new Parameters();
    const where = findingWhere(filter, parameters);
    const rows = await this.queries.rows(
      `SELECT v.value, q.source, q.status, count(*) ${FROM} CROSS JOIN LATERAL jsonb_array_elements_text(q."values") v(value)
       WHERE ${where} GROUP BY v.value, q.source, q.status
       ORDER BY count(*) DESC, v.value COLLATE "C", q.source COLLATE "C", q.status COLLATE "C" ${pageSql(page, parameters)}`,
      parameters.values,
    );
    return paged(rows, page, ([value, source, status, count]) => ({ value: value as string, source: source as string, status: status as string, count: count as number }));
  }
}

function reportRow([table, osmId, status, source, changeset, timestamp, lon, lat, hashtags]: ReportRow): Omit<FindingRow, "values"> {
  return { table, osmId, status, source, changeset, timestamp, lon, lat, hashtags: hashtags === null ? [] : (JSON.parse(hashtags) as string[]) };
}

/** The page and one more row, which says whether more follow. */
function pageSql({ offset, limit }: Page, parameters: Parameters): string {
  return `LIMIT ${parameters.add(limit + 1)} OFFSET ${parameters.add(offset)}`;
}

function paged<T>(rows: unknown[][], { limit }: Page, map: (row: unknown[]) => T): Paged<T> {
  return { rows: rows.slice(0, limit).map(map), hasMore: rows.length > limit };
}

function findingWhere(filter: FindingFilter, parameters: Parameters): string {
  const clauses = [`q.status = ANY(${parameters.add(filter.statuses)}::text[])`];
  if (filter.from !== undefined) clauses.push(`${EDITED_AT} >= ${parameters.add(filter.from)}`);
  if (filter.to !== undefined) clauses.push(`${EDITED_AT} <= ${parameters.add(filter.to)}`);
  if (filter.hashtags !== undefined && filter.hashtags.length > 0) {
    // changeset_hashtags holds them lower-cased and without "#".
    const hashtags = filter.hashtags.map((hashtag) => hashtag.replace(/^#/, "").toLowerCase());
    clauses.push(`q.changeset IN (SELECT changeset FROM changeset_hashtags WHERE hashtag = ANY(${parameters.add(hashtags)}::text[]))`);
  }
  const area = filter.area?.geometry;
  if (area !== undefined && area !== null) {
    clauses.push(`ST_Intersects(ST_SetSRID(ST_MakePoint(q.lon, q.lat), 4326), ST_SetSRID(ST_GeomFromGeoJSON(${parameters.add(JSON.stringify(area))}), 4326))`);
  }
  return clauses.join(" AND ");
}
