/**
 * The data quality reports: POST /report/dataQualityGeo, /report/dataQualityTags (also
 * /report/dataQualityTag, the real service's route) and /report/dataQualityTagStats, each also
 * as CSV under <route>/csv. Their JSON answers are below; the CSV answers have the same rows.
 */
import { GEOMETRY_STATUSES, TAG_STATUSES } from "../../model/statuses.js";
import { EXAMPLE_REPORT, EXAMPLE_RING } from "./examples.js";
import { featureCollectionSchema, type FeatureCollection } from "./feature-collection.js";
import { areaRingSchema, dateTimeText, nullableInteger, nullableString, pagingProperties, tagText } from "./fragments.js";
import { MAX_LIST_ITEMS, MAX_TAG_LENGTH } from "./limits.js";

export const dataQualityRequestSchema = {
  $id: "DataQualityRequest",
  type: "object",
  required: ["fromDate"],
  examples: [{ fromDate: EXAMPLE_REPORT.fromDate }, { ...EXAMPLE_REPORT, area: EXAMPLE_RING }],
  properties: {
    fromDate: {
      ...dateTimeText,
      description:
        "Only problems of edits made at or after this time (ISO 8601; no zone = UTC). An edit's time is its changeset's closing time when the server has the changeset, else the edited version's timestamp",
      examples: [EXAMPLE_REPORT.fromDate],
    },
    toDate: { ...dateTimeText, description: "Only problems of edits made at or before this time (ISO 8601; no zone = UTC); not before fromDate", examples: [EXAMPLE_REPORT.toDate] },
    hashtags: {
      // One type list rather than anyOf: a wrong value then gets one message, not one per branch.
      type: ["string", "array"],
      minLength: 1,
      maxLength: MAX_TAG_LENGTH,
      maxItems: MAX_LIST_ITEMS,
      items: { ...tagText, minLength: 1 },
      description: `A hashtag or a list of at most ${MAX_LIST_ITEMS}: only problems of edits whose changeset has any of them (case-insensitive; a leading # is ignored); absent or [] = any changeset`,
      examples: [EXAMPLE_REPORT.hashtags],
    },
    area: {
      ...areaRingSchema,
      description: `${areaRingSchema.description}. A problem is in the area when its location, the feature's centroid, is inside it`,
    },
    ...pagingProperties,
  },
} as const;

export interface DataQualityRequest {
  fromDate: string;
  toDate?: string;
  hashtags?: string | string[];
  area?: string;
  page?: number;
  pageSize?: number;
}

export type OsmObjectType = "node" | "way" | "relation";
export type GeometryStatus = (typeof GEOMETRY_STATUSES)[number];
export type TagStatus = (typeof TAG_STATUSES)[number];

export interface DataQualityGeoProperties {
  osm_id: number;
  type: OsmObjectType;
  status: GeometryStatus;
  /** The quality rules source that found the problem, e.g. "building". */
  source: string;
  /** What is wrong, e.g. "not square: 63.4° corner at 7.440373 43.7395", or the overlapped features ("way/42"). */
  values: string[];
  changeset: number | null;
  /** ISO 8601, UTC: the checked version's timestamp. */
  timestamp: string | null;
  hashtags: string[];
  /** The object on openstreetmap.org. */
  link: string;
}

/** One Point per problem, at the feature's centroid; `hasMore` says whether another page exists. */
export interface DataQualityGeoCollection extends FeatureCollection<DataQualityGeoProperties> {
  page: number;
  pageSize: number;
  hasMore: boolean;
}

/** One tag problem: one row per value of a finding. */
export interface DataQualityTagRow {
  osm_id: number;
  type: OsmObjectType;
  link: string;
  status: TagStatus;
  /** badvalue: the offending "key=value"; incomplete: the missing key. */
  tag: string;
  source: string;
  changeset: number | null;
  timestamp: string | null;
}

export interface DataQualityTagStat {
  tag: string;
  source: string;
  status: TagStatus;
  /** How many features have this problem. */
  count: number;
}

const osmType = { enum: ["node", "way", "relation"] } as const;
const link = { type: "string", description: "https://www.openstreetmap.org/<type>/<osm_id>" } as const;

export const dataQualityGeoCollectionSchema = featureCollectionSchema(
  "DataQualityGeoCollection",
  "One page of the geometry problems found, as GeoJSON points at each feature's centroid",
  {
    type: "object",
    required: ["osm_id", "type", "status", "source", "values", "changeset", "timestamp", "hashtags", "link"],
    additionalProperties: false,
    properties: {
      osm_id: { type: "integer" },
      type: osmType,
      status: { enum: GEOMETRY_STATUSES },
      source: { type: "string" },
      values: { type: "array", items: { type: "string" } },
      changeset: nullableInteger,
      timestamp: nullableString,
      hashtags: { type: "array", items: { type: "string" } },
      link,
    },
  },
  { page: { type: "integer" }, pageSize: { type: "integer" }, hasMore: { type: "boolean" } },
);

export const dataQualityTagListSchema = {
  $id: "DataQualityTagList",
  description: "The tag problems found: one row per offending tag or missing key",
  type: "array",
  items: {
    type: "object",
    required: ["osm_id", "type", "link", "status", "tag", "source", "changeset", "timestamp"],
    additionalProperties: false,
    properties: {
      osm_id: { type: "integer" },
      type: osmType,
      link,
      status: { enum: TAG_STATUSES },
      tag: { type: "string", description: 'badvalue: the offending "key=value"; incomplete: the missing key' },
      source: { type: "string" },
      changeset: nullableInteger,
      timestamp: nullableString,
    },
  },
} as const;

export const dataQualityTagStatsSchema = {
  $id: "DataQualityTagStats",
  description: "How many features have each tag problem, most frequent first",
  type: "array",
  items: {
    type: "object",
    required: ["tag", "source", "status", "count"],
    additionalProperties: false,
    properties: {
      tag: { type: "string" },
      source: { type: "string" },
      status: { enum: TAG_STATUSES },
      count: { type: "integer", minimum: 1 },
    },
  },
} as const;
