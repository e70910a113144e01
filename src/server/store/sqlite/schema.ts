/**
 * The SQLite store's tables. Features live in HOT's four raw-data tables, each with an R*Tree
 * of bounding boxes and a count of its tag keys (`tag_keys`); beside them the OSM objects
 * themselves (so a change file can rebuild geometries), changesets, data quality findings and a
 * key-value `meta` table.
 */
import type BetterSqlite3 from "better-sqlite3";
import { FEATURE_TABLES } from "../../../model/features.js";

/** Bumped whenever a table changes: an older file is refused with a clear message, not misread. */
export const SCHEMA_VERSION = "4";

const FEATURE_TABLE_SQL = (table: string) => [
  // osm_id is the rowid: lookups by id are free, and it doubles as the R*Tree id.
  `CREATE TABLE ${table} (
     osm_id INTEGER PRIMARY KEY,
     version INTEGER,
     changeset INTEGER,
     timestamp TEXT,
     uid INTEGER,
     "user" TEXT,
     tags TEXT NOT NULL,
     geometry TEXT NOT NULL,
     -- The geometry's bounding box again beside the R*Tree's (which rounds to 32-bit floats):
     -- a query reads it with the row instead of looking each id up in the R*Tree a second time.
     min_x REAL NOT NULL,
     min_y REAL NOT NULL,
     max_x REAL NOT NULL,
     max_y REAL NOT NULL
   )`,
  `CREATE VIRTUAL TABLE ${table}_rtree USING rtree(id, minX, maxX, minY, maxY)`,
  // tag_keys follows every insert and delete, whoever writes (the store never replaces a row
  // in place: INSERT OR REPLACE would not fire the delete trigger).
  `CREATE TRIGGER ${table}_keys_added AFTER INSERT ON ${table} BEGIN
     INSERT INTO tag_keys (feature_table, key, features) SELECT '${table}', key, 1 FROM json_each(new.tags) WHERE true
       ON CONFLICT (feature_table, key) DO UPDATE SET features = features + 1;
   END`,
  `CREATE TRIGGER ${table}_keys_removed AFTER DELETE ON ${table} BEGIN
     UPDATE tag_keys SET features = features - 1 WHERE feature_table = '${table}' AND key IN (SELECT key FROM json_each(old.tags));
   END`,
];

const SUPPORT_SQL = [
  // How many features of each table carry each tag key: a query whose tag filter needs a key
  // that a table lacks skips that table instead of reading every row in its box.
  "CREATE TABLE tag_keys (feature_table TEXT NOT NULL, key TEXT NOT NULL, features INTEGER NOT NULL, PRIMARY KEY (feature_table, key)) WITHOUT ROWID",
  // Every node, tagged or not: ways are built from these locations.
  "CREATE TABLE osm_nodes (id INTEGER PRIMARY KEY, version INTEGER, lon REAL NOT NULL, lat REAL NOT NULL)",
  // refs and members as JSON arrays: read whole, never queried inside.
  "CREATE TABLE osm_ways (id INTEGER PRIMARY KEY, version INTEGER, refs TEXT NOT NULL)",
  "CREATE TABLE osm_relations (id INTEGER PRIMARY KEY, version INTEGER, members TEXT NOT NULL)",
  // The reverse references a moved node or a changed way needs: which ways and relations to rebuild.
  "CREATE TABLE osm_way_nodes (node_id INTEGER NOT NULL, way_id INTEGER NOT NULL, PRIMARY KEY (node_id, way_id)) WITHOUT ROWID",
  "CREATE TABLE osm_relation_ways (way_id INTEGER NOT NULL, relation_id INTEGER NOT NULL, PRIMARY KEY (way_id, relation_id)) WITHOUT ROWID",
  // Deletions, so that applying a change file again recognises what it already deleted.
  "CREATE TABLE osm_deleted (type TEXT NOT NULL, id INTEGER NOT NULL, version INTEGER, PRIMARY KEY (type, id)) WITHOUT ROWID",
  `CREATE TABLE changesets (
     id INTEGER PRIMARY KEY,
     created_at TEXT,
     closed_at TEXT,
     uid INTEGER,
     "user" TEXT,
     editor TEXT,
     hashtags TEXT NOT NULL,
     min_lon REAL, min_lat REAL, max_lon REAL, max_lat REAL
   )`,
  "CREATE INDEX changesets_created_at ON changesets (created_at)",
  // Lower-cased hashtags: filters match them case-insensitively through this index.
  "CREATE TABLE changeset_hashtags (hashtag TEXT NOT NULL, changeset INTEGER NOT NULL, PRIMARY KEY (hashtag, changeset)) WITHOUT ROWID",
  // One row per feature, status and rule; location is the feature's centroid.
  `CREATE TABLE quality (
     feature_table TEXT NOT NULL,
     osm_id INTEGER NOT NULL,
     status TEXT NOT NULL,
     source TEXT NOT NULL,
     "values" TEXT NOT NULL,
     rank INTEGER NOT NULL,
     changeset INTEGER,
     timestamp TEXT,
     lon REAL NOT NULL,
     lat REAL NOT NULL,
     PRIMARY KEY (feature_table, osm_id, status, source)
   ) WITHOUT ROWID`,
  "CREATE INDEX quality_changeset ON quality (changeset)",
  "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
];

/** The columns of a BoxedFeatureRow (feature-rows.ts), from a feature table named `t`, in its order. */
export const FEATURE_ROW_COLUMNS = 't.osm_id, t.version, t.changeset, t.timestamp, t.uid, t."user", t.tags, t.geometry, t.min_x, t.min_y, t.max_x, t.max_y';

export function createSchema(db: BetterSqlite3.Database): void {
  db.exec([...SUPPORT_SQL, ...FEATURE_TABLES.flatMap(FEATURE_TABLE_SQL)].join(";\n"));
  db.prepare("INSERT INTO meta (key, value) VALUES ('schema_version', ?)").run(SCHEMA_VERSION);
}
