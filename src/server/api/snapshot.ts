/**
 * POST /latest/snapshot/ (an asynchronous export to a zip file) and GET /latest/tasks/status/{id}/.
 * Requests are RawDataCurrentParams of raw-data-api 1.0.16 with the members its later versions
 * added and its clients send (useStWithin, centroid, bindZip, uuid, includeStats,
 * includeUserMetadata, a Feature as the area, join_or/join_and filters); answers carry every
 * member in both spellings (docs/decisions.md), so that clients written against either work.
 */
import { BARE_FORMATS_TEXT, EXPORT_FORMATS } from "../formats/types.js";
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

const tagValuesList = { type: "array", maxItems: MAX_LIST_ITEMS, items: tagText } as const;

const tagValuesSchema = {
  type: "object",
  description: `Tag key -> values: [] = the key present with any value, ["a"] = equal, ["a","b"] = any of them; at most ${MAX_LIST_ITEMS} keys, each with at most ${MAX_LIST_ITEMS} values`,
  maxProperties: MAX_LIST_ITEMS,
  propertyNames: { maxLength: MAX_TAG_LENGTH },
  additionalProperties: tagValuesList,
} as const;

/**
 * One filter of filters.tags, in either of raw-data-api's forms: tag key -> values (1.0.16), or
 * `{"joinOr": {...}, "joinAnd": {...}}` (since 2023), told apart by those two names.
 */
const tagFilterSchema = {
  type: "object",
  description:
    `Either tag key -> values ([] = the key present with any value, ["a"] = equal, ["a","b"] = any of them), the keys joined by joinFilterType; ` +
    `or {"joinOr": {key: values}, "joinAnd": {key: values}} (also join_or, join_and): joinOr's keys are OR-ed, joinAnd's AND-ed, and the two groups ` +
    `are AND-ed when joinAnd has one key, else OR-ed, as raw-data-api combines them. At most ${MAX_LIST_ITEMS} keys, each with at most ${MAX_LIST_ITEMS} values`,
  maxProperties: MAX_LIST_ITEMS,
  propertyNames: { maxLength: MAX_TAG_LENGTH },
  properties: { joinOr: tagValuesSchema, joinAnd: tagValuesSchema },
  additionalProperties: tagValuesList,
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
    properties: { point: schema, line: schema, polygon: schema, allGeometry: schema },
  }) as const;

export const polygonSchema = {
  $id: "PolygonGeometry",
  type: "object",
  required: ["type", "coordinates"],
  description: "A GeoJSON Polygon or MultiPolygon in EPSG:4326: closed rings of at least 4 positions, no self-intersection",
  properties: {
    type: { enum: ["Polygon", "MultiPolygon"] },
    coordinates: { type: "array", description: "Rings of [longitude, latitude] positions, nested as the type requires" },
  },
} as const;

/** A GeoJSON Feature or FeatureCollection may carry foreign members (RFC 7946): they are not read. */
export const polygonFeatureSchema = {
  $id: "PolygonFeature",
  type: "object",
  required: ["type", "geometry"],
  description: "A GeoJSON Feature whose geometry is a Polygon or MultiPolygon; its properties are not read",
  properties: {
    type: { enum: ["Feature"] },
    geometry: { $ref: "PolygonGeometry#" },
  },
} as const;

export const polygonFeatureCollectionSchema = {
  $id: "PolygonFeatureCollection",
  type: "object",
  required: ["type", "features"],
  description: "A GeoJSON FeatureCollection of Polygon or MultiPolygon features: the area is their union, one MultiPolygon when they are apart",
  properties: {
    type: { enum: ["FeatureCollection"] },
    features: { type: "array", minItems: 1, items: { $ref: "PolygonFeature#" } },
  },
} as const;

export const exportAreaSchema = {
  $id: "ExportArea",
  type: "object",
  required: ["type"],
  description: "The area to export: a Polygon or MultiPolygon, or a GeoJSON Feature or FeatureCollection of them (unwrapped), in EPSG:4326",
  properties: { type: { enum: ["Polygon", "MultiPolygon", "Feature", "FeatureCollection"] } },
  // Ajv checks only the branch `type` names, so that a mistake is reported once, not per branch.
  discriminator: { propertyName: "type" },
  oneOf: [{ $ref: "PolygonGeometry#" }, { $ref: "PolygonFeature#" }, { $ref: "PolygonFeatureCollection#" }],
} as const;

/** A yes-or-no member: raw-data-api's pydantic also reads the strings "true" and "false", and fAIr sends useStWithin: "false". */
const flag = (fallback: boolean, description: string) => ({ enum: [true, false, "true", "false"], default: fallback, description }) as const;

