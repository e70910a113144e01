/**
 * Replacing data quality findings in the PostGIS store, in one transaction on a connection of
 * its own: the features and their neighbours are read by box (and tags), the findings written
 * in batches (a round trip per feature would cost more than the checks).
 */
import type pg from "pg";
import { centroid } from "../../geometry/centroid.js";
import type { TagFilter } from "../../../model/query.js";
import { toFeature, type FeatureRow } from "../feature-rows.js";
import type { BBox } from "../../../model/geojson.js";
import { FEATURE_TABLES, type FeatureTable, type QualityFinding, type StoredFeature } from "../../../model/features.js";
import { type FindingsUpdate } from "../store.js";
import { statementName } from "./connection.js";
import { Parameters } from "./parameters.js";
import { FEATURE_COLUMN_COUNT, FEATURE_COLUMNS } from "./rows.js";
import { DATA_VERSION_SQL } from "./schema.js";
import { tagCondition } from "./where.js";

/** Features whose findings are written per statement. */
const BATCH = 1000;

export class PostgisFindings implements FindingsUpdate {
  private pending: Array<{ found: StoredFeature; findings: readonly QualityFinding[] }> = [];

  private constructor(private readonly client: pg.PoolClient) {}

  static async begin(pool: pg.Pool): Promise<PostgisFindings> {
    const client = await pool.connect();
    try {
      await client.query("BEGIN");
    } catch (error) {
      client.release(error as Error);
      throw error;
    }
    return new PostgisFindings(client);
  }

  /** Features of any table whose bounding box meets `bbox`, restricted by `tags`, table by table, by osm_id: one round trip. */
  async featuresInBBox(bbox: BBox, tags?: TagFilter): Promise<StoredFeature[]> {
    const parameters = new Parameters();
    const box = `ST_MakeEnvelope(${parameters.add(bbox.minX)}, ${parameters.add(bbox.minY)}, ${parameters.add(bbox.maxX)}, ${parameters.add(bbox.maxY)}, 4326)`;
    const tagSql = tagCondition(tags, parameters);
    const where = `t.geom && ${box}${tagSql === "" ? "" : ` AND ${tagSql}`}`;
    // The table's position follows the FeatureRow's columns.
    const sql = FEATURE_TABLES.map((table, index) => `SELECT ${FEATURE_COLUMNS}, ${index} FROM ${table} t WHERE ${where}`).join(" UNION ALL ");
    const text = `${sql} ORDER BY ${FEATURE_COLUMN_COUNT + 1}, 1`;
    // Prepared once per shape of the tag filter: a check asks this for every feature.
    const { rows } = await this.client.query<[...FeatureRow, number]>({ name: statementName(text), text, values: parameters.values, rowMode: "array" });
    return rows.map((row) => ({ table: FEATURE_TABLES[row[FEATURE_COLUMN_COUNT]]!, feature: toFeature(row) }));
  }

  async setFindings(found: StoredFeature, findings: readonly QualityFinding[]): Promise<void> {
    this.pending.push({ found, findings });
    if (this.pending.length >= BATCH) await this.flush();
  }

  /** Replaces the pending features' findings: their order is kept as their rank (most severe first). */
  private async flush(): Promise<void> {
    const batch = this.pending;
    this.pending = [];
    if (batch.length === 0) return;
    await this.client.query("DELETE FROM quality q USING unnest($1::text[], $2::int8[]) AS f(feature_table, osm_id) WHERE q.feature_table = f.feature_table AND q.osm_id = f.osm_id", [
      batch.map(({ found }) => found.table),
      batch.map(({ found }) => found.feature.osmId),
    ]);
    const columns: [FeatureTable[], number[], string[], string[], string[], number[], Array<number | null>, Array<string | null>, number[], number[]] = [[], [], [], [], [], [], [], [], [], []];
    for (const { found, findings } of batch) {
      if (findings.length === 0) continue;
      const { feature, table } = found;
      const [lon, lat] = centroid(feature.geometry);
      findings.forEach((finding, rank) => {
        const row = [table, feature.osmId, finding.status, finding.source, JSON.stringify(finding.values), rank, feature.changeset, feature.timestamp, lon, lat] as const;
        row.forEach((value, column) => (columns[column] as unknown[]).push(value));
      });
    }
    if (columns[0].length === 0) return;
    await this.client.query(
      `INSERT INTO quality (feature_table, osm_id, status, source, "values", rank, changeset, timestamp, lon, lat)
       SELECT * FROM unnest($1::text[], $2::int8[], $3::text[], $4::text[], $5::jsonb[], $6::int4[], $7::int8[], $8::text[], $9::float8[], $10::float8[])`,
      columns,
    );
  }

  /** Runs a statement in the findings' transaction: what must commit with them (a change's changesets and time). */
  async query(sql: string, values: readonly unknown[]): Promise<unknown[][]> {
    return (await this.client.query<unknown[]>({ text: sql, values: values as unknown[], rowMode: "array" })).rows;
  }

  async commit(): Promise<void> {
    try {
      await this.flush();
      await this.client.query(DATA_VERSION_SQL);
      await this.client.query("COMMIT");
      this.client.release();
    } catch (error) {
      await this.rollback();
      throw error;
    }
  }

  async rollback(): Promise<void> {
    this.pending = [];
    try {
      await this.client.query("ROLLBACK");
      this.client.release();
    } catch (error) {
      this.client.release(error as Error);
    }
  }
}
