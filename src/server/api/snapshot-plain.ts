/**
 * POST /latest/snapshot/plain/: features of a small region as GeoJSON, answered at once. Two
 * bodies, told apart by `geometry`: raw-data-api's since 2023 (RawDataCurrentParamsBase: the
 * area as `geometry`, read as POST /snapshot/ reads it) and 1.0.16's (`bbox`, `select`, `where`).
 */
import type { AliasSpec } from "./aliases.js";
import { EXAMPLE_BBOX, EXAMPLE_POLYGON } from "./examples.js";
import { featureCollectionSchema, type geometrySchema } from "./feature-collection.js";
import { tagText } from "./fragments.js";
import { MAX_LIST_ITEMS, MAX_PLAIN_ANSWER_BYTES, MAX_TAG_LENGTH } from "./limits.js";
import { SNAPSHOT_GEOMETRY_TYPES, snapshotParamsAliases, snapshotParamsSchema, type AreaSchemas, type CheckedPolygon, type TagFilterForms } from "./snapshot.js";
import type { Answer, Request } from "./wire.js";

export const FEATURE_TABLE_NAMES = ["nodes", "ways_poly", "ways_line", "relations"] as const;
export const GEOMETRY_TYPES = ["point", "line", "polygon"] as const;
/** Area limit of the body with `geometry`, as raw-data-api's; `basemodel serve --plain-max-area` changes it. */
export const DEFAULT_PLAIN_MAX_AREA_KM2 = 6;

/** The members of POST /snapshot/ that the body with `geometry` reads too. */
const { geometry, filters, joinFilterType, outputType, centroid, useStWithin, includeUserMetadata } = snapshotParamsSchema.properties;

export const snapshotParamsPlainSchema = {
  $id: "SnapshotParamsPlain",
  type: "object",
  examples: [
    { bbox: EXAMPLE_BBOX, select: ["building", "name"] },
    { bbox: EXAMPLE_BBOX, where: [{ key: "amenity", value: ["*"] }], lookIn: ["nodes", "ways_poly"] },
    { geometry: EXAMPLE_POLYGON, filters: { tags: { allGeometry: { joinOr: { building: [] } } }, attributes: { allGeometry: ["building", "name"] } }, geometryType: ["polygon"] },
  ],
  description:
    "Two bodies, told apart by geometry. With geometry, as raw-data-api reads it since 2023 (and raw-data-api-py sends it): " +
    "geometry, filters, geometryType, joinFilterType, centroid, useStWithin and includeUserMetadata mean what they mean to POST /snapshot/, " +
    `the area is at most ${DEFAULT_PLAIN_MAX_AREA_KM2} km² (configurable), and the members of POST /snapshot/ that make files (fileName, bindZip, ...) are ignored. ` +
    "Without geometry, as raw-data-api 1.0.16 read it: bbox, select, where, joinBy, lookIn, geometryType, every one optional. " +
    `snake_case spellings (join_by, look_in, geometry_type, use_st_within, ...) are accepted too. Lists hold at most ${MAX_LIST_ITEMS} items, tag keys and values at most ${MAX_TAG_LENGTH} characters; ` +
    `an answer over ${MAX_PLAIN_ANSWER_BYTES} bytes is a 422 that points to POST /snapshot/.`,
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
    geometryType: {
      // One type list rather than anyOf: a wrong value then gets one message, not one per branch.
      type: ["string", "array"],
      pattern: `^(${SNAPSHOT_GEOMETRY_TYPES.join("|")})$`,
      maxItems: MAX_LIST_ITEMS,
      items: { enum: SNAPSHOT_GEOMETRY_TYPES },
      description: "Only features of this geometry, or of these: point = nodes, line = lines, polygon = polygons, all_geometry = all three (1.0.16 sent one, raw-data-api since 2023 a list)",
    },
    geometry: { ...geometry, description: "The area: present, the body is read as raw-data-api reads it since 2023" },
    filters,
    joinFilterType,
    outputType: { ...outputType, description: "Accepted with geometry, as raw-data-api accepts it; the answer is GeoJSON whatever it says" },
    centroid,
    useStWithin,
    includeUserMetadata,
  },
} as const;

export const snapshotParamsPlainAliases: AliasSpec = {
  names: { ...snapshotParamsAliases.names, join_by: "joinBy", look_in: "lookIn" },
  members: snapshotParamsAliases.members,
};

export type FeatureTableName = (typeof FEATURE_TABLE_NAMES)[number];
export type GeometryTypeName = (typeof GEOMETRY_TYPES)[number];

export type SnapshotParamsPlain = Request<typeof snapshotParamsPlainSchema, AreaSchemas, [CheckedPolygon, TagFilterForms]>;
export type WhereCondition = NonNullable<SnapshotParamsPlain["where"]>[number];

const plainProperties = {
  type: "object",
  required: ["osm_id"],
  properties: { osm_id: { type: "integer" } },
  additionalProperties: { type: ["string", "integer", "null", "object"], additionalProperties: { type: "string" } },
} as const;

export const plainSnapshotResponseSchema = featureCollectionSchema(
  "PlainSnapshotResponse",
  "The matching features as GeoJSON: properties osm_id and the selected tags (body without geometry), or as the GeoJSON export writes them (body with geometry)",
  plainProperties,
  {},
);

/**
 * Each feature's properties. Without geometry in the body: `osm_id`, then the selected tags. With
 * geometry: as the GeoJSON export writes them (osm_id, version, changeset, timestamp, tags; or
 * osm_id and the chosen attributes). Written here, as its schema names osm_id beside members of
 * any name (properties and additionalProperties), which json-schema-to-ts reads as unknown members.
 */
export type PlainSnapshotProperties = { osm_id: number } & Record<string, string | number | null | Record<string, string>>;

export type PlainSnapshotResponse = Answer<typeof plainSnapshotResponseSchema, [typeof geometrySchema], [{ pattern: typeof plainProperties; output: PlainSnapshotProperties }]>;
