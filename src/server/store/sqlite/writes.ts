/**
 * Every row the SQLite store writes, as prepared statements: the bulk writer (import) and the
 * change applier (update) share them, so both write the same rows the same way.
 */
import type BetterSqlite3 from "better-sqlite3";
import { centroid } from "../../geometry/centroid.js";
import { geometryBBox } from "../../../model/geojson.js";
import { FEATURE_TABLES } from "../../../model/features.js";
import type { Changeset, FeatureTable, OsmFeature, QualityFinding, RawEntity, StoredFeature } from "../../../model/features.js";

type Statement = BetterSqlite3.Statement;

export class SqliteWrites {
  private readonly featureRows = new Map<FeatureTable, { row: Statement; box: Statement; deleteRow: Statement; deleteBox: Statement }>();
  private readonly node: Statement;
  private readonly way: Statement;
  private readonly wayNode: Statement;
  private readonly relation: Statement;
  private readonly relationWay: Statement;
  private readonly undelete: Statement;
  private readonly changeset: Statement;
  private readonly changesetHashtags: Statement;
  private readonly changesetHashtag: Statement;
  private readonly deleteFindings: Statement;
  private readonly finding: Statement;

  constructor(db: BetterSqlite3.Database) {
    for (const table of FEATURE_TABLES) {
      this.featureRows.set(table, {
        row: db.prepare(
          `INSERT INTO ${table} (osm_id, version, changeset, timestamp, uid, "user", tags, geometry, min_x, min_y, max_x, max_y)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        ),
        box: db.prepare(`INSERT OR REPLACE INTO ${table}_rtree (id, minX, maxX, minY, maxY) VALUES (?, ?, ?, ?, ?)`),
        deleteRow: db.prepare(`DELETE FROM ${table} WHERE osm_id = ?`),
        deleteBox: db.prepare(`DELETE FROM ${table}_rtree WHERE id = ?`),
      });
    }
    this.node = db.prepare("INSERT OR REPLACE INTO osm_nodes (id, version, lon, lat) VALUES (?, ?, ?, ?)");
    this.way = db.prepare("INSERT OR REPLACE INTO osm_ways (id, version, refs) VALUES (?, ?, ?)");
    this.wayNode = db.prepare("INSERT OR IGNORE INTO osm_way_nodes (node_id, way_id) VALUES (?, ?)");
    this.relation = db.prepare("INSERT OR REPLACE INTO osm_relations (id, version, members) VALUES (?, ?, ?)");
    this.relationWay = db.prepare("INSERT OR IGNORE INTO osm_relation_ways (way_id, relation_id) VALUES (?, ?)");
    this.undelete = db.prepare("DELETE FROM osm_deleted WHERE type = ? AND id = ?");
    this.changeset = db.prepare(
      `INSERT OR REPLACE INTO changesets (id, created_at, closed_at, uid, "user", editor, hashtags, min_lon, min_lat, max_lon, max_lat)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    this.changesetHashtags = db.prepare("DELETE FROM changeset_hashtags WHERE changeset = ?");
    this.changesetHashtag = db.prepare("INSERT OR IGNORE INTO changeset_hashtags (hashtag, changeset) VALUES (?, ?)");
    this.deleteFindings = db.prepare("DELETE FROM quality WHERE feature_table = ? AND osm_id = ?");
    this.finding = db.prepare(
      `INSERT OR REPLACE INTO quality (feature_table, osm_id, status, source, "values", rank, changeset, timestamp, lon, lat)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
  }

  putFeature(table: FeatureTable, feature: OsmFeature): void {
    const statements = this.featureRows.get(table)!;
    const { osmId } = feature;
    const box = geometryBBox(feature.geometry);
    // Delete, then insert: a replaced row must fire the delete trigger that keeps tag_keys (see sqlite-schema.ts).
    statements.deleteRow.run(osmId);
    statements.row.run(osmId, feature.version, feature.changeset, feature.timestamp, feature.uid, feature.user, JSON.stringify(feature.tags), JSON.stringify(feature.geometry), box.minX, box.minY, box.maxX, box.maxY);
    statements.box.run(osmId, box.minX, box.maxX, box.minY, box.maxY);
  }

  /** Removes the feature and its findings; true when there was one. */
  deleteFeature(table: FeatureTable, osmId: number): boolean {
    const statements = this.featureRows.get(table)!;
    statements.deleteBox.run(osmId);
    this.deleteFindings.run(table, osmId);
    return statements.deleteRow.run(osmId).changes > 0;
  }

  /** Records an object (and the references it makes), and forgets any deletion of it. */
  putRaw(raw: RawEntity, replacing: boolean): void {
    if (replacing) this.undelete.run(raw.type, raw.id);
    switch (raw.type) {
      case "node":
        this.node.run(raw.id, raw.version, raw.lon, raw.lat);
        return;
      case "way":
        this.way.run(raw.id, raw.version, JSON.stringify(raw.refs));
        for (const ref of raw.refs) this.wayNode.run(ref, raw.id);
        return;
      case "relation":
        this.relation.run(raw.id, raw.version, JSON.stringify(raw.members.map(({ type, ref, role }) => ({ type, ref, role }))));
        for (const member of raw.members) if (member.type === "way") this.relationWay.run(member.ref, raw.id);
        return;
    }
  }

  putChangeset(changeset: Changeset): void {
    const [minLon, minLat, maxLon, maxLat] = changeset.bbox ?? [null, null, null, null];
    this.changeset.run(
      changeset.id,
      changeset.createdAt,
      changeset.closedAt,
      changeset.uid,
      changeset.user,
      changeset.editor,
      JSON.stringify(changeset.hashtags),
      minLon,
      minLat,
      maxLon,
      maxLat,
    );
    this.changesetHashtags.run(changeset.id);
    for (const hashtag of changeset.hashtags) this.changesetHashtag.run(hashtag.toLowerCase(), changeset.id);
  }

  /** Replaces the feature's findings; their order is kept as their rank (most severe first). */
  setFindings({ table, feature }: StoredFeature, findings: readonly QualityFinding[]): void {
    this.deleteFindings.run(table, feature.osmId);
    if (findings.length === 0) return;
    const [lon, lat] = centroid(feature.geometry);
    findings.forEach((finding, rank) =>
      this.finding.run(table, feature.osmId, finding.status, finding.source, JSON.stringify(finding.values), rank, feature.changeset, feature.timestamp, lon, lat),
    );
  }
}
