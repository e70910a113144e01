/**
 * POST /latest/snapshot/ (an asynchronous export to a zip file) and GET /latest/tasks/status/{id}/.
 * Requests are RawDataCurrentParams of raw-data-api 1.0.16; answers carry every member in both
 * spellings (docs/decisions.md), so that clients written against either work.
 */
import { EXPORT_FORMATS } from "../export/types.js";
import type { AliasSpec } from "./aliases.js";
import { EXAMPLE_POLYGON } from "./examples.js";
import type { Geometry } from "./feature-collection.js";
import { tagText } from "./fragments.js";
import { MAX_LIST_ITEMS, MAX_TAG_LENGTH } from "./limits.js";

/** Exactly the formats the export writers have. */
export const OUTPUT_TYPES = EXPORT_FORMATS;
export const SNAPSHOT_GEOMETRY_TYPES = ["point", "line", "polygon", "all_geometry"] as const;
export const FILTER_GEOMETRIES = ["point", "line", "polygon", "allGeometry"] as const;
export const DEFAULT_MAX_AREA_KM2 = 100_000;
/** A task id: a UUID, lower-case hex. */
export const UUID_PATTERN = "^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$";

const tagFilterSchema = {
  type: "object",
  description: `Tag key -> values: [] = the key present with any value, ["a"] = equal, ["a","b"] = any of them; at most ${MAX_LIST_ITEMS} keys, each with at most ${MAX_LIST_ITEMS} values`,
  maxProperties: MAX_LIST_ITEMS,
  propertyNames: { maxLength: MAX_TAG_LENGTH },
  additionalProperties: { type: "array", maxItems: MAX_LIST_ITEMS, items: tagText },
} as const;

const attributeListSchema = {
  type: "array",
  maxItems: MAX_LIST_ITEMS,
  items: { ...tagText, minLength: 1 },
  description: `Tag keys written as columns (osm_id is always written); "name, addr:street" is two keys; at most ${MAX_LIST_ITEMS} keys`,
} as const;

const perGeometry = <S extends object>(schema: S) =>
  ({
    type: "object",
    additionalProperties: false,
    properties: { point: schema, line: schema, polygon: schema, allGeometry: schema },
  }) as const;

export const polygonSchema = {
  $id: "PolygonGeometry",
  type: "object",
  required: ["type", "coordinates"],
  additionalProperties: false,
  description: "A GeoJSON Polygon or MultiPolygon in EPSG:4326: closed rings of at least 4 positions, no self-intersection",
  properties: {
    type: { enum: ["Polygon", "MultiPolygon"] },
    coordinates: { type: "array", description: "Rings of [longitude, latitude] positions, nested as the type requires" },
  },
} as const;

export const snapshotParamsSchema = {
  $id: "RawDataCurrentParams",
  type: "object",
  required: ["geometry"],
  examples: [
    { geometry: EXAMPLE_POLYGON, filters: { tags: { allGeometry: { building: [] } } } },
    { geometry: EXAMPLE_POLYGON, outputType: "csv", fileName: "Town_centre_shops", filters: { tags: { point: { shop: [] }, polygon: { shop: [] } }, attributes: { allGeometry: ["name", "shop"] } } },
  ],
  additionalProperties: false,
  description: "snake_case spellings (output_type, file_name, geometry_type, join_filter_type, country_export, min_zoom, max_zoom, all_geometry) are accepted too; one member spelled both ways is a 422.",
  properties: {
    geometry: { $ref: "PolygonGeometry#" },
    outputType: { enum: OUTPUT_TYPES, default: "geojson" },
    fileName: {
      type: "string",
      default: "Export",
      description: "Name of the exported file inside the zip; anything but letters, digits and _ becomes _",
    },
    geometryType: {
      type: "array",
      maxItems: MAX_LIST_ITEMS,
      items: { enum: SNAPSHOT_GEOMETRY_TYPES },
      description: "point = nodes; line = ways_line and non-area relations; polygon = ways_poly and area relations; absent or all_geometry = all three",
    },
    joinFilterType: { enum: ["OR", "AND"], default: "OR", description: "How the tag conditions of one filter combine" },
    filters: {
      type: "object",
      additionalProperties: false,
      properties: {
        tags: { ...perGeometry(tagFilterSchema), description: "allGeometry applies to every type and overrides the per-type filters; a per-type filter restricts only its own type" },
        attributes: { ...perGeometry(attributeListSchema), description: "Columns per type, with the same precedence; absent = osm_id, version, changeset, timestamp and tags" },
      },
    },
    countryExport: { type: "boolean", default: false, description: "Accepted for compatibility; the export is always by exact geometry" },
    minZoom: { type: "integer", minimum: 0, maximum: 22, description: "Accepted for compatibility (mbtiles only in the real service)" },
    maxZoom: { type: "integer", minimum: 0, maximum: 22, description: "Accepted for compatibility; must not be below minZoom" },
  },
} as const;

const bothWays: AliasSpec = { names: { all_geometry: "allGeometry" } };

