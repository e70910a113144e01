/**
 * The PostGIS store's tables beyond what osm2pgsql creates: the feature tables get their keys
 * and indexes as HOT's service has them, and our own tables hold changesets, data quality
 * findings and the import's metadata (`basemodel_meta`).
 */
import { FEATURE_TABLES } from "../../../model/features.js";

/** Bumped whenever a table changes: an older database is refused with a clear message, not misread. */
export const SCHEMA_VERSION = "1";

/** After osm2pgsql --create: keys, indexes, our tables. */
export const POST_IMPORT_SQL = [
  ...FEATURE_TABLES.flatMap((table) => [
    // osm2pgsql's own index on osm_id gives way to the key.
    `DROP INDEX IF EXISTS ${table}_osm_id_idx`,
    `ALTER TABLE ${table} ADD PRIMARY KEY (osm_id)`,
    `CREATE INDEX ${table}_timestamp_idx ON ${table} (timestamp)`,
  ]),
  // osm2pgsql writes a non-area relation with one usable member as a LineString; the store (and
  // its SQLite twin) hold every such relation as a MultiLineString, also after an --append.
  `CREATE FUNCTION basemodel_multi_line() RETURNS trigger LANGUAGE plpgsql AS $$
   BEGIN
     IF ST_GeometryType(NEW.geom) = 'ST_LineString' THEN NEW.geom := ST_Multi(NEW.geom); END IF;
     RETURN NEW;
   END $$`,
  "CREATE TRIGGER relations_multi_line BEFORE INSERT OR UPDATE ON relations FOR EACH ROW EXECUTE FUNCTION basemodel_multi_line()",
  "UPDATE relations SET geom = ST_Multi(geom) WHERE ST_GeometryType(geom) = 'ST_LineString'",
  "CREATE INDEX relations_tags_idx ON relations USING gin (tags)",
  `CREATE TABLE changesets (
     id bigint PRIMARY KEY,
     created_at text,
     closed_at text,
     uid integer,
     "user" text,
     editor text,
     hashtags jsonb NOT NULL,
     min_lon double precision, min_lat double precision, max_lon double precision, max_lat double precision
   )`,
  "CREATE INDEX changesets_created_at ON changesets (created_at)",
  // Lower-cased hashtags: filters match them case-insensitively through this key.
  "CREATE TABLE changeset_hashtags (hashtag text NOT NULL, changeset bigint NOT NULL, PRIMARY KEY (hashtag, changeset))",
  // One row per feature, status and rule; location is the feature's centroid.
  `CREATE TABLE quality (
     feature_table text NOT NULL,
     osm_id bigint NOT NULL,
     status text NOT NULL,
     source text NOT NULL,
     "values" jsonb NOT NULL,
     rank integer NOT NULL,
     changeset bigint,
     timestamp text,
     lon double precision NOT NULL,
     lat double precision NOT NULL,
     PRIMARY KEY (feature_table, osm_id, status, source)
   )`,
  "CREATE INDEX quality_changeset ON quality (changeset)",
  "CREATE TABLE basemodel_meta (key text PRIMARY KEY, value text NOT NULL)",
  `INSERT INTO basemodel_meta (key, value) VALUES ('schema_version', '${SCHEMA_VERSION}')`,
];

/**
 * Marks the data as changed, in the transaction that changes it: a value no transaction wrote
 * before (transaction ids only grow), which readers compare to the one they last saw.
 */
export const DATA_VERSION_SQL =
  "INSERT INTO basemodel_meta (key, value) VALUES ('data_version', txid_current()::text) ON CONFLICT (key) DO UPDATE SET value = excluded.value";

/** Our tables, dropped before osm2pgsql --create replaces the feature tables (it drops those itself). */
export const DROP_OWN_TABLES_SQL = [
  "DROP TABLE IF EXISTS changesets, changeset_hashtags, quality, basemodel_meta",
  "DROP FUNCTION IF EXISTS basemodel_multi_line() CASCADE",
];
