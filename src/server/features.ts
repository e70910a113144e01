/** Store rows as the wire shapes of the two APIs. */
import type { PlainSnapshotProperties } from "../api/snapshot-plain.js";
import type { RawFeatureProperties, RawFeatureType, RawListItem } from "../api/raw.js";
import { centroid } from "../geometry/centroid.js";
import type { QualityStatus } from "../quality/statuses.js";
import type { FoundFeature } from "../query/types.js";
import type { Geometry } from "../store/geojson.js";
import { geometryTypeOf } from "../store/store.js";
import type { OsmFeature } from "../store/store.js";
import { featureJson, withMember } from "./json-text.js";

export function geotypeOf(type: Geometry["type"]): RawFeatureType {
  switch (type) {
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

/** The GeoJSON text of the geometry: the store's own text when it has it. */
function geometryJson(feature: OsmFeature): string {
  return feature.stored?.geometryJson ?? JSON.stringify(feature.geometry);
}

function tagsJson(feature: OsmFeature): string {
  return feature.stored?.tagsJson ?? JSON.stringify(feature.tags);
}

function osmTypeOf({ table }: FoundFeature): RawListItem["type"] {
  return table === "nodes" ? "node" : table === "relations" ? "relation" : "way";
}

/** A /raw feature as JSON text (the RawFeatureCollection schema's Feature), copying the store's tags and geometry. */
export function rawFeatureJson({ feature }: FoundFeature): string {
  const properties: Omit<RawFeatureProperties, "tags"> = {
    type: geotypeOf(geometryTypeOf(feature)),
    id: feature.osmId,
    timestamp: feature.timestamp,
    version: feature.version,
    changeset: feature.changeset,
    ...annotationsOf(feature),
  };
  return featureJson(feature.osmId, geometryJson(feature), withMember(JSON.stringify(properties), "tags", tagsJson(feature)));
}

export function rawListItem(found: FoundFeature): RawListItem {
  const { feature } = found;
  const [lon, lat] = centroid(feature.geometry);
  const { status, hashtags, created_at } = annotationsOf(feature);
  return {
    type: osmTypeOf(found),
    geotype: geotypeOf(geometryTypeOf(feature)),
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

/** `osm_id`, then every tag (select ["*"]) or the selected tag keys, null where a feature lacks one; as JSON text, copying the store's geometry. */
export function plainFeatureJson(feature: OsmFeature, select: readonly string[]): string {
  return featureJson(feature.osmId, geometryJson(feature), plainPropertiesJson(feature, select));
}

function plainPropertiesJson(feature: OsmFeature, select: readonly string[]): string {
  const stored = feature.stored?.tagsJson;
  // Every tag after osm_id is the store's tags text with osm_id spliced in front, unless a tag
  // is itself named osm_id (the feature's id wins then). The text shows such a tag as
  // `"osm_id":`; a match that is something else only costs the slower way below.
  if (select.includes("*") && stored?.startsWith("{") && !stored.includes('"osm_id":')) {
    const members = stored.slice(1);
    return /^\s*\}/.test(members) ? `{"osm_id":${feature.osmId}}` : `{"osm_id":${feature.osmId},${members}`;
  }
  const properties: PlainSnapshotProperties = { osm_id: feature.osmId };
  const keys = select.includes("*") ? Object.keys(feature.tags) : select;
  for (const key of keys) {
    if (key === "osm_id") continue;
    Object.defineProperty(properties, key, { value: feature.tags[key] ?? null, enumerable: true, writable: true, configurable: true });
  }
  return JSON.stringify(properties);
}
