/** Store rows as the wire shapes of the two APIs. */
import type { RawFeatureProperties, RawFeatureType, RawListItem } from "../api/raw.js";
import { centroid } from "../geometry/centroid.js";
import type { QualityStatus } from "../../model/statuses.js";
import type { FoundFeature } from "../../model/query.js";
import type { Geometry } from "../../model/geojson.js";
import { geometryTypeOf } from "../../model/features.js";
import type { OsmFeature } from "../../model/features.js";
import { featureJson } from "./json-text.js";

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

/**
 * A /raw feature as JSON text (the RawFeatureCollection schema's Feature), copying the store's tags
 * and geometry. The properties are written member by member, in the order JSON.stringify gave
 * them: an object built and spread only to be serialised cost a /raw/all answer of 400 features
 * 0.14 ms more (session 18).
 */
export function rawFeatureJson({ feature }: FoundFeature): string {
  const { status, hashtags, editor, created_at, closed_at } = annotationsOf(feature);
  const type: RawFeatureProperties["type"] = geotypeOf(geometryTypeOf(feature));
  const properties =
    `{"type":"${type}","id":${feature.osmId},"timestamp":${JSON.stringify(feature.timestamp)},"version":${JSON.stringify(feature.version)},` +
    `"changeset":${JSON.stringify(feature.changeset)},"status":${JSON.stringify(status)},"hashtags":${JSON.stringify(hashtags)},"editor":${JSON.stringify(editor)},` +
    `"created_at":${JSON.stringify(created_at)},"closed_at":${JSON.stringify(closed_at)},"tags":${tagsJson(feature)}}`;
  return featureJson(feature.osmId, geometryJson(feature), properties);
}

export function rawListItem(found: FoundFeature): RawListItem {
  const { feature } = found;
  const [lon, lat] = centroid(feature.geometry);
  const { status, hashtags, created_at, closed_at } = annotationsOf(feature);
  return {
    type: osmTypeOf(found),
    geotype: geotypeOf(geometryTypeOf(feature)),
    id: feature.osmId,
    lat,
    lon,
    timestamp: feature.timestamp,
    tags: feature.tags,
    changeset: feature.changeset,
    status,
    hashtags,
    created_at,
    closed_at,
  };
}

/** Data quality and changeset metadata: the most severe status, and nothing where the store knows nothing. */
function annotationsOf({ annotations }: OsmFeature): Pick<RawFeatureProperties, "status" | "hashtags" | "editor" | "created_at" | "closed_at"> {
  return {
    status: (annotations?.statuses[0] as QualityStatus | undefined) ?? null,
    hashtags: annotations?.hashtags ?? [],
    editor: annotations?.editor ?? null,
    created_at: annotations?.createdAt ?? null,
    closed_at: annotations?.closedAt ?? null,
  };
}

/** What /snapshot/plain/ writes after `osm_id`: every tag, or the selected keys, each with its JSON text up to the value. */
export type PlainSelection = "every tag" | ReadonlyArray<{ key: string; prefix: string }>;

/**
 * A request's `select`, prepared once for all its features: ["*"] is every tag; otherwise each
 * key once, in the request's order, and never osm_id (the feature's id is written there).
 */
export function plainSelection(select: readonly string[]): PlainSelection {
  return select.includes("*") ? "every tag" : selectedMembers(select);
}

function selectedMembers(keys: readonly string[]): Exclude<PlainSelection, "every tag"> {
  return [...new Set(keys)].filter((key) => key !== "osm_id").map((key) => ({ key, prefix: `,${JSON.stringify(key)}:` }));
}

/** `osm_id`, then every tag or the selected tag keys, null where a feature lacks one; as JSON text, copying the store's geometry. */
export function plainFeatureJson(feature: OsmFeature, selection: PlainSelection): string {
  return featureJson(feature.osmId, geometryJson(feature), plainPropertiesJson(feature, selection));
}

function plainPropertiesJson(feature: OsmFeature, selection: PlainSelection): string {
  const stored = feature.stored?.tagsJson;
  // Every tag after osm_id is the store's tags text with osm_id spliced in front, unless a tag
  // is itself named osm_id (the feature's id wins then). The text shows such a tag as
  // `"osm_id":`; a match that is something else only costs the slower way below.
  if (selection === "every tag" && stored?.startsWith("{") && !stored.includes('"osm_id":')) {
    const members = stored.slice(1);
    return /^\s*\}/.test(members) ? `{"osm_id":${feature.osmId}}` : `{"osm_id":${feature.osmId},${members}`;
  }
  const { tags } = feature;
  // Text, member by member: a hundred selected keys on each of thousands of features made
  // objects built to be serialised the slowest part of an answer.
  let json = `{"osm_id":${feature.osmId}`;
  for (const { key, prefix } of selection === "every tag" ? selectedMembers(Object.keys(tags)) : selection) {
    json += `${prefix}${Object.hasOwn(tags, key) ? JSON.stringify(tags[key]) : "null"}`;
  }
  return `${json}}`;
}
