/**
 * The map that is the page: MapLibre GL over the store's own tiles. The container says whether
 * the map is still moving or loading (aria-busy), for assistive technology and for tests alike.
 */
import { AttributionControl, Map as MapLibreMap, NavigationControl, ScaleControl, prewarm, setWorkerUrl } from "maplibre-gl";
import type { PolygonalGeometry } from "../../../src/model/geojson.js";
import { geometryBBox } from "../../../src/model/geojson.js";
import { storeStyle } from "./style.js";
import { watchLoad } from "./style-loaded.js";
import type { StoreTiles } from "./tilejson.js";
import { showFeaturePopups } from "./popup.js";

// MapLibre GL 6 starts its worker from this module (scripts/build-web.mjs puts it beside the page's script).
setWorkerUrl(new URL(BASEMODEL_MAPLIBRE_WORKER, document.baseURI).href);

const WORLD: [number, number, number, number] = [-180, -80, 180, 80];

/**
 * Starts MapLibre's worker before the map is made: a map makes its WebGL context first (a few
 * hundred milliseconds in software WebGL) and only then its worker, which the tiles wait for.
 * Started first, the worker is fetched and compiled (half a megabyte) meanwhile.
 */
export function startMapWorker(): void {
  prewarm();
}

export function storeMap(container: HTMLElement, tiles: StoreTiles | undefined): MapLibreMap {
  container.setAttribute("aria-busy", "true");
  const map = new MapLibreMap({
    container,
    style: storeStyle(tiles?.source),
    // The tiles' own starting view (TileJSON's center), else the world; a view in the address first.
    ...(tiles ? { center: [tiles.center[0], tiles.center[1]] as [number, number], zoom: tiles.center[2] } : { bounds: WORLD }),
    attributionControl: false,
    // The view in the address (#zoom/lat/lon): a link to it shows the same place.
    hash: true,
    // No rotation: a flat map of the data, north up.
    dragRotate: false,
    pitchWithRotate: false,
    touchPitch: false,
    // No labels, so nothing fades in: idle as soon as all is drawn.
    fadeDuration: 0,
  });
  watchLoad(map);
  map.getCanvas().setAttribute("aria-describedby", "map-description");
  map.touchZoomRotate.disableRotation();
  map.keyboard.disableRotation();
  map.addControl(new NavigationControl({ showCompass: false }), "top-right");
  map.addControl(new ScaleControl({ unit: "metric" }), "bottom-right");
  // The tiles' own attribution (OpenStreetMap's, from the TileJSON).
  map.addControl(new AttributionControl({ compact: false }), "bottom-right");
  // Busy from a move or a load until everything is drawn.
  map.on("movestart", () => container.setAttribute("aria-busy", "true"));
  map.on("dataloading", () => container.setAttribute("aria-busy", "true"));
  map.on("idle", () => container.setAttribute("aria-busy", "false"));
  showFeaturePopups(map);
  return map;
}

/** Moves the map to show `geometry` whole. */
export function showGeometry(map: MapLibreMap, geometry: PolygonalGeometry | { type: "Point"; coordinates: [number, number] }): void {
  if (geometry.type === "Point") {
    map.flyTo({ center: geometry.coordinates, zoom: Math.max(map.getZoom(), 17) });
    return;
  }
  const box = geometryBBox(geometry);
  map.fitBounds([box.minX, box.minY, box.maxX, box.maxY], { padding: 40, maxZoom: 18 });
}
