/**
 * raw-data-api's custom exports (POST /custom/snapshot/, staff only upstream): categories of
 * features, each with its own `types`, `select`, SQL-like `where` and `formats`, for a country
 * (`iso3`) or an area (`geometry`); one zip per category, type and format. As HOT's Tasking
 * Manager extractor (TM-Extractor) and HDX exports send them.
 */
import { EXPORT_FORMATS } from "../formats/types.js";
import { EXAMPLE_POLYGON } from "./examples.js";
import { MAX_LIST_ITEMS, MAX_TAG_LENGTH } from "./limits.js";
import type { AreaSchemas, CheckedPolygon } from "./snapshot.js";
import type { Closed } from "./strict.js";
import type { Answer, Request } from "./wire.js";

/** Upstream's two Celery queues; here both name the server's one queue. */
export const QUEUE_NAMES = ["raw_daemon", "raw_ondemand"] as const;
export type QueueName = (typeof QUEUE_NAMES)[number];

export const CUSTOM_TYPES = ["points", "lines", "polygons"] as const;
export type CustomType = (typeof CUSTOM_TYPES)[number];

/** Most categories one request may hold; HOT's largest configuration (a country on HDX) has 12. */
export const MAX_CATEGORIES = 50;

const text = (description: string, maxLength = MAX_TAG_LENGTH) => ({ type: "string", maxLength, description }) as const;

export const customCategorySchema = {
  $id: "CustomCategory",
  type: "object",
  required: ["types", "select", "where", "formats"],
  description: "One category of the export: which features, with which columns, in which formats",
  properties: {
    types: { type: "array", minItems: 1, maxItems: 3, uniqueItems: true, items: { enum: CUSTOM_TYPES }, description: "Geometry types: points (nodes), lines (ways and relations), polygons (ways and relations)" },
    select: { type: "array", maxItems: MAX_LIST_ITEMS, items: text("A tag key: one column of the export"), description: "The tag keys to export as columns, after which come osm_id and osm_type" },
    where: text("Which features: tags['key'] IS NOT NULL, tags['key'] = 'value' or tags['key'] IN ('a', 'b'), joined by AND and OR, with parentheses", 10_000),
    formats: { type: "array", minItems: 1, maxItems: EXPORT_FORMATS.length, uniqueItems: true, items: { enum: EXPORT_FORMATS }, description: "Output formats: one zip per format" },
    hdx: {
      type: "object",
      description: "HDX's metadata for the category (tags, caveats, notes): accepted, not read, as this server uploads nothing to HDX",
      properties: { tags: { type: "array", maxItems: MAX_LIST_ITEMS, items: text("An HDX tag") }, caveats: text("HDX's caveats: not read", 10_000), notes: text("HDX's notes: not read", 10_000) },
    },
  },
} as const;

export type CustomCategory = Request<typeof customCategorySchema>;

export const customSnapshotParamsSchema = {
  $id: "DynamicCategoriesModel",
  type: "object",
  required: ["categories"],
  description:
    "A country by `iso3` (a country of this server's data: GET /countries/) or an area by `geometry`, not both. Files are named <dataset_prefix>_<category>_<type>_<format>.zip; dataset_prefix is needed with a geometry and defaults to hotosm_<iso3> for a country. hdx_upload and meta are accepted and do nothing: this server uploads nothing to HDX or S3.",
  examples: [
    {
      geometry: EXAMPLE_POLYGON,
      queue: "raw_daemon",
      dataset: { dataset_prefix: "hotosm_project_1", dataset_folder: "TM", dataset_title: "Tasking Manger Project 1" },
      categories: [
        { Buildings: { types: ["polygons"], select: ["name", "building", "building:levels", "addr:street"], where: "tags['building'] IS NOT NULL", formats: ["geojson", "shp", "kml"] } },
        { Roads: { types: ["lines"], select: ["name", "highway", "surface"], where: "tags['highway'] IS NOT NULL", formats: ["geojson"] } },
        { "Points of Interest": { types: ["points", "polygons"], select: ["name", "amenity", "shop"], where: "tags['amenity'] IS NOT NULL OR tags['shop'] IS NOT NULL", formats: ["gpkg"] } },
      ],
    },
  ],
  properties: {
    iso3: { type: "string", minLength: 3, maxLength: 3, description: "A country's ISO 3166-1 alpha-3 code, any case" },
    geometry: { $ref: "ExportArea#" },
    categories: {
      type: "array",
      minItems: 1,
      maxItems: MAX_CATEGORIES,
      description: "The categories, each an object naming one (or more) by a name of its own; empty objects are skipped, as upstream does",
      items: { type: "object", maxProperties: MAX_CATEGORIES, propertyNames: { minLength: 1, maxLength: MAX_TAG_LENGTH }, additionalProperties: { $ref: "CustomCategory#" } },
    },
    dataset: {
      type: "object",
      description: "The dataset's names; only dataset_prefix is read here (it names the files)",
      properties: {
        dataset_prefix: text("Starts every file's name, e.g. hotosm_project_1"),
        dataset_title: text("HDX's title: not read"),
        dataset_folder: text("Upstream's folder on S3: not read"),
        dataset_locations: { type: "array", maxItems: MAX_LIST_ITEMS, items: text("An ISO3 code: not read") },
        update_frequency: text("HDX's update frequency: not read"),
        private: { type: "boolean" },
        subnational: { type: "boolean" },
      },
    },
    queue: { enum: QUEUE_NAMES, description: "Upstream's queue to run in; both name this server's one queue" },
    hdx_upload: { type: "boolean", default: false, description: "Accepted, not done: this server uploads nothing to HDX" },
    meta: { type: "boolean", default: false, description: "Accepted, not done: this server dumps no DuckDB database to S3" },
  },
} as const;

/** Its categories are a request schema of their own, which a strict server closes as it closes this one. */
export type CustomSnapshotParams = Request<typeof customSnapshotParamsSchema, [...AreaSchemas, Closed<typeof customCategorySchema>], [CheckedPolygon]>;

export const customExportResultSchema = {
  $id: "CustomExportResult",
  description: "A finished custom export: for each category, its zips (one per type and format) and where to download them",
  type: "object",
  required: ["datasets", "elapsed_time", "started_at"],
  additionalProperties: false,
  properties: {
    datasets: {
      type: "array",
      items: {
        type: "object",
        description: "The category's name, and its files",
        additionalProperties: {
          type: "object",
          required: ["resources"],
          additionalProperties: false,
          properties: {
            resources: {
              type: "array",
              items: {
                type: "object",
                required: ["name", "url", "format", "description", "size", "last_modifed"],
                additionalProperties: false,
                properties: {
                  name: { type: "string", description: "<dataset_prefix>_<category>_<type>_<format>.zip" },
                  url: { type: "string", description: "Where to download the zip" },
                  format: { type: "string" },
                  description: { type: "string", description: "The format's GDAL driver name" },
                  size: { type: "integer", description: "Bytes of the zip" },
                  last_modifed: { type: "string", description: "When the zip was made (upstream's spelling)" },
                },
              },
            },
          },
        },
      },
    },
    elapsed_time: { type: "string", description: 'How long it took, in words ("2 minutes"), as upstream\'s humanize writes it' },
    started_at: { type: "string", description: "ISO 8601, UTC, without the zone, as upstream writes it" },
  },
} as const;

export type CustomExportResult = Answer<typeof customExportResultSchema>;
/** One file of a finished custom export, as upstream lists it (`last_modifed` is upstream's spelling). */
export type CustomResource = CustomExportResult["datasets"][number][string]["resources"][number];
