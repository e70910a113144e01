/**
 * The layers of the store's vector tiles, as data (in the manner of an osm2pgsql flex style):
 * which features each layer holds, from which zoom, and which of their tags it carries. Both
 * stores build their tiles from these rules, and the layer counts (POST /layers/count/) classify
 * with them too, so that a layer means the same everywhere. A feature is in every layer whose
 * rule it meets (the rules below hardly overlap).
 */
import type { OsmType } from "./features.js";
import type { GeometryKind, TagFilter } from "./query.js";

export const TILE_LAYER_NAMES = ["water", "landuse", "roads", "buildings", "pois"] as const;
export type TileLayerName = (typeof TILE_LAYER_NAMES)[number];

export interface TileLayerRule {
  name: TileLayerName;
  description: string;
  /**
   * Which features the layer holds from which zoom: a feature whose tags meet an entry's filter
   * is in the layer's tiles from that entry's minzoom on (the lowest of the entries it meets).
   */
  select: ReadonlyArray<{ minzoom: number; tags: TagFilter }>;
  /** The kinds of geometry the layer holds. */
  geometry: readonly GeometryKind[];
  /** The tags each feature carries as properties (when it has them), beside name, osm_type, osm_id and status. */
  fields: readonly string[];
}

/** Any of these keys, each with any of its values (any value where none are listed). */
const anyOf = (...conditions: Array<[key: string, ...values: string[]]>): TagFilter => ({
  join: "or",
  conditions: conditions.map(([key, ...values]) => ({ key, values })),
});

/** Roads by the zoom they appear at: paths, footways and steps only close up, where they fit. */
const MAJOR_ROADS = ["motorway", "motorway_link", "trunk", "trunk_link", "primary", "primary_link", "secondary", "secondary_link", "tertiary", "tertiary_link"];
const MINOR_ROADS = ["unclassified", "residential", "living_street", "service", "pedestrian", "road", "track", "busway", "raceway"];

/** In drawing order: what lies beneath first. */
export const TILE_LAYERS: readonly TileLayerRule[] = [
  {
    name: "water",
    description: "Water areas and waterways, and the coastline",
    select: [{ minzoom: 10, tags: anyOf(["natural", "water", "bay", "strait", "coastline"], ["waterway"], ["water"]) }],
    geometry: ["polygon", "line"],
    fields: ["natural", "waterway", "water"],
  },
  {
    name: "landuse",
    description: "Land use, parks and natural cover",
    select: [
      {
        minzoom: 10,
        tags: anyOf(
          ["landuse"],
          ["leisure", "park", "garden", "pitch", "playground", "golf_course", "nature_reserve", "stadium", "sports_centre", "track"],
          ["natural", "wood", "scrub", "grassland", "heath", "wetland", "beach", "sand", "bare_rock", "scree", "cliff"],
        ),
      },
    ],
    geometry: ["polygon"],
    fields: ["landuse", "leisure", "natural"],
  },
  {
    name: "roads",
    description: "Roads, streets, paths and tracks (lines with a highway tag): main roads from zoom 11, streets from 13, every other highway from 15",
    select: [
      { minzoom: 11, tags: anyOf(["highway", ...MAJOR_ROADS]) },
      { minzoom: 13, tags: anyOf(["highway", ...MINOR_ROADS]) },
      { minzoom: 15, tags: anyOf(["highway"]) },
    ],
    geometry: ["line"],
    fields: ["highway", "ref"],
  },
  {
    name: "buildings",
    description: "Buildings (polygons with a building tag)",
    select: [{ minzoom: 13, tags: anyOf(["building"]) }],
    geometry: ["polygon"],
    fields: ["building"],
  },
  {
    name: "pois",
    description: "Points of interest: tagged nodes of amenities, shops, tourism, leisure, history, offices and crafts",
    select: [{ minzoom: 13, tags: anyOf(["amenity"], ["shop"], ["tourism"], ["leisure"], ["historic"], ["office"], ["craft"]) }],
    geometry: ["point"],
    fields: ["amenity", "shop", "tourism", "leisure", "historic", "office", "craft"],
  },
];

/** The property every feature carries beside its layer's fields, when it has the tag. */
export const NAME_FIELD = "name";

/** The lowest zoom of the layer's tiles. */
export function layerMinzoom(layer: TileLayerRule): number {
  return Math.min(...layer.select.map((entry) => entry.minzoom));
}

/** The lowest zoom with any layer: tiles below it are empty. */
export const TILE_MINZOOM = Math.min(...TILE_LAYERS.map(layerMinzoom));
/** The highest zoom served: a map draws deeper zooms from these tiles (overzoom). */
export const TILE_MAXZOOM = 16;
/** Tile coordinates run from 0 to this extent; the buffer around the tile, in the same units, keeps lines and edges whole across tile borders. */
export const TILE_EXTENT = 4096;
export const TILE_BUFFER = 64;

/**
 * The most features one layer of one tile holds. Over it, the layer keeps the features with the
 * smallest feature ids (see featureId): the same ones on every store, whatever the order they are read in.
 */
export const MAX_LAYER_FEATURES = 5000;

/** The data quality status of a feature without findings; one with findings carries its most severe (src/model/statuses.ts). */
export const STATUS_OK = "ok";

/** What the layer holds at zoom `z` (every feature of the layer at its deepest zoom). */
export interface LayerAtZoom {
  layer: TileLayerRule;
  tags: TagFilter;
}

/** The layers a tile of zoom `z` holds, each with the filter of its features there. */
export function layersAtZoom(z: number): LayerAtZoom[] {
  if (z > TILE_MAXZOOM) return [];
  return TILE_LAYERS.flatMap((layer) => {
    const entries = layer.select.filter((entry) => z >= entry.minzoom);
    return entries.length === 0 ? [] : [{ layer, tags: { join: "or" as const, conditions: entries.map((entry) => entry.tags) } }];
  });
}

/** Every feature of the layer, at any zoom: what the layer counts hold. */
export function layerTags(layer: TileLayerRule): TagFilter {
  return { join: "or", conditions: layer.select.map((entry) => entry.tags) };
}

/**
 * The MVT feature id: the OSM id times three, plus 0 for a node, 1 for a way, 2 for a relation.
 * Unique across the three types (which share ids), the same on every store, and within 2^53 for
 * any OSM id. Vector tile ids are unsigned: a feature with a negative OSM id (only files saved by
 * editors have them) carries no id. The stores compute it in their own language (FEATURE_ID_TYPES).
 */
export const FEATURE_ID_TYPES: Record<OsmType, number> = { node: 0, way: 1, relation: 2 };

export function featureId(type: OsmType, osmId: number): number {
  return osmId * 3 + FEATURE_ID_TYPES[type];
}