export const snapshotParamsSchema = {
  $id: "RawDataCurrentParams",
  type: "object",
  required: ["geometry"],
  examples: [
    { geometry: EXAMPLE_POLYGON, filters: { tags: { allGeometry: { building: [] } } } },
    { geometry: EXAMPLE_POLYGON, outputType: "csv", fileName: "Town_centre_shops", filters: { tags: { point: { shop: [] }, polygon: { shop: [] } }, attributes: { allGeometry: ["name", "shop"] } } },
    // As fAIr and the raw-data-export UI send it: a drawn Feature, the joinOr form, the newer members.
    {
      geometry: { type: "Feature", properties: {}, geometry: EXAMPLE_POLYGON },
      fileName: "Town_buildings",
      geometryType: ["polygon"],
      filters: { tags: { all_geometry: { join_or: { building: [] } } } },
      useStWithin: "false",
      bindZip: false,
      includeUserMetadata: true,
      includeStats: true,
    },
  ],
  description:
    "snake_case spellings (output_type, file_name, geometry_type, join_filter_type, country_export, min_zoom, max_zoom, bind_zip, use_st_within, include_stats, include_user_metadata, all_geometry, join_or, join_and) are accepted too; one member spelled both ways is a 422.",
  properties: {
    geometry: { $ref: "ExportArea#" },
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
      properties: {
        tags: { ...perGeometry(tagFilterSchema), description: "allGeometry applies to every type and overrides the per-type filters; a per-type filter restricts only its own type" },
        attributes: { ...perGeometry(attributeListSchema), description: "Columns per type, with the same precedence; absent = osm_id, version, changeset, timestamp and tags" },
      },
    },
    countryExport: { type: "boolean", default: false, description: "Accepted for compatibility; the export is always by exact geometry" },
    minZoom: { type: "integer", minimum: 0, maximum: 22, description: "Accepted for compatibility (mbtiles only in the real service)" },
    maxZoom: { type: "integer", minimum: 0, maximum: 22, description: "Accepted for compatibility; must not be below minZoom" },
    bindZip: flag(true, `true: the files in a zip with the clipping boundary and a Readme; false: the bare file, for ${BARE_FORMATS_TEXT} exports only`),
    centroid: flag(false, "Each feature's centroid (PostGIS's ST_Centroid) instead of its geometry; features are still chosen by their geometry"),
    useStWithin: flag(false, "true: only the features that lie within the area (ST_Within), none that cross its edge; false: every feature that intersects it"),
    uuid: flag(true, "false: file names without the task id; the file is then in a folder of its own, /exports/<task_id>/<fileName>_<outputType>.<ext>"),
    includeStats: flag(false, "Counts of buildings and roads in the area, their edit times and editors: in the task result (stats) and the Readme"),
    includeUserMetadata: flag(false, "Adds the uid and user of each feature's last edit as columns, after osm_id"),
  },
} as const;

const allGeometry = { all_geometry: "allGeometry" };
// Only the names of the join form: the keys of a tag filter are the caller's data.
const joins: AliasSpec = { names: { join_or: "joinOr", join_and: "joinAnd" } };

export const snapshotParamsAliases: AliasSpec = {
  names: {
    output_type: "outputType",
    file_name: "fileName",
    geometry_type: "geometryType",
    join_filter_type: "joinFilterType",
    country_export: "countryExport",
    min_zoom: "minZoom",
    max_zoom: "maxZoom",
    bind_zip: "bindZip",
    use_st_within: "useStWithin",
    include_stats: "includeStats",
    include_user_metadata: "includeUserMetadata",
  },
  members: {
    filters: {
      members: {
        tags: { names: allGeometry, members: { point: joins, line: joins, polygon: joins, allGeometry: joins } },
        attributes: { names: allGeometry },
      },
    },
  },
};

export type OutputType = (typeof OUTPUT_TYPES)[number];
export type SnapshotGeometryType = (typeof SNAPSHOT_GEOMETRY_TYPES)[number];
export type FilterGeometry = (typeof FILTER_GEOMETRIES)[number];

export type PolygonalGeometry = Extract<Geometry, { type: "Polygon" | "MultiPolygon" }>;

export interface PolygonFeature {
  type: "Feature";
  geometry: PolygonalGeometry;
  properties?: unknown;
}

export interface PolygonFeatureCollection {
  type: "FeatureCollection";
  features: PolygonFeature[];
}

export type ExportArea = PolygonalGeometry | PolygonFeature | PolygonFeatureCollection;

/** Tag key -> values: [] = the key present, one value = equal, several = any of them. */
export type TagValues = Record<string, string[]>;

/** raw-data-api's filter form since 2023 (see tagFilterSchema). */
export interface JoinedTags {
  joinOr?: TagValues;
  joinAnd?: TagValues;
}

export type TagFilterEntry = TagValues | JoinedTags;

/** A boolean; also as the strings raw-data-api reads. */
export type Flag = boolean | "true" | "false";

