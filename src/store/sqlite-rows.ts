/** A feature table's row, and the feature it holds. */
import type { OsmFeature } from "./store.js";

export interface FeatureRow {
  osm_id: number;
  version: number | null;
  changeset: number | null;
  timestamp: string | null;
  uid: number | null;
  user: string | null;
  tags: string;
  geometry: string;
}

export function toFeature(row: FeatureRow): OsmFeature {
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
