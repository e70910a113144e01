/**
 * The embedded feature store: one SQLite file (better-sqlite3) holding the four feature
 * tables, an R*Tree of bounding boxes per table, and a `meta` table.
 *
 * better-sqlite3 is an optional peer dependency (a native module), so it is imported lazily
 * here and nowhere else: merely loading the package never requires it.
 */
import { existsSync } from "node:fs";
import type BetterSqlite3 from "better-sqlite3";
import { geometryBBox } from "./geojson.js";
import type { BBox } from "./geojson.js";
import type { TagFilter } from "../query/types.js";
import { FEATURE_TABLES } from "./store.js";
import type { CandidateOptions, FeatureStore, FeatureStoreFactory, FeatureTable, FeatureWriter, OsmFeature, StoreMeta } from "./store.js";

type Database = BetterSqlite3.Database;
type Statement = BetterSqlite3.Statement;

const SCHEMA_VERSION = "1";

async function loadDriver(): Promise<typeof BetterSqlite3> {
  try {
    return (await import("better-sqlite3")).default;
  } catch (error) {
    throw new Error("The SQLite store needs the optional dependency better-sqlite3: run `npm install better-sqlite3@12`", { cause: error });
  }
}

export const sqliteStoreFactory: FeatureStoreFactory = {
  async create(path) {
    if (existsSync(path)) throw new Error(`Cannot create a store at ${path}: the file exists`);
    const Driver = await loadDriver();
    const db = new Driver(path);
    createSchema(db);
    return new SqliteFeatureStore(db);
  },
  async open(path) {
    const Driver = await loadDriver();
    // fileMustExist: opening a mistyped path must fail, not create an empty store.
    const db = new Driver(path, { fileMustExist: true });
    let version: unknown;
    try {
      version = db.prepare("SELECT value FROM meta WHERE key = 'schema_version'").pluck().get();
    } catch {
      // Not SQLite at all, or SQLite without our tables: both are answered below.
    }
    if (version !== SCHEMA_VERSION) {
      db.close();
      throw new Error(`${path} is not a feature store of schema version ${SCHEMA_VERSION}`);
    }
    return new SqliteFeatureStore(db);
  },
};

function createSchema(db: Database): void {
  const statements = FEATURE_TABLES.flatMap((table) => [
    // osm_id is the rowid: lookups by id are free, and it doubles as the R*Tree id.
    `CREATE TABLE ${table} (
       osm_id INTEGER PRIMARY KEY,
       version INTEGER,
       changeset INTEGER,
       timestamp TEXT,
       uid INTEGER,
       "user" TEXT,
       tags TEXT NOT NULL,
       geometry TEXT NOT NULL
     )`,
    `CREATE VIRTUAL TABLE ${table}_rtree USING rtree(id, minX, maxX, minY, maxY)`,
  ]);
  statements.push("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)");
  db.exec(statements.join(";\n"));
  db.prepare("INSERT INTO meta (key, value) VALUES ('schema_version', ?)").run(SCHEMA_VERSION);
}

interface FeatureRow {
  osm_id: number;
  version: number | null;
  changeset: number | null;
  timestamp: string | null;
  uid: number | null;
  user: string | null;
  tags: string;
  geometry: string;
}

class SqliteFeatureStore implements FeatureStore {
  private readonly statements = new Map<string, Statement>();

  constructor(private readonly db: Database) {}

  writer(): FeatureWriter {
    return new SqliteFeatureWriter(this.db);
  }

  async queryBBox(table: FeatureTable, bbox: BBox): Promise<OsmFeature[]> {
    const features: OsmFeature[] = [];
    for await (const feature of this.candidates(table, bbox)) features.push(feature);
    return features;
  }

  async *candidates(table: FeatureTable, bbox: BBox, options: CandidateOptions = {}): AsyncGenerator<OsmFeature> {
    const where = candidateWhere(table, bbox, options.tags);
    const order = options.order === "newest" ? "t.timestamp DESC, t.osm_id DESC" : "t.osm_id";
    const rows = this.statement(`SELECT t.* FROM ${table} t WHERE ${where.sql} ORDER BY ${order}`).iterate(...where.parameters) as IterableIterator<FeatureRow>;
    for (const row of rows) yield toFeature(row);
  }

