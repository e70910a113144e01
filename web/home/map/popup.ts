/**
 * A click on the map opens a popup on what it hit: a finding (its status, what is wrong) or a
 * feature of the store (what it is, its name and tags, its status), each with a link to its
 * object on openstreetmap.org.
 */
import { Popup, type Map as MapLibreMap, type MapGeoJSONFeature } from "maplibre-gl";
import { el } from "../../shared/dom.js";
import { osmLink } from "../osm-link.js";
import { statusName } from "../quality/statuses.js";
import { STORE_LAYERS, STORE_LAYER_IDS, type StoreLayer } from "./style.js";

type Properties = Record<string, unknown>;

/** A list a GeoJSON source held, as queryRenderedFeatures gives it back: the list, or its JSON text. */
function listIn(value: unknown): string[] {
  if (Array.isArray(value)) return value.map(String);
  try {
    const list: unknown = JSON.parse(String(value));
    return Array.isArray(list) ? list.map(String) : [];
  } catch {
    return [];
  }
}

function describeFinding(properties: Properties): HTMLElement {
  const { type, osm_id: id, status, values } = properties;
  return el(
    "div",
    { class: "feature-popup" },
    el("p", { class: "popup-title popup-status" }, statusName(String(status))),
    el("p", {}, listIn(values).join("; ")),
    el("p", {}, osmLink(String(type), Number(id))),
  );
}

function describeFeature(feature: MapGeoJSONFeature): HTMLElement {
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

/** The layers a click looks in, topmost first: the findings over the store's features. */
const CLICKABLE = ["findings", ...STORE_LAYER_IDS];

export function showFeaturePopups(map: MapLibreMap): void {
  const popup = new Popup({ closeButton: true, maxWidth: "320px" });
  const layers = () => CLICKABLE.filter((id) => map.getLayer(id) !== undefined);
  map.on("click", (event) => {
    const [feature] = map.queryRenderedFeatures(event.point, { layers: layers() });
    if (feature === undefined) return;
    const content = feature.layer.id === "findings" ? describeFinding(feature.properties as Properties) : describeFeature(feature);
    popup.setLngLat(event.lngLat).setDOMContent(content).addTo(map);
  });
  map.on("mousemove", (event) => {
    const over = map.queryRenderedFeatures(event.point, { layers: layers() }).length > 0;
    map.getCanvas().style.cursor = over ? "pointer" : "";
  });
}
