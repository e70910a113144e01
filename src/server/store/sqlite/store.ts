/**
 * The embedded feature store: one SQLite file (better-sqlite3) holding the four feature
 * tables with their R*Trees and tag-key counts, and a `meta` table (see sqlite-schema.ts).
 *
 * better-sqlite3 is an optional peer dependency (a native module), so it is imported lazily
 * here and nowhere else: merely loading the package never requires it.
 */
import { existsSync } from "node:fs";
import type BetterSqlite3 from "better-sqlite3";
import { DriverMissing, NotAStore, StoreMissing, StoreSchemaVersion, StoreUnreadable } from "../../errors.js";
import { isDatabaseUrl } from "../location.js";
import type { BBox } from "../../../model/geojson.js";
import { toBoxedFeature, type BoxedFeatureRow } from "../feature-rows.js";
import { SqliteReports } from "./reports.js";
import { sqliteFailure } from "./failure.js";
import { createSchema, FEATURE_ROW_COLUMNS, SCHEMA_VERSION } from "./schema.js";
import { candidateWhere } from "./where.js";
import { SqliteTiles } from "./tiles.js";
import { SqliteUpdate } from "./update.js";
import { SqliteWrites } from "./writes.js";
import { isTagGroup, type AreaFilter, type TagFilter } from "../../../model/query.js";
import { areaMatcher } from "../area-match.js";
import { trimmedOffsets } from "../extent.js";
import { prepareArea } from "../../geometry/geos.js";
import { FEATURE_TABLES } from "../../../model/features.js";
import type { CandidateOptions, CountOptions, FeatureSnapshot, EmbeddedStoreFactory, FeatureWriter, FindingFilter, FindingsUpdate, Page, Paged, StoreUpdate, WritableFeatureStore } from "../store.js";
import type { Changeset, FeatureTable, FindingRow, FindingValueCount, FindingValueRow, OsmFeature, QualityFinding, RawEntity, StoreMeta, StoredFeature } from "../../../model/features.js";

type Database = BetterSqlite3.Database;
type Statement = BetterSqlite3.Statement;

const DRIVERS = ["better-sqlite3"];

async function loadDriver(): Promise<typeof BetterSqlite3> {
  try {
    return (await import("better-sqlite3")).default;
  } catch (error) {
    throw new DriverMissing({ user: "The SQLite store", packages: DRIVERS }, { cause: error });
  }
}

/**
 * How long a writer waits for another one (an update beside a check) before SQLITE_BUSY.
 * Readers never wait, nor make a writer wait: the store is in WAL mode.
 */
const BUSY_TIMEOUT_MS = 30_000;

export const sqliteStoreFactory: EmbeddedStoreFactory = {
  kind: "embedded",
  // Any location that names no database: a file path.
  takes: (location) => !isDatabaseUrl(location),
  drivers: DRIVERS,
  failure: sqliteFailure,
  async create(path) {
    if (existsSync(path)) throw new Error(`Cannot create a store at ${path}: the file exists`);
    const Driver = await loadDriver();
    const db = new Driver(path);
    createSchema(db);
    return new SqliteFeatureStore(db);
  },
  async open(path) {
    // A mistyped path must fail, not create an empty store.
    if (!existsSync(path)) throw new StoreMissing({ location: path });
    const Driver = await loadDriver();
    let db: Database;
    try {
      db = new Driver(path, { fileMustExist: true, timeout: BUSY_TIMEOUT_MS });
    } catch (error) {
      throw new StoreUnreadable({ location: path, why: (error as Error).message }, { cause: error });
    }
    let version: unknown;
    try {
      version = db.prepare("SELECT value FROM meta WHERE key = 'schema_version'").pluck().get();
    } catch (error) {
      // A damaged file is said so; one that is not SQLite at all, or SQLite without our
      // tables, is answered below.
      if ((error as { code?: unknown }).code === "SQLITE_CORRUPT") {
        db.close();
        throw sqliteFailure(path, error) ?? error;
      }
    }
    if (version !== SCHEMA_VERSION) {
      db.close();
      throw typeof version === "string" ? new StoreSchemaVersion({ location: path, found: version, reads: SCHEMA_VERSION }) : new NotAStore({ location: path });
    }
    try {
      // Stores imported before WAL was the default are turned over on their first open.
      db.pragma("journal_mode = WAL");
    } catch (error) {
      db.close();
      throw sqliteFailure(path, error) ?? error;
    }
    return new SqliteFeatureStore(db);
  },
};

