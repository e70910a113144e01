/**
 * A change applied to the SQLite store inside one transaction (BEGIN IMMEDIATE: a second
 * writer waits or fails instead of interleaving). Nothing is visible before commit(), and
 * rollback() leaves the file exactly as it was.
 */
import type BetterSqlite3 from "better-sqlite3";
import type { OsmMember } from "../../../model/osm.js";
import type { TagFilter } from "../../../model/query.js";
import type { BBox } from "../../../model/geojson.js";
import { toBoxedFeature, type BoxedFeatureRow } from "../feature-rows.js";
import { FEATURE_ROW_COLUMNS } from "./schema.js";
import { candidateWhere } from "./where.js";
import { SqliteWrites } from "./writes.js";
import { FEATURE_TABLES } from "../../../model/features.js";
import type { Changeset, FeatureTable, OsmType, QualityFinding, RawEntity, RawOf, StoredFeature } from "../../../model/features.js";
import type { StoreUpdate } from "../store.js";

type Statement = BetterSqlite3.Statement;

/** The tables a feature of each OSM type can live in (a way moves between line and polygon). */
const TABLES_OF: Record<OsmType, readonly FeatureTable[]> = {
  node: ["nodes"],
  way: ["ways_poly", "ways_line"],
  relation: ["relations"],
};

/** A set of ids as one statement parameter: a JSON array, read by json_each (no limit on the number of ids). */
const IDS = "(SELECT value FROM json_each(?))";
/** Ids per statement: the JSON text and SQLite's temporary index for the IN stay small. */
const BATCH = 1000;

/** The rows `read` gives for `ids`, BATCH ids at a time. */
function inBatches<Row>(ids: readonly number[], read: (batch: string) => Row[]): Row[] {
  const rows: Row[] = [];
  for (let start = 0; start < ids.length; start += BATCH) rows.push(...read(JSON.stringify(ids.slice(start, start + BATCH))));
  return rows;
}

export class SqliteUpdate implements StoreUpdate {
  private readonly writes: SqliteWrites;
  private readonly statements: Record<string, Statement>;
  private readonly featureById = new Map<FeatureTable, Statement>();
  private readonly byText = new Map<string, Statement>();

  constructor(private readonly db: BetterSqlite3.Database) {
    this.writes = new SqliteWrites(db);
    this.statements = {
      node: db.prepare(`SELECT id, version, lon, lat FROM osm_nodes WHERE id IN ${IDS}`),
      way: db.prepare(`SELECT id, version, refs FROM osm_ways WHERE id IN ${IDS}`),
      relation: db.prepare(`SELECT id, version, members FROM osm_relations WHERE id IN ${IDS}`),
      deleted: db.prepare(`SELECT id, version FROM osm_deleted WHERE type = ? AND id IN ${IDS}`),
      tombstone: db.prepare("INSERT OR REPLACE INTO osm_deleted (type, id, version) VALUES (?, ?, ?)"),
      deleteNode: db.prepare("DELETE FROM osm_nodes WHERE id = ?"),
      deleteWay: db.prepare("DELETE FROM osm_ways WHERE id = ?"),
      deleteRelation: db.prepare("DELETE FROM osm_relations WHERE id = ?"),
      unlinkWayNodes: db.prepare("DELETE FROM osm_way_nodes WHERE way_id = ?"),
      unlinkRelationWays: db.prepare("DELETE FROM osm_relation_ways WHERE relation_id = ?"),
      waysUsingNodes: db.prepare(`SELECT node_id, way_id FROM osm_way_nodes WHERE node_id IN ${IDS}`).raw(),
      relationsUsingWays: db.prepare(`SELECT DISTINCT relation_id FROM osm_relation_ways WHERE way_id IN ${IDS}`).pluck(),
      // ISO-8601 UTC strings of one format order as their times do.
      replicationTimestamp: db.prepare("SELECT value FROM meta WHERE key = 'replication_timestamp'").pluck(),
      advance: db.prepare(
        "INSERT INTO meta (key, value) VALUES ('replication_timestamp', ?) ON CONFLICT (key) DO UPDATE SET value = max(value, excluded.value)",
      ),
    };
    for (const table of FEATURE_TABLES) {
      this.featureById.set(table, db.prepare(`SELECT ${FEATURE_ROW_COLUMNS} FROM ${table} t WHERE t.osm_id IN ${IDS}`).raw());
    }
    db.exec("BEGIN IMMEDIATE");
  }

