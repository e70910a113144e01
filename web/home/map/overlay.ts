/**
 * The page's own layers over the store's: the chosen area, an earlier export's area, the
 * findings. They are in the style from the start (a source added later would make the map load
 * again, and wait for it); each is a GeoJSON source whose data the page replaces.
 */
import type { GeoJSONSource, GeoJSONSourceSpecification, LayerSpecification, Map as MapLibreMap } from "maplibre-gl";
import { statusColour } from "../quality/statuses.js";
import { styleLoaded } from "./style-loaded.js";

type Data = GeoJSON.Geometry | GeoJSON.FeatureCollection;

const EMPTY: GeoJSON.FeatureCollection = { type: "FeatureCollection", features: [] };

const areaLayers = (id: string, colour: string, dashed: boolean): LayerSpecification[] => [
  { id: `${id}-fill`, type: "fill", source: id, paint: { "fill-color": colour, "fill-opacity": 0.08 } },
  { id: `${id}-line`, type: "line", source: id, paint: { "line-color": colour, "line-width": 2.5, ...(dashed && { "line-dasharray": [2, 1.5] }) } },
];

const OVERLAYS = {
  /** The area the panels work on. */
  area: areaLayers("area", "#1f5fa8", false),
  /** An earlier export's area, shown from the History panel. */
  "history-area": areaLayers("history-area", "#c25e00", true),
  /** The data quality findings with a location, in their status's colour. */
  findings: [{ id: "findings", type: "circle", source: "findings", paint: { "circle-color": statusColour("#555555"), "circle-radius": 7, "circle-stroke-color": "#ffffff", "circle-stroke-width": 2 } }],
} satisfies Record<string, LayerSpecification[]>;

export type Overlay = keyof typeof OVERLAYS;

/** The overlays' sources and layers, for the style the map starts with. */
export function overlayStyle(): { sources: Record<Overlay, GeoJSONSourceSpecification>; layers: LayerSpecification[] } {
  const ids = Object.keys(OVERLAYS) as Overlay[];
  return {
    sources: Object.fromEntries(ids.map((id) => [id, { type: "geojson", data: EMPTY }])) as Record<Overlay, GeoJSONSourceSpecification>,
    layers: ids.flatMap((id) => OVERLAYS[id] as LayerSpecification[]),
  };
}

/** Shows `data` in the overlay (undefined: nothing), once the style can take it. */
export function showOverlay(map: MapLibreMap, id: Overlay, data: Data | undefined): void {
  void styleLoaded(map).then(() => (map.getSource(id) as GeoJSONSource).setData(data ?? EMPTY));
}