/** A BoxedFeatureRow followed by ANNOTATION_COLUMNS. */
type AnnotatedRow = [...BoxedFeatureRow, statuses: string | null, hashtags: string | null, editor: string | null, createdAt: string | null, closedAt: string | null];

/**
 * The feature's statuses (by rank; NULL when it has none) and its changeset's metadata, as
 * columns of a candidate row. Most features have no findings, and the EXISTS probe spares them
 * the aggregate's setup, which costs a fifth of a candidate query.
 */
const ANNOTATION_COLUMNS = `,
  CASE WHEN EXISTS (SELECT 1 FROM quality q WHERE q.feature_table = '%TABLE%' AND q.osm_id = t.osm_id)
    THEN (SELECT json_group_array(status) FROM (SELECT status FROM quality q WHERE q.feature_table = '%TABLE%' AND q.osm_id = t.osm_id ORDER BY rank, status))
  END AS statuses,
  c.hashtags AS hashtags, c.editor AS editor, c.created_at AS created_at, c.closed_at AS closed_at`;

class SqliteFeatureStore implements WritableFeatureStore {
  private readonly statements = new Map<string, Statement>();
  private readonly reports: SqliteReports;

  private readonly keyFeatures: Statement;
  private readonly tiles: SqliteTiles;
  private readonly changes: Statement;

  constructor(private readonly db: Database) {
    this.reports = new SqliteReports(db);
    this.tiles = new SqliteTiles(db);
    this.keyFeatures = db.prepare("SELECT features FROM tag_keys WHERE feature_table = ? AND key = ? AND features > 0").pluck();
    this.changes = db.prepare("SELECT total_changes()").pluck();
  }

  writer(): FeatureWriter {
    return new SqliteFeatureWriter(this.db);
  }

  update(): StoreUpdate {
    return new SqliteUpdate(this.db);
  }

  async findings(): Promise<FindingsUpdate> {
    return this.update();
  }

  async featuresWithId(osmId: number): Promise<StoredFeature[]> {
    return FEATURE_TABLES.flatMap((table) => {
      const row = this.statement(`SELECT ${FEATURE_ROW_COLUMNS} FROM ${table} t WHERE t.osm_id = ?`).raw().get(osmId) as BoxedFeatureRow | undefined;
      return row === undefined ? [] : [{ table, feature: toBoxedFeature(row) }];
    });
  }

  async queryBBox(table: FeatureTable, bbox: BBox): Promise<OsmFeature[]> {
    const { rows, feature } = this.rows(table, bbox, {});
    return Array.from(rows, feature);
  }

  /**
   * The R*Tree finds candidates by bounding box; the area and geometry kind are tested on each one
   * here, with the area prepared for this query alone and freed when it ends (stopped early too).
   */
  async *candidates(table: FeatureTable, area: AreaFilter, options: CandidateOptions = {}): AsyncGenerator<OsmFeature> {
    const prepared = await prepareArea(area);
    try {
      const matches = areaMatcher(prepared, options.relation, options.geometry);
      const { rows, feature } = this.rows(table, area.bbox, options);
      const { onRead } = options;
      for (const row of rows) {
        onRead?.();
        const found = feature(row);
        if (matches(found)) yield found;
      }
    } finally {
      prepared.dispose();
    }
  }

