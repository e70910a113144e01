/** A click on a feature of the store opens a popup: what it is, its name, its status, and a link to it on openstreetmap.org. */
import { Popup, type Map as MapLibreMap, type MapGeoJSONFeature } from "maplibre-gl";
import { el } from "../../shared/dom.js";
import { osmLink } from "../osm-link.js";
import { statusName } from "../quality/statuses.js";
import { STORE_LAYERS, STORE_LAYER_IDS, type StoreLayer } from "./style.js";

function describe(feature: MapGeoJSONFeature): HTMLElement {
  const { osm_type: type, osm_id: id, name, status } = feature.properties as Record<string, string | number | undefined>;
  const kind = STORE_LAYERS[feature.sourceLayer as StoreLayer] ?? feature.sourceLayer;
  const tags = Object.entries(feature.properties).filter(([key]) => !["osm_type", "osm_id", "name", "status"].includes(key));
  return el(
    "div",
    { class: "feature-popup" },
    el("p", { class: "popup-title" }, name === undefined ? kind : `${name} (${kind})`),
    tags.length > 0 ? el("p", {}, tags.map(([key, value]) => `${key}=${value}`).join(", ")) : null,
    status !== undefined && status !== "ok" ? el("p", { class: "popup-status" }, `Data quality: ${statusName(String(status))}`) : null,
    type !== undefined && id !== undefined ? el("p", {}, osmLink(String(type), Number(id))) : null,
  );
}

export function showFeaturePopups(map: MapLibreMap): void {
  const popup = new Popup({ closeButton: true, maxWidth: "320px" });
  const layers = () => STORE_LAYER_IDS.filter((id) => map.getLayer(id) !== undefined);
  map.on("click", (event) => {
    const [feature] = map.queryRenderedFeatures(event.point, { layers: layers() });
    if (feature === undefined) return;
    popup.setLngLat(event.lngLat).setDOMContent(describe(feature)).addTo(map);
  });
  map.on("mousemove", (event) => {
    const over = map.queryRenderedFeatures(event.point, { layers: layers() }).length > 0;
    map.getCanvas().style.cursor = over ? "pointer" : "";
  });
}
