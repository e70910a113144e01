/**
 * The PostGIS feature store: HOT's raw-data tables as osm2pgsql fills them with our style
 * (osm2pgsql/basemodel.lua), plus our own tables (schema.ts). Every query tests the area, tags,
 * changesets and data quality in SQL and stops at the caller's limit.
 */
import type pg from "pg";
import type { AreaFilter } from "../../../model/query.js";
import type { BBox } from "../../../model/geojson.js";
import type { CandidateOptions, CheckableFeatureStore, CountOptions, FeatureSnapshot, FeatureStore, FindingsUpdate } from "../store.js";
import type { FeatureTable, OsmFeature, StoredFeature, StoreMeta } from "../../../model/features.js";
import { FEATURE_TABLES } from "../../../model/features.js";
import { PoolQueries, SnapshotQueries, type Queries } from "./connection.js";
import { PostgisFindings } from "./findings.js";
import { Parameters } from "./parameters.js";
import { PostgisReports } from "./reports.js";
import { toFeature, type FeatureRow } from "../feature-rows.js";
import { FEATURE_COLUMN_COUNT, FEATURE_COLUMNS } from "./rows.js";
import { tileStatement } from "./tiles.js";
import { trimmedOffsets } from "../extent.js";
import { candidateWhere, checkedTable } from "./where.js";

/**
 * The feature's statuses (by rank; NULL when it has none) and its changeset's metadata, as
 * columns after the feature's. Most features have no status: an EXISTS probe first (as in the
 * SQLite store) saves 0.3 of the aggregate's 0.5 ms on Monaco's ~400 central buildings.
 */
const ANNOTATION_COLUMNS = (table: FeatureTable, parameters: Parameters) => {
  const statuses = `FROM quality q WHERE q.feature_table = ${parameters.add(table)} AND q.osm_id = t.osm_id`;
  return `,
  CASE WHEN EXISTS (SELECT 1 ${statuses}) THEN (SELECT json_agg(q.status ORDER BY q.rank, q.status COLLATE "C") ${statuses})::text END,
  c.hashtags::text, c.editor, c.created_at, c.closed_at`;
};

/**
 * Up to this limit a query fetches its rows in one round trip; above it (or without one)
 * through a cursor, which costs five more. A default page (1,000 and one more) fits.
 */
const ONE_TRIP_LIMIT = 5000;

class PostgisReader implements FeatureSnapshot {
  private readonly reports: PostgisReports;

  constructor(
    protected readonly queries: Queries,
    private readonly end: () => Promise<void>,
  ) {
    this.reports = new PostgisReports(queries);
  }

  async queryBBox(table: FeatureTable, bbox: BBox): Promise<OsmFeature[]> {
    const parameters = new Parameters();
    const box = `ST_MakeEnvelope(${parameters.add(bbox.minX)}, ${parameters.add(bbox.minY)}, ${parameters.add(bbox.maxX)}, ${parameters.add(bbox.maxY)}, 4326)`;
    const rows = await this.queries.rows(`SELECT ${FEATURE_COLUMNS} FROM ${checkedTable(table)} t WHERE t.geom && ${box} ORDER BY t.osm_id`, parameters.values);
    return rows.map((row) => toFeature(row as FeatureRow));
  }

  async featuresWithId(osmId: number): Promise<StoredFeature[]> {
    // The table's position follows the FeatureRow's columns.
    const sql = FEATURE_TABLES.map((table, index) => `SELECT ${FEATURE_COLUMNS}, ${index} FROM ${table} t WHERE t.osm_id = $1`).join(" UNION ALL ");
    const rows = (await this.queries.rows(`${sql} ORDER BY ${FEATURE_COLUMN_COUNT + 1}`, [osmId])) as Array<[...FeatureRow, number]>;
    return rows.map((row) => ({ table: FEATURE_TABLES[row[FEATURE_COLUMN_COUNT]]!, feature: toFeature(row) }));
  }

  async *candidates(table: FeatureTable, area: AreaFilter, options: CandidateOptions = {}): AsyncGenerator<OsmFeature> {
    const parameters = new Parameters();
    const from = checkedTable(table);
    const columns = options.annotated ? `${FEATURE_COLUMNS}${ANNOTATION_COLUMNS(table, parameters)}` : FEATURE_COLUMNS;
    const join = options.annotated ? " LEFT JOIN changesets c ON c.id = t.changeset" : "";
    const where = candidateWhere(table, area, options, parameters);
    // NULLS LAST: the SQLite store's (and the API's) order puts features without a time last.
    const order = options.order === "newest" ? "t.timestamp DESC NULLS LAST, t.osm_id DESC" : "t.osm_id";
    let sql = `SELECT ${columns} FROM ${from} t${join} WHERE ${where} ORDER BY ${order}`;
    const { limit } = options;
    if (limit !== undefined) sql += ` LIMIT ${parameters.add(limit)}`;
    // A page (what every feature route asks for) is prepared: its planning was a fifth of its cost.
    const rows = limit !== undefined && limit <= ONE_TRIP_LIMIT ? await this.queries.rows(sql, parameters.values, true) : this.queries.stream(sql, parameters.values);
    const feature = options.annotated ? toAnnotatedFeature : (row: unknown[]) => toFeature(row as FeatureRow);
    for await (const row of rows) {
      options.onRead?.();
      yield feature(row);
    }
  }

