import type { Map as MapLibreMap } from "maplibre-gl";

/** Resolves once the map's style is loaded: then sources and layers may be changed. */
export function styleLoaded(map: MapLibreMap): Promise<void> {
  // loaded() would wait for every source too, and a source added since the "load" event keeps it false.
  return map.isStyleLoaded() ? Promise.resolve() : new Promise((resolve) => map.once("load", () => resolve()));
}
