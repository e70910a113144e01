/** POST /latest/snapshot/plain/: features of a small region as GeoJSON, answered at once. */
import type { AliasSpec } from "./aliases.js";
import { EXAMPLE_BBOX } from "./examples.js";
import { featureCollectionSchema, type FeatureCollection } from "./feature-collection.js";
import { tagText } from "./fragments.js";
import { MAX_LIST_ITEMS, MAX_PLAIN_ANSWER_BYTES, MAX_TAG_LENGTH } from "./limits.js";

export const FEATURE_TABLE_NAMES = ["nodes", "ways_poly", "ways_line", "relations"] as const;
export const GEOMETRY_TYPES = ["point", "line", "polygon"] as const;

export const snapshotParamsPlainSchema = {
  $id: "SnapshotParamsPlain",
  type: "object",
  examples: [{ bbox: EXAMPLE_BBOX, select: ["building", "name"] }, { bbox: EXAMPLE_BBOX, where: [{ key: "amenity", value: ["*"] }], lookIn: ["nodes", "ways_poly"] }],
  description: `Every member is optional. snake_case spellings (join_by, look_in, geometry_type) are accepted too. Lists hold at most ${MAX_LIST_ITEMS} items, tag keys and values at most ${MAX_TAG_LENGTH} characters; an answer over ${MAX_PLAIN_ANSWER_BYTES} bytes is a 422 that points to POST /snapshot/.`,
  properties: {
    bbox: {
      type: "array",
      minItems: 4,
      maxItems: 4,
      items: [{ type: "number" }, { type: "number" }, { type: "number" }, { type: "number" }],
      description: "xmin, ymin, xmax, ymax in EPSG:4326; absent = everywhere (the feature limit still applies)",
      examples: [EXAMPLE_BBOX],
    },
    select: {
      type: "array",
      minItems: 1,
      maxItems: MAX_LIST_ITEMS,
      items: { ...tagText, minLength: 1 },
      default: ["*"],
      description: 'Tag keys written as properties (null when a feature lacks one); ["*"] writes every tag',
    },
    where: {
      type: "array",
      maxItems: MAX_LIST_ITEMS,
      items: {
        type: "object",
        required: ["key", "value"],
        properties: {
          key: { ...tagText, minLength: 1 },
          value: { type: "array", maxItems: MAX_LIST_ITEMS, items: tagText, description: 'Any of these values; ["*"] or [] = the key with any value' },
        },
      },
      default: [{ key: "building", value: ["*"] }],
      description: "Tag conditions; an empty list matches every feature",
    },
    joinBy: { enum: ["OR", "AND"], default: "OR", description: "How the where conditions combine" },
    lookIn: {
      type: "array",
      minItems: 1,
      uniqueItems: true,
      items: { enum: FEATURE_TABLE_NAMES },
      default: ["nodes", "ways_poly"],
      description: "Feature tables searched",
    },
    geometryType: { enum: GEOMETRY_TYPES, description: "Only features of this geometry: point, line or polygon" },
  },
} as const;

export const snapshotParamsPlainAliases: AliasSpec = {
  names: { join_by: "joinBy", look_in: "lookIn", geometry_type: "geometryType" },
};

export type FeatureTableName = (typeof FEATURE_TABLE_NAMES)[number];
export type GeometryTypeName = (typeof GEOMETRY_TYPES)[number];

export interface WhereCondition {
  key: string;
  value: string[];
}

export interface SnapshotParamsPlain {
  bbox?: [number, number, number, number];
  select?: string[];
  where?: WhereCondition[];
  joinBy?: "OR" | "AND";
  lookIn?: FeatureTableName[];
  geometryType?: GeometryTypeName;
}

/** Each feature's properties: `osm_id`, then the selected tags (one member per tag key). */
export type PlainSnapshotProperties = { osm_id: number } & Record<string, string | number | null>;

export type PlainSnapshotResponse = FeatureCollection<PlainSnapshotProperties>;

export const plainSnapshotResponseSchema = featureCollectionSchema(
  "PlainSnapshotResponse",
  "The matching features as GeoJSON: properties osm_id and the selected tags",
  {
    type: "object",
    required: ["osm_id"],
    properties: { osm_id: { type: "integer" } },
    additionalProperties: { type: ["string", "null"] },
  },
  {},
);
