/**
 * The map's style: the store's own vector tiles (GET /tiles.json), no glyphs and no sprites, so
 * nothing but the tiles is fetched, and no text on the map (names are in popups and lists).
 * Features with a data quality status wear its colour (quality/statuses.ts).
 */
import type { LayerSpecification, SourceSpecification, StyleSpecification } from "maplibre-gl";
import type { TileLayerName } from "../../../src/model/tile-layers.js";
import { statusColour } from "../quality/statuses.js";
import { overlayStyle } from "./overlay.js";

export const STORE_SOURCE = "store";

/** The layers of the store's tiles (src/model/tile-layers.ts): what the page draws and counts, and their names in words. */
export const STORE_LAYERS: Record<TileLayerName, string> = {
  buildings: "Buildings",
  roads: "Roads",
  water: "Water",
  landuse: "Land use",
  pois: "Points of interest",
};

export type StoreLayer = TileLayerName;

const polygons = ["match", ["geometry-type"], ["Polygon", "MultiPolygon"], true, false];
const lines = ["match", ["geometry-type"], ["LineString", "MultiLineString"], true, false];
const points = ["match", ["geometry-type"], ["Point", "MultiPoint"], true, false];

/** The MapLibre layers over the store's tiles; their ids are what a click on the map asks for. */
function storeLayers(): LayerSpecification[] {
  const layer = (id: string, sourceLayer: StoreLayer, type: "fill" | "line" | "circle", filter: unknown[], paint: Record<string, unknown>) =>
    ({ id, type, source: STORE_SOURCE, "source-layer": sourceLayer, filter, paint }) as LayerSpecification;
  return [
    layer("landuse", "landuse", "fill", polygons, { "fill-color": statusColour("#d4e6c3"), "fill-opacity": 0.6 }),
    layer("water", "water", "fill", polygons, { "fill-color": statusColour("#a8cfe0") }),
    layer("water-lines", "water", "line", lines, { "line-color": statusColour("#a8cfe0"), "line-width": 2 }),
    layer("roads-casing", "roads", "line", lines, { "line-color": "#b5aca3", "line-width": ["interpolate", ["linear"], ["zoom"], 12, 1.5, 18, 12] }),
    layer("roads", "roads", "line", lines, { "line-color": statusColour("#ffffff"), "line-width": ["interpolate", ["linear"], ["zoom"], 12, 0.75, 18, 9] }),
    layer("buildings", "buildings", "fill", polygons, { "fill-color": statusColour("#d9cfc6"), "fill-outline-color": "#9d8b7c" }),
    layer("pois", "pois", "circle", points, { "circle-color": statusColour("#6b4f2a"), "circle-radius": 4, "circle-stroke-color": "#ffffff", "circle-stroke-width": 1 }),
  ];
}

/** The ids of the layers drawn from the store, for clicks and hovers. */
export const STORE_LAYER_IDS = ["landuse", "water", "water-lines", "roads", "buildings", "pois"];

/** The style: the store's tiles as `source` (undefined: the map is drawn without them), the page's overlays above. */
export function storeStyle(source: SourceSpecification | undefined): StyleSpecification {
  const overlays = overlayStyle();
  return {
    version: 8,
    sources: { ...(source && { [STORE_SOURCE]: source }), ...overlays.sources },
    layers: [{ id: "background", type: "background", paint: { "background-color": "#f4f1ec" } }, ...(source ? storeLayers() : []), ...overlays.layers],
  };
}
