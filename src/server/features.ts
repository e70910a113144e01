/** Store rows as the wire shapes of the two APIs. */
import type { Feature } from "../api/feature-collection.js";
import type { PlainSnapshotProperties } from "../api/snapshot-plain.js";
import type { RawFeatureProperties, RawFeatureType, RawListItem } from "../api/raw.js";
import { centroid } from "../geometry/centroid.js";
import type { QualityStatus } from "../quality/statuses.js";
import type { FoundFeature } from "../query/types.js";
import type { Geometry } from "../store/geojson.js";
import type { OsmFeature } from "../store/store.js";

export function geotypeOf(geometry: Geometry): RawFeatureType {
  switch (geometry.type) {
    case "Point":
      return "Node";
    case "LineString":
    case "MultiLineString":
      return "LineString";
    case "Polygon":
    case "MultiPolygon":
      return "Polygon";
  }
}

function osmTypeOf({ table }: FoundFeature): RawListItem["type"] {
  return table === "nodes" ? "node" : table === "relations" ? "relation" : "way";
}

export function rawFeature({ feature }: FoundFeature): Feature<RawFeatureProperties> {
  return {
    type: "Feature",
    id: feature.osmId,
    geometry: feature.geometry,
    properties: {
      type: geotypeOf(feature.geometry),
      id: feature.osmId,
      tags: feature.tags,
      timestamp: feature.timestamp,
      version: feature.version,
      changeset: feature.changeset,
      ...annotationsOf(feature),
    },
  };
}

export function rawListItem(found: FoundFeature): RawListItem {
  const { feature } = found;
  const [lon, lat] = centroid(feature.geometry);
  const { status, hashtags, created_at } = annotationsOf(feature);
  return {
    type: osmTypeOf(found),
    geotype: geotypeOf(feature.geometry),
    id: feature.osmId,
    lat,
    lon,
    timestamp: feature.timestamp,
    tags: feature.tags,
    status,
    hashtags,
    created_at,
  };
}

/** Data quality and changeset metadata: the most severe status, and nothing where the store knows nothing. */
function annotationsOf({ annotations }: OsmFeature): Pick<RawFeatureProperties, "status" | "hashtags" | "editor" | "created_at"> {
  return {
    status: (annotations?.statuses[0] as QualityStatus | undefined) ?? null,
    hashtags: annotations?.hashtags ?? [],
    editor: annotations?.editor ?? null,
    created_at: annotations?.createdAt ?? null,
  };
}

/** `osm_id`, then every tag (select ["*"]) or the selected tag keys, null where a feature lacks one. */
export function plainFeature(feature: OsmFeature, select: readonly string[]): Feature<PlainSnapshotProperties> {
  const properties: PlainSnapshotProperties = { osm_id: feature.osmId };
  const keys = select.includes("*") ? Object.keys(feature.tags) : select;
  for (const key of keys) {
    if (key === "osm_id") continue;
    Object.defineProperty(properties, key, { value: feature.tags[key] ?? null, enumerable: true, writable: true, configurable: true });
  }
  return { type: "Feature", id: feature.osmId, geometry: feature.geometry, properties };
}
