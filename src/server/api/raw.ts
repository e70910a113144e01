/**
 * The feature query API, both generations of Underpass's: POST /raw/{polygons,lines,nodes,all}
 * and their *List variants (2023), /raw/features, /raw/list and /raw/{kind}/list, and the same
 * under /raw-validation (2024). Counts are in stats.ts.
 */
import { QUALITY_STATUSES } from "../../model/statuses.js";
import { EXAMPLE_PROJECT, EXAMPLE_RING, EXAMPLE_STATUS, EXAMPLE_TAGS } from "./examples.js";
import { featureCollectionSchema, type geometrySchema } from "./feature-collection.js";
import { areaRingSchema, dateTimeText, nullableInteger, nullableString, pagingProperties, tagText } from "./fragments.js";
import { MAX_LIST_ITEMS, MAX_TAG_LENGTH } from "./limits.js";
import type { Answer, Request } from "./wire.js";

export { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from "./fragments.js";

/** The orderings of the list routes, in the real service's names; see `orderBy` below. */
export const RAW_ORDERS = ["timestamp", "created_at", "closed_at", "closedAt", "id"] as const;
export type RawOrder = (typeof RAW_ORDERS)[number];

/** The date members compare with the changeset's creation on the 2023 routes, with its closing on the 2024 ones, as the real service did. */
const DATE_FIELD = "was created (2023 routes: /raw/{kind}, /raw/{kind}List, /stats/count) or closed (2024 routes: the others)";

/** The filters every feature query and count shares. An empty string is no filter, as underpass-ui sends it. */
export const rawFilterProperties = {
  area: {
    ...areaRingSchema,
    // underpass-ui 2024 sends null until its map has moved once.
    type: ["string", "null"],
    description: 'A closed ring: "lon lat, lon lat, ..." (the last pair repeats the first); absent, null or empty = everywhere',
  },
  tags: {
    type: "string",
    description: `Comma-separated terms, each \`key\` (the key present) or \`key=value\` (exact, case-sensitive); terms are OR-ed; absent or empty = no tag filter. At most ${MAX_LIST_ITEMS} terms, keys and values at most ${MAX_TAG_LENGTH} characters`,
    examples: [EXAMPLE_TAGS],
  },
  hashtag: {
    ...tagText,
    description: "Only features whose changeset has this hashtag (case-insensitive; a leading # is ignored); empty = any changeset",
    examples: [EXAMPLE_PROJECT.hashtag],
  },
  dateFrom: { ...dateTimeText, description: `Only features whose changeset ${DATE_FIELD} at or after this time (ISO 8601; no zone = UTC); empty = no bound`, examples: [EXAMPLE_PROJECT.from] },
  dateTo: { ...dateTimeText, description: `Only features whose changeset ${DATE_FIELD} at or before this time (ISO 8601; no zone = UTC); empty = no bound`, examples: [EXAMPLE_PROJECT.to] },
  status: { enum: [...QUALITY_STATUSES, ""], description: "Only features with this data quality status (any of theirs); empty = any feature" },
} as const;

/** Examples of the filters, for the demo town: its centre by tag, and a project of 2022 there. */
export const rawFilterExamples = [
  { area: EXAMPLE_RING, tags: EXAMPLE_TAGS },
  { area: EXAMPLE_RING, hashtag: EXAMPLE_PROJECT.hashtag, dateFrom: EXAMPLE_PROJECT.from, dateTo: EXAMPLE_PROJECT.to },
] as const;

export const rawQuerySchema = {
  $id: "RawQuery",
  type: "object",
  examples: rawFilterExamples,
  properties: {
    ...rawFilterProperties,
    ...pagingProperties,
    orderBy: {
      enum: RAW_ORDERS,
      default: "timestamp",
      description:
        "List routes only. timestamp, and the real service's created_at, closed_at and closedAt: newest first, by the feature's timestamp (when it was edited, while its changeset was open), then highest id. id: way polygons, way lines, nodes, then relations, each by ascending OSM id",
    },
  },
} as const;

/** The 2024 routes that answer every kind of feature (/raw/features, /raw/list and their /raw-validation twins) also take `featureType`. */
export const rawFeaturesQuerySchema = {
  $id: "RawFeaturesQuery",
  type: "object",
  examples: [
    { area: EXAMPLE_RING, tags: EXAMPLE_TAGS, featureType: "polygon" },
    { area: EXAMPLE_RING, status: EXAMPLE_STATUS },
  ],
  properties: {
    ...rawQuerySchema.properties,
    featureType: { enum: ["polygon", "line", "node", ""], description: "Only polygons, lines or nodes; absent or empty = every kind" },
  },
} as const;

const tagsSchema = { type: "object", additionalProperties: { type: "string" } } as const;
const geotype = { enum: ["Polygon", "LineString", "Node"] } as const;
/** The most severe data quality status, or null when the feature has none. */
const status = { type: ["string", "null"], enum: [...QUALITY_STATUSES, null] } as const;

export const rawFeatureCollectionSchema = featureCollectionSchema(
  "RawFeatureCollection",
  "One page of the matching features as GeoJSON; hasMore says whether another page follows",
  {
    type: "object",
    required: ["type", "id", "tags", "timestamp", "version", "changeset", "status", "hashtags", "editor", "created_at", "closed_at"],
    additionalProperties: false,
    properties: {
      type: geotype,
      id: { type: "integer" },
      tags: tagsSchema,
      timestamp: { ...nullableString, description: "When the feature was last edited: ISO 8601, UTC" },
      version: nullableInteger,
      changeset: nullableInteger,
      status,
      hashtags: { type: "array", items: { type: "string" } },
      editor: nullableString,
      created_at: nullableString,
      closed_at: { ...nullableString, description: "When the changeset closed (what the 2024 service answers instead of created_at); null while open or unknown" },
    },
  },
  { page: { type: "integer" }, pageSize: { type: "integer" }, hasMore: { type: "boolean" } },
);

export const rawListSchema = {
  $id: "RawList",
  description: "The matching features, one row each with the latitude and longitude of its centroid",
  type: "array",
  items: {
    type: "object",
    required: ["type", "geotype", "id", "lat", "lon", "timestamp", "tags", "changeset", "status", "hashtags", "created_at", "closed_at"],
    additionalProperties: false,
    properties: {
      type: { enum: ["node", "way", "relation"] },
      geotype,
      id: { type: "integer" },
      lat: { type: "number", description: "latitude of the centroid (the real service answered the longitude here)" },
      lon: { type: "number", description: "longitude of the centroid (the real service answered the latitude here)" },
      timestamp: nullableString,
      tags: tagsSchema,
      changeset: nullableInteger,
      status,
      hashtags: { type: "array", items: { type: "string" } },
      created_at: nullableString,
      closed_at: nullableString,
    },
  },
} as const;

/** The filters every feature query and count shares (rawFilterProperties). */
export type RawFilters = Request<{ type: "object"; properties: typeof rawFilterProperties }>;
export type QueryStatus = NonNullable<RawFilters["status"]>;
export type RawQuery = Request<typeof rawQuerySchema>;
export type RawFeaturesQuery = Request<typeof rawFeaturesQuerySchema>;
export type RawFeatureKind = Exclude<NonNullable<RawFeaturesQuery["featureType"]>, "">;
/** A page of matches; `hasMore` says whether another page exists. */
export type RawFeatureCollection = Answer<typeof rawFeatureCollectionSchema, [typeof geometrySchema]>;
export type RawFeatureProperties = RawFeatureCollection["features"][number]["properties"];
export type RawFeatureType = RawFeatureProperties["type"];
export type RawListItem = Answer<typeof rawListSchema>[number];
