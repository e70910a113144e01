/**
 * Applying an OSM change file to the PostGIS store: osm2pgsql --append with our style rebuilds
 * the features of the changed objects and of the ways and relations that use them; then, in one
 * transaction of ours, the findings of what it rebuilt, the changesets and the replication time.
 *
 * osm2pgsql reports no list of what it rebuilt, so the features are read before and after from
 * its middle tables: the objects the file names, the ways that use their nodes, the relations
 * that have any of them as members. Relation members of every type share one id list there, so
 * a few unrelated relations may be read too; they are checked again, which changes nothing.
 */
import type pg from "pg";
import { toFeature, type FeatureRow } from "../feature-rows.js";
import { FEATURE_TABLES, type FeatureTable, type OsmType, type StoredFeature } from "../../../model/features.js";
import { type AppendOptions, type AppendSummary, type RebuiltFeature } from "../store.js";
import { PostgisFindings } from "./findings.js";
import { runOsm2pgsql } from "./load.js";
import { FEATURE_COLUMN_COUNT, FEATURE_COLUMNS } from "./rows.js";

const TYPE_OF: Record<FeatureTable, OsmType> = { nodes: "node", ways_line: "way", ways_poly: "way", relations: "relation" };

type Ids = Record<OsmType, number[]>;

export async function appendWithOsm2pgsql(pool: pg.Pool, change: string, url: string, options: AppendOptions): Promise<AppendSummary> {
  const before = await featuresOf(pool, await objectsTouched(pool, options.objects));
  await runOsm2pgsql("--append", change, url);
  const after = await featuresOf(pool, await objectsTouched(pool, options.objects));
  const rebuilt = pairs(before, after);
  const findings = await PostgisFindings.begin(pool);
  try {
    // A feature gone, or now in another table (a way closed into a polygon), has no findings left.
    for (const { before: was, after: now } of rebuilt) if (was !== null && now?.table !== was.table) await findings.setFindings(was, []);
    await options.check?.(rebuilt, findings);
    for (const changeset of options.changesets ?? []) {
      const [minLon, minLat, maxLon, maxLat] = changeset.bbox ?? [null, null, null, null];
      await findings.query(
        `INSERT INTO changesets (id, created_at, closed_at, uid, "user", editor, hashtags, min_lon, min_lat, max_lon, max_lat)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)
         ON CONFLICT (id) DO UPDATE SET created_at = excluded.created_at, closed_at = excluded.closed_at, uid = excluded.uid, "user" = excluded."user",
           editor = excluded.editor, hashtags = excluded.hashtags, min_lon = excluded.min_lon, min_lat = excluded.min_lat, max_lon = excluded.max_lon, max_lat = excluded.max_lat`,
        [changeset.id, changeset.createdAt, changeset.closedAt, changeset.uid, changeset.user, changeset.editor, JSON.stringify(changeset.hashtags), minLon, minLat, maxLon, maxLat],
      );
      await findings.query("DELETE FROM changeset_hashtags WHERE changeset = $1", [changeset.id]);
      await findings.query("INSERT INTO changeset_hashtags (hashtag, changeset) SELECT DISTINCT unnest($1::text[]), $2::int8 ON CONFLICT DO NOTHING", [
        changeset.hashtags.map((hashtag) => hashtag.toLowerCase()),
        changeset.id,
      ]);
    }
    const [[replicationTimestamp]] = (
      options.newest === null
        ? await findings.query("SELECT (SELECT value FROM basemodel_meta WHERE key = 'replication_timestamp')", [])
        : await findings.query(
            `INSERT INTO basemodel_meta (key, value) VALUES ('replication_timestamp', $1)
             ON CONFLICT (key) DO UPDATE SET value = GREATEST(basemodel_meta.value, excluded.value) RETURNING value`,
            [options.newest],
          )
    ) as [[string | null]];
    await findings.commit();
    return {
      featuresWritten: rebuilt.filter(({ after: now }) => now !== null).length,
      featuresRemoved: rebuilt.filter(({ before: was, after: now }) => was !== null && now === null).length,
      replicationTimestamp,
    };
  } catch (error) {
    await findings.rollback();
    throw error;
  }
}

/** The objects whose features the change may rebuild: those it names, the ways using their nodes, the relations using any of them. */
async function objectsTouched(pool: pg.Pool, named: AppendOptions["objects"]): Promise<Ids> {
  const nodes = [...named.node];
  // osm2pgsql's middle indexes a way's nodes by bucket (id >> 5): the bucket test finds the candidates through it.
  const { rows: ways } = await pool.query<[number]>({
    text: "SELECT id FROM planet_osm_ways WHERE planet_osm_index_bucket(nodes) && planet_osm_index_bucket($1::int8[]) AND nodes && $1::int8[]",
    values: [nodes],
    rowMode: "array",
  });
  const wayIds = [...new Set([...named.way, ...ways.map(([id]) => Number(id))])];
  const { rows: relations } = await pool.query<[number]>({
    text: "SELECT id FROM planet_osm_rels WHERE parts && $1::int8[]",
    values: [[...nodes, ...wayIds, ...named.relation]],
    rowMode: "array",
  });
  return { node: nodes, way: wayIds, relation: [...new Set([...named.relation, ...relations.map(([id]) => Number(id))])] };
}

/** The features of these objects in every feature table, by object ("way/12"). */
async function featuresOf(pool: pg.Pool, ids: Ids): Promise<Map<string, StoredFeature>> {
  const sql = FEATURE_TABLES.map((table, index) => `SELECT ${FEATURE_COLUMNS}, ${index} FROM ${table} t WHERE t.osm_id = ANY($${index + 1}::int8[])`).join(" UNION ALL ");
  const { rows } = await pool.query<[...FeatureRow, number]>({ text: sql, values: FEATURE_TABLES.map((table) => ids[TYPE_OF[table]]), rowMode: "array" });
  const found = new Map<string, StoredFeature>();
  for (const row of rows) {
    const table = FEATURE_TABLES[row[FEATURE_COLUMN_COUNT]]!;
    found.set(`${TYPE_OF[table]}/${row[0]}`, { table, feature: toFeature(row) });
  }
  return found;
}

function pairs(before: ReadonlyMap<string, StoredFeature>, after: ReadonlyMap<string, StoredFeature>): RebuiltFeature[] {
  const keys = new Set([...before.keys(), ...after.keys()]);
  return [...keys].map((key) => ({ before: before.get(key) ?? null, after: after.get(key) ?? null }));
}
