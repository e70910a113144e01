/**
 * When a map's style has loaded (its first "load" event): from then on, its sources and layers
 * may be changed. Not map.isStyleLoaded(), which is false again whenever tiles are loading, after
 * the one "load" event has gone.
 */
import type { Map as MapLibreMap } from "maplibre-gl";

const loads = new WeakMap<MapLibreMap, Promise<void>>();

/** Called as the map is made, before its "load" can come. */
export function watchLoad(map: MapLibreMap): void {
  loads.set(map, new Promise((resolve) => map.once("load", () => resolve())));
}

export function styleLoaded(map: MapLibreMap): Promise<void> {
  const loaded = loads.get(map);
  if (loaded === undefined) throw new Error("styleLoaded: watchLoad was not called as the map was made");
  return loaded;
}