  /** The matches themselves: the area is tested in the query. */
  async countCandidates(table: FeatureTable, area: AreaFilter, options: CountOptions = {}): Promise<number> {
    const parameters = new Parameters();
    const where = candidateWhere(table, area, options, parameters);
    const [[count]] = (await this.queries.rows(`SELECT count(*) FROM ${checkedTable(table)} t WHERE ${where}`, parameters.values)) as [[number]];
    return count;
  }

  readonly qualityFindings: FeatureStore["qualityFindings"] = (filter, page) => this.reports.qualityFindings(filter, page);
  readonly findingValues: FeatureStore["findingValues"] = (filter, page) => this.reports.findingValues(filter, page);
  readonly findingValueCounts: FeatureStore["findingValueCounts"] = (filter, page) => this.reports.findingValueCounts(filter, page);

  async readMeta(): Promise<StoreMeta | null> {
    const rows = (await this.queries.rows("SELECT key, value FROM basemodel_meta", [])) as Array<[string, string]>;
    const values = new Map(rows);
    const statistics = values.get("import_statistics");
    if (statistics === undefined) return null;
    return { replicationTimestamp: values.get("replication_timestamp") ?? null, statistics: JSON.parse(statistics) as Record<string, unknown> };
  }

  async tile(z: number, x: number, y: number): Promise<Uint8Array> {
    const parameters = new Parameters();
    const sql = tileStatement(z, x, y, parameters);
    if (sql === undefined) return new Uint8Array(0);
    const [[tile]] = (await this.queries.rows(sql, parameters.values)) as [[Uint8Array]];
    return tile;
  }

  async extent(): Promise<BBox | null> {
    const [[count]] = (await this.queries.rows("SELECT count(*)::int FROM nodes", [])) as [[number]];
    if (count === 0) return this.boxOfEvery();
    const { low, high } = trimmedOffsets(count);
    const at = async (value: "ST_X(geom)" | "ST_Y(geom)", offset: number) => ((await this.queries.rows(`SELECT ${value} FROM nodes ORDER BY 1 OFFSET $1 LIMIT 1`, [offset])) as [[number]])[0][0];
    const [minX, minY, maxX, maxY] = await Promise.all([at("ST_X(geom)", low), at("ST_Y(geom)", low), at("ST_X(geom)", high), at("ST_Y(geom)", high)]);
    return { minX, minY, maxX, maxY };
  }

  private async boxOfEvery(): Promise<BBox | null> {
    const geometries = FEATURE_TABLES.map((table) => `SELECT geom FROM ${table}`).join(" UNION ALL ");
    const [[minX, minY, maxX, maxY]] = (await this.queries.rows(
      `SELECT ST_XMin(e), ST_YMin(e), ST_XMax(e), ST_YMax(e) FROM (SELECT ST_Extent(geom) AS e FROM (${geometries}) g) extent`,
      [],
    )) as [Array<number | null>];
    return minX === null ? null : { minX: minX!, minY: minY!, maxX: maxX!, maxY: maxY! };
  }

  /** What the store's writers record in basemodel_meta as they commit (DATA_VERSION_SQL). */
  async dataVersion(): Promise<string> {
    const rows = (await this.queries.rows("SELECT value FROM basemodel_meta WHERE key = 'data_version'", [])) as Array<[string]>;
    return rows[0]?.[0] ?? "";
  }

  close(): Promise<void> {
    return this.end();
  }
}

function toAnnotatedFeature(row: unknown[]): OsmFeature {
  const feature = toFeature(row as unknown as [...FeatureRow, ...unknown[]]);
  const [statuses, hashtags, editor, createdAt, closedAt] = row.slice(FEATURE_COLUMN_COUNT) as Array<string | null>;
  feature.annotations = {
    statuses: statuses === null ? [] : (JSON.parse(statuses!) as string[]),
    hashtags: hashtags === null ? [] : (JSON.parse(hashtags!) as string[]),
    editor: editor ?? null,
    createdAt: createdAt ?? null,
    closedAt: closedAt ?? null,
  };
  return feature;
}

export class PostgisFeatureStore extends PostgisReader implements CheckableFeatureStore {
  constructor(private readonly pool: pg.Pool) {
    super(new PoolQueries(pool), () => pool.end());
  }

  findings(): Promise<FindingsUpdate> {
    return PostgisFindings.begin(this.pool);
  }

  async snapshot(): Promise<FeatureSnapshot> {
    const queries = await SnapshotQueries.begin(this.pool);
    return new PostgisReader(queries, () => queries.end());
  }
}
