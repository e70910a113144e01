/**
 * The map of the store: its vector tiles described by TileJSON (GET /tiles.json), and how many
 * features of each tile layer an area holds (POST /layers/count/). The layers are those of
 * src/model/tile-layers.ts.
 */
import { TILE_LAYER_NAMES } from "../../model/tile-layers.js";
import { EXAMPLE_POLYGON } from "./examples.js";
import type { AreaSchemas, CheckedPolygon } from "./snapshot.js";
import type { Answer, Request } from "./wire.js";

const count = { type: "integer", minimum: 0 } as const;
const zoom = { type: "integer", minimum: 0, maximum: 22 } as const;

export const layerCountRequestSchema = {
  $id: "LayerCountRequest",
  description: "The area whose features are counted, layer by layer",
  type: "object",
  required: ["geometry"],
  examples: [{ geometry: EXAMPLE_POLYGON }],
  properties: { geometry: { $ref: "ExportArea#" } },
} as const;

export type LayerCountRequest = Request<typeof layerCountRequestSchema, AreaSchemas, [CheckedPolygon]>;

export const layerCountsSchema = {
  $id: "LayerCounts",
  description:
    "How many features of each layer of the map (GET /tiles.json's vector_layers) intersect the area, exactly (not by bounding box), " +
    "as the layers select them at their deepest zoom; 0 where the area holds none of that kind",
  type: "object",
  required: TILE_LAYER_NAMES,
  additionalProperties: false,
  properties: {
    water: { ...count, description: "Water areas, waterways and coastline" },
    landuse: { ...count, description: "Land use, parks and natural cover" },
    roads: { ...count, description: "Lines with a highway tag" },
    buildings: { ...count, description: "Polygons with a building tag" },
    pois: { ...count, description: "Points of interest (tagged nodes)" },
  },
} as const;

export type LayerCounts = Answer<typeof layerCountsSchema>;

export const tileJsonSchema = {
  $id: "TileJSON",
  description: "TileJSON 3.0.0 of the store's vector tiles: where they are, which zooms and area they cover, and their layers and fields",
  type: "object",
  required: ["tilejson", "name", "description", "attribution", "scheme", "tiles", "minzoom", "maxzoom", "bounds", "center", "vector_layers"],
  properties: {
    tilejson: { const: "3.0.0" },
    name: { type: "string" },
    description: { type: "string", description: "What the tiles hold, their zoom gates and the per-tile cap" },
    attribution: { type: "string" },
    scheme: { const: "xyz" },
    tiles: { type: "array", minItems: 1, items: { type: "string" }, description: "The tile URL, on the host the request was sent to (or --public-url)" },
    minzoom: { ...zoom, description: "Tiles below it are empty (204)" },
    maxzoom: { ...zoom, description: "The deepest tiles; a map shows deeper zooms from them" },
    bounds: { type: "array", minItems: 4, maxItems: 4, items: { type: "number" }, description: "[west, south, east, north]: the box that holds the store's features" },
    center: { type: "array", minItems: 3, maxItems: 3, items: { type: "number" }, description: "[longitude, latitude, zoom]: the middle of bounds, at the zoom buildings appear" },
    vector_layers: {
      type: "array",
      items: {
        type: "object",
        required: ["id", "description", "minzoom", "maxzoom", "fields"],
        properties: {
          id: { enum: TILE_LAYER_NAMES },
          description: { type: "string" },
          minzoom: zoom,
          maxzoom: zoom,
          fields: { type: "object", additionalProperties: { type: "string" }, description: "Each property a feature may carry, and what it holds" },
        },
      },
    },
  },
} as const;

export type TileJson = Answer<typeof tileJsonSchema>;
