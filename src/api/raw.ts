/** The feature query API: POST /raw/polygons|lines|nodes|all and their *List variants. */
import { QUALITY_STATUSES, type QualityStatus } from "../quality/statuses.js";
import { EXAMPLE_PROJECT, EXAMPLE_RING, EXAMPLE_TAGS } from "./examples.js";
import { featureCollectionSchema, type FeatureCollection } from "./feature-collection.js";
import { areaRingSchema, dateTimeText, nullableInteger, nullableString, pagingProperties, tagText } from "./fragments.js";
import { MAX_LIST_ITEMS, MAX_TAG_LENGTH } from "./limits.js";

export { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from "./fragments.js";

export const rawQuerySchema = {
  $id: "RawQuery",
  type: "object",
  examples: [
    { area: EXAMPLE_RING, tags: EXAMPLE_TAGS },
    { area: EXAMPLE_RING, hashtag: EXAMPLE_PROJECT.hashtag, dateFrom: EXAMPLE_PROJECT.from, dateTo: EXAMPLE_PROJECT.to },
  ],
  properties: {
    area: areaRingSchema,
    tags: {
      type: "string",
      description: `Comma-separated terms, each \`key\` (the key present) or \`key=value\` (exact, case-sensitive); terms are OR-ed; absent or empty = no tag filter. At most ${MAX_LIST_ITEMS} terms, keys and values at most ${MAX_TAG_LENGTH} characters`,
      examples: [EXAMPLE_TAGS],
    },
    hashtag: {
      ...tagText,
      minLength: 1,
      description: "Only features whose changeset has this hashtag (case-insensitive; a leading # is ignored)",
      examples: [EXAMPLE_PROJECT.hashtag],
    },
    dateFrom: { ...dateTimeText, description: "Only features whose changeset was created at or after this time (ISO 8601; no zone = UTC)", examples: [EXAMPLE_PROJECT.from] },
    dateTo: { ...dateTimeText, description: "Only features whose changeset was created at or before this time (ISO 8601; no zone = UTC)", examples: [EXAMPLE_PROJECT.to] },
    status: { enum: QUALITY_STATUSES, description: "Only features with this data quality status" },
    ...pagingProperties,
    orderBy: {
      enum: ["timestamp", "id"],
      default: "timestamp",
      description: "List variants only: timestamp = newest first (then highest id); id = way polygons, way lines, nodes, then relations, each by ascending OSM id",
    },
  },
} as const;

export interface RawQuery {
  area?: string;
  tags?: string;
  hashtag?: string;
  dateFrom?: string;
  dateTo?: string;
  status?: QualityStatus;
  page?: number;
  pageSize?: number;
  orderBy?: "timestamp" | "id";
}

export type RawFeatureType = "Polygon" | "LineString" | "Node";

export interface RawFeatureProperties {
  type: RawFeatureType;
  id: number;
  tags: Record<string, string>;
  /** ISO 8601, UTC */
  timestamp: string | null;
  version: number | null;
  changeset: number | null;
  /** The most severe data quality status, or null when the feature has none. */
  status: QualityStatus | null;
  hashtags: string[];
  editor: string | null;
  created_at: string | null;
}

/** A page of matches; `hasMore` says whether another page exists. */
export interface RawFeatureCollection extends FeatureCollection<RawFeatureProperties> {
  page: number;
  pageSize: number;
  hasMore: boolean;
}

export interface RawListItem {
  type: "node" | "way" | "relation";
  geotype: RawFeatureType;
  id: number;
  /** Latitude of the centroid. */
  lat: number;
  /** Longitude of the centroid. */
  lon: number;
  timestamp: string | null;
  tags: Record<string, string>;
  status: string | null;
  hashtags: string[];
  created_at: string | null;
}

const tagsSchema = { type: "object", additionalProperties: { type: "string" } } as const;
const geotype = { enum: ["Polygon", "LineString", "Node"] } as const;

export const rawFeatureCollectionSchema = featureCollectionSchema(
  "RawFeatureCollection",
  "One page of the matching features as GeoJSON; hasMore says whether another page follows",
  {
    type: "object",
    required: ["type", "id", "tags", "timestamp", "version", "changeset", "status", "hashtags", "editor", "created_at"],
    additionalProperties: false,
    properties: {
      type: geotype,
      id: { type: "integer" },
      tags: tagsSchema,
      timestamp: nullableString,
      version: nullableInteger,
      changeset: nullableInteger,
      status: nullableString,
      hashtags: { type: "array", items: { type: "string" } },
      editor: nullableString,
      created_at: nullableString,
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
    required: ["type", "geotype", "id", "lat", "lon", "timestamp", "tags", "status", "hashtags", "created_at"],
    additionalProperties: false,
    properties: {
      type: { enum: ["node", "way", "relation"] },
      geotype,
      id: { type: "integer" },
      lat: { type: "number", description: "latitude of the centroid" },
      lon: { type: "number", description: "longitude of the centroid" },
      timestamp: nullableString,
      tags: tagsSchema,
      status: nullableString,
      hashtags: { type: "array", items: { type: "string" } },
      created_at: nullableString,
    },
  },
} as const;