export const snapshotParamsAliases: AliasSpec = {
  names: {
    output_type: "outputType",
    file_name: "fileName",
    geometry_type: "geometryType",
    join_filter_type: "joinFilterType",
    country_export: "countryExport",
    min_zoom: "minZoom",
    max_zoom: "maxZoom",
  },
  members: { filters: { members: { tags: bothWays, attributes: bothWays } } },
};

export type OutputType = (typeof OUTPUT_TYPES)[number];
export type SnapshotGeometryType = (typeof SNAPSHOT_GEOMETRY_TYPES)[number];
export type FilterGeometry = (typeof FILTER_GEOMETRIES)[number];

export interface SnapshotParams {
  geometry: Extract<Geometry, { type: "Polygon" | "MultiPolygon" }>;
  outputType?: OutputType;
  fileName?: string;
  geometryType?: SnapshotGeometryType[];
  joinFilterType?: "OR" | "AND";
  filters?: {
    tags?: Partial<Record<FilterGeometry, Record<string, string[]>>>;
    attributes?: Partial<Record<FilterGeometry, string[]>>;
  };
  countryExport?: boolean;
  minZoom?: number;
  maxZoom?: number;
}

export const snapshotAcceptedSchema = {
  $id: "SnapshotAccepted",
  description: "The export is queued: poll trackLink (under /latest) for its state",
  type: "object",
  required: ["taskId", "trackLink", "task_id", "track_link"],
  additionalProperties: false,
  properties: {
    taskId: { type: "string", pattern: UUID_PATTERN },
    trackLink: { type: "string", description: "/tasks/status/<task_id>/ (relative to the API prefix)" },
    task_id: { type: "string", pattern: UUID_PATTERN },
    track_link: { type: "string" },
  },
} as const;

export interface SnapshotAccepted {
  taskId: string;
  trackLink: string;
  task_id: string;
  track_link: string;
}

/** What a finished export reports, in both spellings (the real worker's `process_time` too). */
export interface ExportResult {
  downloadUrl: string;
  download_url: string;
  fileName: string;
  file_name: string;
  /** `H:MM:SS.ffffff` */
  responseTime: string;
  response_time: string;
  process_time: string;
  /** `N.NN Sq Km` */
  queryArea: string;
  query_area: string;
  /** Size of the files before zipping: `N.NN MB` */
  bindedFileSize: string;
  binded_file_size: string;
  zipFileSizeBytes: number;
  zip_file_size_bytes: number;
  /** Set when clean-up deleted the zip (ISO-8601 UTC): the download is gone, request the export again. */
  deletedAt?: string;
  deleted_at?: string;
}

const text = { type: "string" } as const;

export const exportResultSchema = {
  $id: "ExportResult",
  type: "object",
  required: [
    "downloadUrl", "download_url", "fileName", "file_name", "responseTime", "response_time", "process_time",
    "queryArea", "query_area", "bindedFileSize", "binded_file_size", "zipFileSizeBytes", "zip_file_size_bytes",
  ],
  additionalProperties: false,
  properties: {
    downloadUrl: { type: "string", description: "Absolute URL of the zip" },
    download_url: text,
    fileName: { type: "string", description: "The sanitised file name" },
    file_name: text,
    responseTime: { type: "string", pattern: "^\\d+:\\d{2}:\\d{2}\\.\\d{6}$", examples: ["0:00:12.175976"] },
    response_time: text,
    process_time: text,
    queryArea: { type: "string", pattern: "^\\d+(\\.\\d+)? Sq Km$", examples: ["1.23 Sq Km"] },
    query_area: text,
    bindedFileSize: { type: "string", pattern: "^\\d+(\\.\\d+)? MB$", description: "Size of the exported files before zipping", examples: ["4.56 MB"] },
    binded_file_size: text,
    zipFileSizeBytes: { type: "integer", minimum: 0 },
    zip_file_size_bytes: { type: "integer", minimum: 0 },
    deletedAt: { type: "string", description: "When clean-up deleted the zip; the download is gone" },
    deleted_at: text,
  },
} as const;

export type TaskStatusName = "PENDING" | "STARTED" | "SUCCESS" | "FAILURE";

export interface TaskStatus {
  id: string;
  status: TaskStatusName;
  /** null until SUCCESS; `{error}` on FAILURE. */
  result: ExportResult | { error: string } | null;
  /** 0-100 */
  progress: number;
}

export const taskStatusSchema = {
  $id: "TaskStatus",
  description: "The task's state; once SUCCESS, where to download the export",
  type: "object",
  required: ["id", "status", "result", "progress"],
  additionalProperties: false,
  properties: {
    id: { type: "string", pattern: UUID_PATTERN },
    status: { enum: ["PENDING", "STARTED", "SUCCESS", "FAILURE"] },
    result: {
      anyOf: [
        { type: "null" },
        { $ref: "ExportResult#" },
        { type: "object", required: ["error"], additionalProperties: false, properties: { error: { type: "string", description: "One line: why the export failed" } } },
      ],
    },
    progress: { type: "integer", minimum: 0, maximum: 100 },
  },
} as const;
