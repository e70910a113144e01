/**
 * The Data quality panel: the findings of the area (or of the map's view, without one), coloured
 * on the map and listed, each linking to its object on openstreetmap.org, filtered by date and
 * hashtag, and downloadable as the server's CSV. The list is the map's text alternative.
 */
import type { DataQualityGeoFeature, DataQualityRequest, DataQualityTagRow } from "basemodel/api";
import type { Map as MapLibreMap } from "maplibre-gl";
import type { PolygonalGeometry } from "../../../src/model/geojson.js";
import { button, el, labelled, replaceChildren, saveFile } from "../../shared/dom.js";
import { ServerError } from "../../shared/http.js";
import type { Observable } from "../../shared/observable.js";
import type { Area } from "../area/area.js";
import { showOverlay } from "../map/overlay.js";
import { osmLink } from "../osm-link.js";
import { findingsCsv, GEO_REPORT, readFindings, reportRequest, TAG_REPORT, type Findings } from "./quality-api.js";
import { statusName, STATUS_LOOKS } from "./statuses.js";

/** What a geometry finding's values are, where they name other features ("way/42"). */
const VALUE_WORDS: Record<string, string> = { overlapping: "Overlaps ", duplicate: "The same geometry as " };

/** The map's view as a polygon: the area of the findings when none is chosen. */
function viewPolygon(map: MapLibreMap): PolygonalGeometry {
  const bounds = map.getBounds();
  const [west, south, east, north] = [bounds.getWest(), bounds.getSouth(), bounds.getEast(), bounds.getNorth()];
  return { type: "Polygon", coordinates: [[[west, south], [east, south], [east, north], [west, north], [west, south]]] };
}

/** The status's colour beside its name (set through the CSSOM, which the page's CSP allows, unlike style attributes). */
function swatch(status: string): HTMLElement {
  const element = el("span", { class: "swatch", "aria-hidden": "true" });
  element.style.backgroundColor = (STATUS_LOOKS as Record<string, { colour: string }>)[status]?.colour ?? "#555555";
  return element;
}

function when(timestamp: string | null): string {
  return timestamp === null ? "" : ` · ${timestamp.slice(0, 10)}`;
}

export function qualityPanel(panel: HTMLElement, options: { map: MapLibreMap; area: Observable<Area | undefined> }): { refresh(): void } {
  const { map, area } = options;
  const from = el("input", { type: "date" });
  const to = el("input", { type: "date" });
  const hashtag = el("input", { type: "text", placeholder: "hotosm-project-123", autocomplete: "off" });
  const where = el("p", { class: "hint" });
  const summary = el("p", { class: "findings-summary", role: "status", "aria-live": "polite" });
  const list = el("ul", { class: "findings", "aria-label": "Findings" });
  let request: DataQualityRequest | undefined;
  let reading = 0;

  const geoItem = (feature: DataQualityGeoFeature) => {
    const { type, osm_id: id, status, values, timestamp, hashtags } = feature.properties;
    const point = feature.geometry.type === "Point" ? (feature.geometry.coordinates as [number, number]) : undefined;
    return el(
      "li",
      { class: "finding" },
      el("p", {}, swatch(status), el("strong", {}, statusName(status)), when(timestamp), hashtags.length > 0 ? ` · #${hashtags.join(" #")}` : ""),
      el("p", {}, `${VALUE_WORDS[status] ?? ""}${values.join("; ")}`),
      el(
        "p",
        { class: "button-row" },
        osmLink(type, id),
        point === undefined ? null : button("Show on map", () => map.flyTo({ center: point, zoom: Math.max(map.getZoom(), 18) }), { "aria-label": `Show ${type} ${id} on the map` }),
      ),
    );
  };
  const tagItem = (row: DataQualityTagRow) =>
    el("li", { class: "finding" }, el("p", {}, swatch(row.status), el("strong", {}, statusName(row.status)), when(row.timestamp)), el("p", {}, row.tag), el("p", {}, osmLink(row.type, row.osm_id)));

  const show = (findings: Findings) => {
    const features = findings.geometry.features;
    showOverlay(map, "findings", findings.geometry as GeoJSON.FeatureCollection);
    const total = features.length + findings.tags.length;
    const byStatus = new Map<string, number>();
    for (const status of [...features.map((feature) => feature.properties.status), ...findings.tags.map((row) => row.status)]) byStatus.set(status, (byStatus.get(status) ?? 0) + 1);
    const counted = [...byStatus].map(([status, count]) => `${count} ${statusName(status).toLowerCase()}`).join(", ");
    const more = findings.geometry.hasMore ? " More than the page lists: narrow the dates or the area." : "";
    summary.textContent = total === 0 ? "No findings here for these dates and hashtag." : `${total} finding${total === 1 ? "" : "s"}: ${counted}.${more}`;
    replaceChildren(list, ...features.map(geoItem), ...findings.tags.map(tagItem));
  };

  async function refresh(): Promise<void> {
    const chosen = area.value;
    where.textContent = chosen === undefined ? "In the map's view (no area chosen)." : `In the area: ${chosen.origin}.`;
    request = reportRequest(chosen?.geometry ?? viewPolygon(map), { from: from.value, to: to.value, hashtag: hashtag.value });
    const mine = ++reading;
    summary.textContent = "Reading the findings…";
    list.setAttribute("aria-busy", "true");
    try {
      const findings = await readFindings(request);
      if (mine === reading) show(findings);
    } catch (error) {
      if (!(error instanceof ServerError)) throw error;
      if (mine === reading) summary.textContent = `The findings could not be read: ${error.message}.`;
    } finally {
      if (mine === reading) list.setAttribute("aria-busy", "false");
    }
  }

  const download = async (report: typeof GEO_REPORT | typeof TAG_REPORT, name: string) => {
    if (request === undefined) return;
    try {
      saveFile(await findingsCsv(report, request), name);
    } catch (error) {
      if (!(error instanceof ServerError)) throw error;
      summary.textContent = `The CSV could not be made: ${error.message}.`;
    }
  };

  const filters = el("form", { class: "filters", "aria-label": "Filter the findings" }, labelled("From", from), labelled("To", to), labelled("Hashtag", hashtag), el("button", { type: "submit" }, "Show findings"));
  filters.addEventListener("submit", (event) => {
    event.preventDefault();
    void refresh();
  });
  area.subscribe(() => {
    if (!panel.hidden) void refresh();
  });
  replaceChildren(
    panel,
    el("p", { class: "intro" }, "What the data quality checks found: bad geometry, overlaps, duplicates, bad tag values, missing tags."),
    filters,
    where,
    el("ul", { class: "legend", "aria-label": "Colours on the map" }, ...Object.entries(STATUS_LOOKS).map(([status, look]) => el("li", {}, swatch(status), look.name))),
    el(
      "div",
      { class: "button-row" },
      button("Geometry findings as CSV", () => void download(GEO_REPORT, "geometry-findings.csv")),
      button("Tag findings as CSV", () => void download(TAG_REPORT, "tag-findings.csv")),
    ),
    summary,
    list,
  );
  return { refresh: () => void refresh() };
}