  /**
   * The rows whose bounding box meets `bbox`, with the other filters of `options`, in its order,
   * and the feature of each. Iterated by the caller itself: a generator in between costs a
   * twentieth of a query.
   */
  private rows(table: FeatureTable, bbox: BBox, options: CandidateOptions): { rows: Iterable<readonly [...BoxedFeatureRow, ...unknown[]]>; feature: (row: readonly [...BoxedFeatureRow, ...unknown[]]) => OsmFeature } {
    if (!this.mayMatchTags(table, options.tags)) return { rows: [], feature: toBoxedFeature };
    const where = candidateWhere(table, bbox, options);
    const order = options.order === "newest" ? "t.timestamp DESC, t.osm_id DESC" : "t.osm_id";
    if (!options.annotated) {
      const rows = this.statement(`SELECT ${FEATURE_ROW_COLUMNS} FROM ${table} t WHERE ${where.sql} ORDER BY ${order}`).raw().iterate(...where.parameters);
      return { rows: rows as IterableIterator<BoxedFeatureRow>, feature: toBoxedFeature };
    }
    const columns = ANNOTATION_COLUMNS.replaceAll("%TABLE%", table);
    const rows = this.statement(`SELECT ${FEATURE_ROW_COLUMNS}${columns} FROM ${table} t LEFT JOIN changesets c ON c.id = t.changeset WHERE ${where.sql} ORDER BY ${order}`)
      .raw()
      .iterate(...where.parameters);
    return { rows: rows as IterableIterator<AnnotatedRow>, feature: (row) => toAnnotatedFeature(row as unknown as AnnotatedRow) };
  }

  /** The rows candidates() reads: those its bounding-box query finds, before the exact test. */
  async countCandidates(table: FeatureTable, area: AreaFilter, options: CountOptions = {}): Promise<number> {
    if (!this.mayMatchTags(table, options.tags)) return 0;
    const where = candidateWhere(table, area.bbox, options);
    return this.statement(`SELECT count(*) FROM ${table} t WHERE ${where.sql}`).pluck().get(...where.parameters) as number;
  }

  /** False when the filter needs a tag key that no feature of the table has: then the table need not be read at all. */
  private mayMatchTags(table: FeatureTable, filter: TagFilter | undefined): boolean {
    if (!filter || filter.conditions.length === 0) return true;
    const present = (condition: TagFilter["conditions"][number]): boolean =>
      isTagGroup(condition) ? this.mayMatchTags(table, condition) : this.keyFeatures.get(table, condition.key) !== undefined;
    return filter.join === "and" ? filter.conditions.every(present) : filter.conditions.some(present);
  }

  /** A prepared statement for `sql`; a fresh one when the cached one is still being iterated by another query. */
  private statement(sql: string): Statement {
    const cached = this.statements.get(sql);
    if (cached && !cached.busy) return cached;
    const statement = this.db.prepare(sql);
    if (!cached) {
      // Statements differ by the shape of the tag filter only, but requests choose that shape.
      if (this.statements.size >= MAX_CACHED_STATEMENTS) this.statements.delete(this.statements.keys().next().value!);
      this.statements.set(sql, statement);
    }
    return statement;
  }

  async qualityFindings(filter: FindingFilter, page: Page): Promise<Paged<FindingRow>> {
    return this.reports.qualityFindings(filter, page);
  }

  async findingValues(filter: FindingFilter, page: Page): Promise<Paged<FindingValueRow>> {
    return this.reports.findingValues(filter, page);
  }

  async findingValueCounts(filter: FindingFilter, page: Page): Promise<Paged<FindingValueCount>> {
    return this.reports.findingValueCounts(filter, page);
  }

  async readMeta(): Promise<StoreMeta | null> {
    const rows = this.db.prepare("SELECT key, value FROM meta").all() as Array<{ key: string; value: string }>;
    const values = new Map(rows.map((row) => [row.key, row.value]));
    const statistics = values.get("import_statistics");
    if (statistics === undefined) return null;
    return { replicationTimestamp: values.get("replication_timestamp") ?? null, statistics: JSON.parse(statistics) };
  }

  tile(z: number, x: number, y: number): Promise<Uint8Array> {
    return this.tiles.tile(z, x, y);
  }

  async extent(): Promise<BBox | null> {
    const count = this.db.prepare("SELECT count(*) FROM nodes").pluck().get() as number;
    if (count === 0) return this.boxOfEvery();
    const { low, high } = trimmedOffsets(count);
    const at = (column: "min_x" | "min_y", offset: number) => this.db.prepare(`SELECT ${column} FROM nodes ORDER BY ${column} LIMIT 1 OFFSET ?`).pluck().get(offset) as number;
    return { minX: at("min_x", low), minY: at("min_y", low), maxX: at("min_x", high), maxY: at("min_y", high) };
  }

