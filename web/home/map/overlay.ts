/**
 * Layers of the page's own over the store's: the chosen area, an earlier export's area, the
 * findings. Each is a GeoJSON source whose data the page replaces; they wait for the style.
 */
import type { GeoJSONSource, LayerSpecification, Map as MapLibreMap } from "maplibre-gl";
import { styleLoaded } from "./store-map.js";

type Data = GeoJSON.Geometry | GeoJSON.FeatureCollection;

const EMPTY: GeoJSON.FeatureCollection = { type: "FeatureCollection", features: [] };

/** A source `id` drawn by `layers` (each given the source); returns what replaces its data (undefined: nothing). */
export function overlay(map: MapLibreMap, id: string, layers: Array<Omit<LayerSpecification, "source">>): (data: Data | undefined) => void {
  let pending: Data | undefined;
  let added = false;
  void styleLoaded(map).then(() => {
    map.addSource(id, { type: "geojson", data: pending ?? EMPTY });
    for (const layer of layers) map.addLayer({ ...layer, source: id } as LayerSpecification);
    added = true;
  });
  return (data) => {
    pending = data;
    if (added) (map.getSource(id) as GeoJSONSource).setData(data ?? EMPTY);
  };
}

/** An area's outline and a light fill, in `colour`. */
export function areaOverlay(map: MapLibreMap, id: string, colour: string, dashed = false): (data: Data | undefined) => void {
  return overlay(map, id, [
    { id: `${id}-fill`, type: "fill", paint: { "fill-color": colour, "fill-opacity": 0.08 } },
    { id: `${id}-line`, type: "line", paint: { "line-color": colour, "line-width": 2.5, ...(dashed && { "line-dasharray": [2, 1.5] }) } },
  ]);
}
