/**
 * A change applied to the SQLite store inside one transaction (BEGIN IMMEDIATE: a second
 * writer waits or fails instead of interleaving). Nothing is visible before commit(), and
 * rollback() leaves the file exactly as it was.
 */
import type BetterSqlite3 from "better-sqlite3";
import type { OsmMember } from "../osm/types.js";
import type { TagFilter } from "../query/types.js";
import type { BBox } from "./geojson.js";
import { toFeature, type FeatureRow } from "./feature-rows.js";
import { FEATURE_ROW_COLUMNS } from "./sqlite-schema.js";
import { candidateWhere } from "./sqlite-where.js";
import { SqliteWrites } from "./sqlite-writes.js";
import { FEATURE_TABLES } from "./store.js";
import type { Changeset, FeatureTable, OsmType, QualityFinding, RawEntity, RawOf, StoredFeature, StoreUpdate } from "./store.js";

type Statement = BetterSqlite3.Statement;

/** The tables a feature of each OSM type can live in (a way moves between line and polygon). */
const TABLES_OF: Record<OsmType, readonly FeatureTable[]> = {
  node: ["nodes"],
  way: ["ways_poly", "ways_line"],
  relation: ["relations"],
};

export class SqliteUpdate implements StoreUpdate {
  private readonly writes: SqliteWrites;
  private readonly statements: Record<string, Statement>;
  private readonly featureById = new Map<FeatureTable, Statement>();
  private readonly byText = new Map<string, Statement>();

  constructor(private readonly db: BetterSqlite3.Database) {
    this.writes = new SqliteWrites(db);
    this.statements = {
      node: db.prepare("SELECT id, version, lon, lat FROM osm_nodes WHERE id = ?"),
      way: db.prepare("SELECT id, version, refs FROM osm_ways WHERE id = ?"),
      relation: db.prepare("SELECT id, version, members FROM osm_relations WHERE id = ?"),
      deleted: db.prepare("SELECT version FROM osm_deleted WHERE type = ? AND id = ?"),
      tombstone: db.prepare("INSERT OR REPLACE INTO osm_deleted (type, id, version) VALUES (?, ?, ?)"),
      deleteNode: db.prepare("DELETE FROM osm_nodes WHERE id = ?"),
      deleteWay: db.prepare("DELETE FROM osm_ways WHERE id = ?"),
      deleteRelation: db.prepare("DELETE FROM osm_relations WHERE id = ?"),
      unlinkWayNodes: db.prepare("DELETE FROM osm_way_nodes WHERE way_id = ?"),
      unlinkRelationWays: db.prepare("DELETE FROM osm_relation_ways WHERE relation_id = ?"),
      waysUsingNode: db.prepare("SELECT way_id FROM osm_way_nodes WHERE node_id = ?").pluck(),
      relationsUsingWay: db.prepare("SELECT relation_id FROM osm_relation_ways WHERE way_id = ?").pluck(),
      // ISO-8601 UTC strings of one format order as their times do.
      replicationTimestamp: db.prepare("SELECT value FROM meta WHERE key = 'replication_timestamp'").pluck(),
      advance: db.prepare(
        "INSERT INTO meta (key, value) VALUES ('replication_timestamp', ?) ON CONFLICT (key) DO UPDATE SET value = max(value, excluded.value)",
      ),
    };
    for (const table of FEATURE_TABLES) {
      this.featureById.set(table, db.prepare(`SELECT ${FEATURE_ROW_COLUMNS} FROM ${table} t WHERE t.osm_id = ?`).raw());
    }
    db.exec("BEGIN IMMEDIATE");
  }

  async getRaw<T extends OsmType>(type: T, id: number): Promise<RawOf<T> | null> {
    const row = this.statements[type]!.get(id) as Record<string, unknown> | undefined;
    if (row === undefined) return null;
    const raw =
      type === "node"
        ? { type, id, version: row.version, lon: row.lon, lat: row.lat }
        : type === "way"
          ? { type, id, version: row.version, refs: JSON.parse(row.refs as string) as number[] }
          : { type, id, version: row.version, members: JSON.parse(row.members as string) as OsmMember[] };
    return raw as RawOf<T>;
  }

  async deletedVersion(type: OsmType, id: number): Promise<number | null | undefined> {
    const row = this.statements.deleted!.get(type, id) as { version: number | null } | undefined;
    return row?.version;
  }

  async putRaw(raw: RawEntity): Promise<void> {
    this.unlink(raw.type, raw.id);
    this.writes.putRaw(raw, true);
  }

  async deleteRaw(type: OsmType, id: number, version: number | null): Promise<void> {
    this.unlink(type, id);
    const remove = { node: "deleteNode", way: "deleteWay", relation: "deleteRelation" }[type];
    this.statements[remove]!.run(id);
    for (const table of TABLES_OF[type]) this.writes.deleteFeature(table, id);
    this.statements.tombstone!.run(type, id, version);
  }

  /** Drops the references an object made, before it is rewritten or deleted. */
  private unlink(type: OsmType, id: number): void {
    if (type === "way") this.statements.unlinkWayNodes!.run(id);
    else if (type === "relation") this.statements.unlinkRelationWays!.run(id);
  }

  async waysUsingNode(nodeId: number): Promise<number[]> {
    return this.statements.waysUsingNode!.all(nodeId) as number[];
  }

  async relationsUsingWay(wayId: number): Promise<number[]> {
    return this.statements.relationsUsingWay!.all(wayId) as number[];
  }

  async getFeature(type: OsmType, id: number): Promise<StoredFeature | null> {
    for (const table of TABLES_OF[type]) {
      const row = this.featureById.get(table)!.get(id) as FeatureRow | undefined;
      if (row !== undefined) return { table, feature: toFeature(row) };
    }
    return null;
  }

  async putFeature(type: OsmType, id: number, found: StoredFeature | null): Promise<void> {
    for (const table of TABLES_OF[type]) if (table !== found?.table) this.writes.deleteFeature(table, id);
    if (found !== null) this.writes.putFeature(found.table, found.feature);
  }

  async featuresInBBox(bbox: BBox, tags?: TagFilter): Promise<StoredFeature[]> {
    return FEATURE_TABLES.flatMap((table) => {
      const where = candidateWhere(table, bbox, { tags });
      const rows = this.prepared(`SELECT ${FEATURE_ROW_COLUMNS} FROM ${table} t WHERE ${where.sql}`)
        .raw()
        .all(...where.parameters) as FeatureRow[];
      return rows.map((row) => ({ table, feature: toFeature(row) }));
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