/** The yes-or-no members, with their defaults. */
export const FLAG_DEFAULTS = { bindZip: true, centroid: false, useStWithin: false, uuid: true, includeStats: false, includeUserMetadata: false } as const;
export type FlagName = keyof typeof FLAG_DEFAULTS;

export interface SnapshotParams extends Partial<Record<FlagName, Flag>> {
  geometry: ExportArea;
  outputType?: OutputType;
  fileName?: string;
  geometryType?: SnapshotGeometryType[];
  joinFilterType?: "OR" | "AND";
  filters?: {
    tags?: Partial<Record<FilterGeometry, TagFilterEntry>>;
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
  /** With includeStats. */
  stats?: AreaStats;
}

/**
 * What includeStats adds, in raw-data-api's shape. Its figures came from a service with
 * population and AI-mapped estimates; this server counts its own OpenStreetMap data and has none
 * of those (null).
 */
export interface AreaStats {
  summary: { buildings: string; roads: string };
  raw: {
    population: number | null;
    populatedAreaKm2: number | null;
    /** "YYYY-MM-DD HH:MM:SS" (UTC); null when the area has no building or road. */
    averageEditTime: string | null;
    lastEditTime: string | null;
    osmUsersCount: number;
    osmBuildingCompletenessPercentage: number | null;
    osmRoadsCompletenessPercentage: number | null;
    osmBuildingsCount: number;
    osmHighwayLengthKm: number;
    aiBuildingsCountEstimation: number | null;
    aiRoadCountEstimationKm: number | null;
    buildingCount6Months: number;
    highwayLength6MonthsKm: number;
  };
  meta: {
    /** The data's last update, as /status/ gives it; the 6 months are counted back from it. */
    lastUpdated: string | null;
    description: string;
  };
}

const text = { type: "string" } as const;
const count = { type: "integer", minimum: 0 } as const;
const notAvailable = { type: ["number", "null"], description: "null: this server has no such data" } as const;
const editTime = { type: ["string", "null"], description: "YYYY-MM-DD HH:MM:SS (UTC); null when the area has no building or road" } as const;

export const areaStatsSchema = {
  $id: "AreaStats",
  type: "object",
  description: "Buildings and roads of the export's area (every one that intersects it, whatever the filters), counted from this server's OpenStreetMap data",
  required: ["summary", "raw", "meta"],
  additionalProperties: false,
  properties: {
    summary: {
      type: "object",
      required: ["buildings", "roads"],
      additionalProperties: false,
      properties: { buildings: text, roads: text },
    },
    raw: {
      type: "object",
      required: [
        "population", "populatedAreaKm2", "averageEditTime", "lastEditTime", "osmUsersCount", "osmBuildingCompletenessPercentage",
        "osmRoadsCompletenessPercentage", "osmBuildingsCount", "osmHighwayLengthKm", "aiBuildingsCountEstimation", "aiRoadCountEstimationKm",
        "buildingCount6Months", "highwayLength6MonthsKm",
      ],
      additionalProperties: false,
      properties: {
        population: notAvailable,
        populatedAreaKm2: notAvailable,
        averageEditTime: editTime,
        lastEditTime: editTime,
        osmUsersCount: { ...count, description: "Distinct editors of the last versions of those buildings and roads" },
        osmBuildingCompletenessPercentage: notAvailable,
        osmRoadsCompletenessPercentage: notAvailable,
        osmBuildingsCount: { ...count, description: "Features with a building tag" },
        osmHighwayLengthKm: { type: "number", minimum: 0, description: "Length of the lines with a highway tag, whole, on the sphere" },
        aiBuildingsCountEstimation: notAvailable,
        aiRoadCountEstimationKm: notAvailable,
        buildingCount6Months: { ...count, description: "Buildings edited in the 6 months before the data's last update" },
        highwayLength6MonthsKm: { type: "number", minimum: 0, description: "Length of the roads edited in those 6 months" },
      },
    },
    meta: {
      type: "object",
      required: ["lastUpdated", "description"],
      additionalProperties: false,
      properties: { lastUpdated: { type: ["string", "null"] }, description: text },
    },
  },
} as const;

export const exportResultSchema = {
  $id: "ExportResult",
  type: "object",
  required: [
    "downloadUrl", "download_url", "fileName", "file_name", "responseTime", "response_time", "process_time",
    "queryArea", "query_area", "bindedFileSize", "binded_file_size", "zipFileSizeBytes", "zip_file_size_bytes",
  ],
  additionalProperties: false,
  properties: {
    downloadUrl: { type: "string", description: "Absolute URL of the zip, or of the bare file with bindZip false" },
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
    zipFileSizeBytes: { type: "integer", minimum: 0, description: "Size of the download: the zip, or the bare file with bindZip false" },
    zip_file_size_bytes: { type: "integer", minimum: 0 },
    stats: { $ref: "AreaStats#" },
  },
} as const;