  async getRaws<T extends OsmType>(type: T, ids: readonly number[]): Promise<Map<number, RawOf<T>>> {
    const raws = new Map<number, RawOf<T>>();
    for (const row of inBatches(ids, (batch) => this.statements[type]!.all(batch) as Array<Record<string, unknown>>)) {
      const id = row.id as number;
      const raw =
        type === "node"
          ? { type, id, version: row.version, lon: row.lon, lat: row.lat }
          : type === "way"
            ? { type, id, version: row.version, refs: JSON.parse(row.refs as string) as number[] }
            : { type, id, version: row.version, members: JSON.parse(row.members as string) as OsmMember[] };
      raws.set(id, raw as RawOf<T>);
    }
    return raws;
  }

  async deletedVersions(type: OsmType, ids: readonly number[]): Promise<Map<number, number | null>> {
    const rows = inBatches(ids, (batch) => this.statements.deleted!.all(type, batch) as Array<{ id: number; version: number | null }>);
    return new Map(rows.map(({ id, version }) => [id, version]));
  }

  async putRaws(raws: readonly RawEntity[]): Promise<void> {
    for (const raw of raws) {
      this.unlink(raw.type, raw.id);
      this.writes.putRaw(raw, true);
    }
  }

  async deleteRaws(deletions: ReadonlyArray<{ type: OsmType; id: number; version: number | null }>): Promise<void> {
    for (const { type, id, version } of deletions) {
      this.unlink(type, id);
      const remove = { node: "deleteNode", way: "deleteWay", relation: "deleteRelation" }[type];
      this.statements[remove]!.run(id);
      for (const table of TABLES_OF[type]) this.writes.deleteFeature(table, id);
      this.statements.tombstone!.run(type, id, version);
    }
  }

  /** Drops the references an object made, before it is rewritten or deleted. */
  private unlink(type: OsmType, id: number): void {
    if (type === "way") this.statements.unlinkWayNodes!.run(id);
    else if (type === "relation") this.statements.unlinkRelationWays!.run(id);
  }

  async waysUsingNodes(nodeIds: readonly number[]): Promise<Map<number, number[]>> {
    const ways = new Map<number, number[]>();
    for (const [node, way] of inBatches(nodeIds, (batch) => this.statements.waysUsingNodes!.all(batch) as Array<[number, number]>)) {
      const list = ways.get(node);
      if (list === undefined) ways.set(node, [way]);
      else list.push(way);
    }
    return ways;
  }

  async relationsUsingWays(wayIds: readonly number[]): Promise<number[]> {
    return [...new Set(inBatches(wayIds, (batch) => this.statements.relationsUsingWays!.all(batch) as number[]))];
  }

  async getFeatures(type: OsmType, ids: readonly number[]): Promise<Map<number, StoredFeature>> {
    const found = new Map<number, StoredFeature>();
    for (const table of TABLES_OF[type]) {
      for (const row of inBatches(ids, (batch) => this.featureById.get(table)!.all(batch) as BoxedFeatureRow[])) found.set(row[0], { table, feature: toBoxedFeature(row) });
    }
    return found;
  }

  async putFeatures(features: ReadonlyArray<{ type: OsmType; id: number; found: StoredFeature | null }>): Promise<void> {
    for (const { type, id, found } of features) {
      for (const table of TABLES_OF[type]) if (table !== found?.table) this.writes.deleteFeature(table, id);
      if (found !== null) this.writes.putFeature(found.table, found.feature);
    }
  }

  async featuresInBBox(bbox: BBox, tags?: TagFilter): Promise<StoredFeature[]> {
    return FEATURE_TABLES.flatMap((table) => {
      const where = candidateWhere(table, bbox, { tags });
      const rows = this.prepared(`SELECT ${FEATURE_ROW_COLUMNS} FROM ${table} t WHERE ${where.sql}`)
        .raw()
        .all(...where.parameters) as BoxedFeatureRow[];
      return rows.map((row) => ({ table, feature: toBoxedFeature(row) }));
    });
  }

  /** Statements differ only by the shape of the tag filter: a few per update. */
  private prepared(sql: string): Statement {
    let statement = this.byText.get(sql);
    if (statement === undefined) this.byText.set(sql, (statement = this.db.prepare(sql)));
    return statement;
  }

  async setFindings(found: StoredFeature, findings: readonly QualityFinding[]): Promise<void> {
    this.writes.setFindings(found, findings);
  }

  async putChangeset(changeset: Changeset): Promise<void> {
    this.writes.putChangeset(changeset);
  }

  async advanceReplicationTimestamp(timestamp: string): Promise<string> {
    this.statements.advance!.run(timestamp);
    return this.statements.replicationTimestamp!.get() as string;
  }

  async commit(): Promise<void> {
    this.db.exec("COMMIT");
  }

  async rollback(): Promise<void> {
    if (this.db.inTransaction) this.db.exec("ROLLBACK");
  }
}