  async countCandidates(table: FeatureTable, bbox: BBox, options: Pick<CandidateOptions, "tags"> = {}): Promise<number> {
    const where = candidateWhere(table, bbox, options.tags);
    return this.statement(`SELECT count(*) FROM ${table} t WHERE ${where.sql}`).pluck().get(...where.parameters) as number;
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

  async readMeta(): Promise<StoreMeta | null> {
    const rows = this.db.prepare("SELECT key, value FROM meta").all() as Array<{ key: string; value: string }>;
    const values = new Map(rows.map((row) => [row.key, row.value]));
    const statistics = values.get("import_statistics");
    if (statistics === undefined) return null;
    return { replicationTimestamp: values.get("replication_timestamp") ?? null, statistics: JSON.parse(statistics) };
  }

  async close(): Promise<void> {
    this.db.close();
  }
}

const MAX_CACHED_STATEMENTS = 64;

/**
 * The bounding-box and tag conditions of a candidate query. osm_id IN (...) rather than a join:
 * SQLite then reads the R*Tree's ids into a sorted list and walks the table in osm_id order, so
 * the "id" order needs no sort and a caller that stops after one page reads little more than it.
 */
function candidateWhere(table: FeatureTable, bbox: BBox, filter: TagFilter | undefined): { sql: string; parameters: Array<string | number> } {
  // The table name is the one thing spliced into the SQL: it must be one of ours.
  if (!FEATURE_TABLES.includes(table)) throw new Error(`Unknown feature table ${JSON.stringify(table)}`);
  const tags = tagCondition(filter);
  return {
    sql: `t.osm_id IN (SELECT id FROM ${table}_rtree WHERE minX <= ? AND maxX >= ? AND minY <= ? AND maxY >= ?)${tags.sql === "" ? "" : ` AND ${tags.sql}`}`,
    parameters: [bbox.maxX, bbox.minX, bbox.maxY, bbox.minY, ...tags.parameters],
  };
}

/**
 * The tag filter as SQL over the JSON `tags` column. Keys and values only ever travel as bound
 * parameters; a condition's values go as one JSON array so that any number of them binds to
 * a single parameter.
 */
function tagCondition(filter: TagFilter | undefined): { sql: string; parameters: string[] } {
  if (!filter || filter.conditions.length === 0) return { sql: "", parameters: [] };
  const parameters: string[] = [];
  const clauses = filter.conditions.map(({ key, values }) => {
    parameters.push(key);
    if (values.length === 0) return "EXISTS (SELECT 1 FROM json_each(t.tags) tag WHERE tag.key = ?)";
    parameters.push(JSON.stringify(values));
    return "EXISTS (SELECT 1 FROM json_each(t.tags) tag WHERE tag.key = ? AND tag.value IN (SELECT value FROM json_each(?)))";
  });
  return { sql: `(${clauses.join(filter.join === "and" ? " AND " : " OR ")})`, parameters };
}

function toFeature(row: FeatureRow): OsmFeature {
  return {
    osmId: row.osm_id,
    version: row.version,
    changeset: row.changeset,
    timestamp: row.timestamp,
    uid: row.uid,
    user: row.user,
    tags: JSON.parse(row.tags),
    geometry: JSON.parse(row.geometry),
  };
}

class SqliteFeatureWriter implements FeatureWriter {
  private readonly inserts = new Map<FeatureTable, { row: Statement; box: Statement }>();

  constructor(private readonly db: Database) {
    // The whole load is one transaction, so abort() can undo all of it. The journal lives in
    // memory (into a fresh file, new pages need almost no journaling) and fsyncs are skipped:
    // the importer builds a temporary file and renames it into place only when complete.
    db.pragma("journal_mode = MEMORY");
    db.pragma("synchronous = OFF");
    for (const table of FEATURE_TABLES) {
      this.inserts.set(table, {
        row: db.prepare(
          `INSERT OR REPLACE INTO ${table} (osm_id, version, changeset, timestamp, uid, "user", tags, geometry)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
        ),
        box: db.prepare(`INSERT OR REPLACE INTO ${table}_rtree (id, minX, maxX, minY, maxY) VALUES (?, ?, ?, ?, ?)`),
      });
    }
    db.exec("BEGIN");
  }

  async insert(table: FeatureTable, feature: OsmFeature): Promise<void> {
    const statements = this.inserts.get(table)!;
    const { osmId } = feature;
    statements.row.run(
      osmId,
      feature.version,
      feature.changeset,
      feature.timestamp,
      feature.uid,
      feature.user,
      JSON.stringify(feature.tags),
      JSON.stringify(feature.geometry),
    );
    const box = geometryBBox(feature.geometry);
    statements.box.run(osmId, box.minX, box.maxX, box.minY, box.maxY);
  }

  async finish(meta: StoreMeta): Promise<void> {
    const upsert = this.db.prepare("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)");
    if (meta.replicationTimestamp !== null) upsert.run("replication_timestamp", meta.replicationTimestamp);
    upsert.run("import_statistics", JSON.stringify(meta.statistics));
    this.db.exec("COMMIT");
  }

  async abort(): Promise<void> {
    if (this.db.inTransaction) this.db.exec("ROLLBACK");
  }
}
