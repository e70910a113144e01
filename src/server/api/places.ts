/**
 * raw-data-api's lookups: GET /countries/ (and /countries/{cid}/), GET /osm_id/ and
 * POST /stats/polygon/ (whose answer is the AreaStats of snapshot.ts, as includeStats adds it).
 */
import { EXAMPLE_POLYGON } from "./examples.js";
import { featureCollectionSchema, type geometrySchema } from "./feature-collection.js";
import type { AreaSchemas, CheckedPolygon } from "./snapshot.js";
import type { Answer, Request } from "./wire.js";

/** An OSM id as the digits of a URL: an integer from 1, at most 15 digits (below 2^53). */
export const OSM_ID_PATTERN = "^[1-9][0-9]{0,14}$";

export const countriesQuerySchema = {
  $id: "CountriesQuery",
  type: "object",
  properties: {
    q: { type: "string", maxLength: 255, description: "Part of the country's name, any case; none or empty: every country", examples: ["mona"] },
  },
} as const;

export type CountriesQuery = Request<typeof countriesQuerySchema>;

export const countryCollectionSchema = featureCollectionSchema(
  "CountryCollection",
  "Countries: the store's boundary relations of admin_level 2, as GeoJSON features (id: the relation's OSM id)",
  {
    type: "object",
    required: ["cid", "name", "iso3"],
    additionalProperties: false,
    properties: {
      cid: { type: "integer", description: "The country's id: its boundary relation's OSM id" },
      name: { type: "string" },
      iso3: { type: ["string", "null"], description: "ISO 3166-1 alpha-3, lower case (the relation's ISO3166-1:alpha3 tag); null without one" },
    },
  },
  {},
);

export type CountryCollection = Answer<typeof countryCollectionSchema, [typeof geometrySchema]>;
export type Country = CountryCollection["features"][number];
export type CountryProperties = Country["properties"];

export const osmIdQuerySchema = {
  $id: "OsmIdQuery",
  type: "object",
  required: ["osm_id"],
  properties: {
    // A query string is text: the id is its digits (the server does not coerce types).
    osm_id: { type: "string", pattern: OSM_ID_PATTERN, description: "An OSM id (an integer from 1): the node, way and relation features of that id", examples: ["25722685"] },
  },
} as const;

export const osmFeatureCollectionSchema = featureCollectionSchema(
  "OsmFeatureCollection",
  "The features with the OSM id, one per table that has it",
  {
    type: "object",
    required: ["osm_id", "osm_type", "tags", "changeset", "timestamp"],
    additionalProperties: false,
    properties: {
      osm_id: { type: "integer" },
      osm_type: { enum: ["nodes", "ways_line", "ways_poly", "relations"], description: "The table the feature is in" },
      tags: { type: "object", additionalProperties: { type: "string" } },
      changeset: { type: ["integer", "null"] },
      timestamp: { type: ["string", "null"], description: "UTC, as upstream writes it: 2025-01-01T21:21:00" },
    },
  },
  {},
);

export type OsmIdQuery = Request<typeof osmIdQuerySchema>;
export type OsmFeatureCollection = Answer<typeof osmFeatureCollectionSchema, [typeof geometrySchema]>;
export type OsmFeatureProperties = OsmFeatureCollection["features"][number]["properties"];

export const polygonStatsRequestSchema = {
  $id: "StatsRequestParams",
  description: "The area to count buildings and roads in: a geometry, or a country by its ISO 3166-1 alpha-3 code",
  type: "object",
  examples: [{ geometry: EXAMPLE_POLYGON }],
  properties: {
    geometry: { $ref: "ExportArea#" },
    iso3: { type: "string", pattern: "^[A-Za-z]{3}$", description: "A country's ISO 3166-1 alpha-3 code, any case", examples: ["mco"] },
  },
} as const;

export type StatsRequestParams = Request<typeof polygonStatsRequestSchema, AreaSchemas, [CheckedPolygon]>;