  private boxOfEvery(): BBox | null {
    const boxes = FEATURE_TABLES.map((table) => `SELECT min_x, min_y, max_x, max_y FROM ${table}`).join(" UNION ALL ");
    const [minX, minY, maxX, maxY] = this.db.prepare(`SELECT min(min_x), min(min_y), max(max_x), max(max_y) FROM (${boxes})`).raw().get() as Array<number | null>;
    return minX === null ? null : { minX: minX!, minY: minY!, maxX: maxX!, maxY: maxY! };
  }

  /**
   * SQLite's data_version changes when another connection (of this process or another) commits;
   * the connection's own writes are counted by total_changes().
   */
  async dataVersion(): Promise<string> {
    return `${this.db.pragma("data_version", { simple: true })}.${this.changes.get()}`;
  }

  async snapshot(): Promise<FeatureSnapshot> {
    const Driver = await loadDriver();
    // Not read-only, though it only reads: the last connection to close folds the WAL into the
    // store and removes the -wal and -shm files, which a read-only one cannot do.
    const db = new Driver(this.db.name, { fileMustExist: true, timeout: BUSY_TIMEOUT_MS });
    try {
      // A read transaction on a connection of its own: in WAL mode it sees the data as of its
      // first read until it ends, whatever commits meanwhile.
      db.exec("BEGIN");
      db.prepare("SELECT value FROM meta WHERE key = 'schema_version'").get();
    } catch (error) {
      db.close();
      throw error;
    }
    return new SqliteFeatureStore(db);
  }

  async close(): Promise<void> {
    this.db.close();
  }
}

const MAX_CACHED_STATEMENTS = 64;

function toAnnotatedFeature(row: AnnotatedRow): OsmFeature {
  const feature = toBoxedFeature(row);
  // The annotation columns follow the BoxedFeatureRow's twelve.
  const [statuses, hashtags, editor, createdAt, closedAt] = [row[12], row[13], row[14], row[15], row[16]];
  feature.annotations = {
    statuses: statuses === null ? [] : JSON.parse(statuses),
    hashtags: hashtags === null ? [] : JSON.parse(hashtags),
    editor,
    createdAt,
    closedAt,
  };
  return feature;
}

class SqliteFeatureWriter implements FeatureWriter {
  private readonly writes: SqliteWrites;

  constructor(private readonly db: Database) {
    // The whole load is one transaction, so abort() can undo all of it. The journal lives in
    // memory (into a fresh file, new pages need almost no journaling) and fsyncs are skipped:
    // the importer builds a temporary file and renames it into place only when complete.
    db.pragma("journal_mode = MEMORY");
    db.pragma("synchronous = OFF");
    this.writes = new SqliteWrites(db);
    db.exec("BEGIN");
  }

  async insert(table: FeatureTable, feature: OsmFeature): Promise<void> {
    this.writes.putFeature(table, feature);
  }

  async insertRaw(raw: RawEntity): Promise<void> {
    this.writes.putRaw(raw, false);
  }

  async insertChangeset(changeset: Changeset): Promise<void> {
    this.writes.putChangeset(changeset);
  }

  async setFindings(found: StoredFeature, findings: readonly QualityFinding[]): Promise<void> {
    this.writes.setFindings(found, findings);
  }

  async finish(meta: StoreMeta): Promise<void> {
    const upsert = this.db.prepare("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)");
    if (meta.replicationTimestamp !== null) upsert.run("replication_timestamp", meta.replicationTimestamp);
    upsert.run("import_statistics", JSON.stringify(meta.statistics));
    this.db.exec("COMMIT");
    // Readers (the server, exports) and one writer (update, check) then work side by side.
    // Recorded in the file; its -wal and -shm files go when the last connection closes.
    this.db.pragma("journal_mode = WAL");
  }

  async abort(): Promise<void> {
    if (this.db.inTransaction) this.db.exec("ROLLBACK");
  }
}
