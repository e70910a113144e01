/**
 * The Area panel: draw a polygon or a rectangle, take the map's view, upload or paste GeoJSON, or
 * pick a country. As the area is drawn it shows its km² against the server's limits, and once
 * chosen how many features of each kind it holds, or that it holds none of a kind.
 */
import type { Map as MapLibreMap } from "maplibre-gl";
import type { PageSettings } from "basemodel/api";
import { areaKm2 } from "../../../src/model/area.js";
import type { PolygonalGeometry } from "../../../src/model/geojson.js";
import { button, el, labelled, replaceChildren } from "../../shared/dom.js";
import { formatKm2 } from "../../shared/format.js";
import type { Observable } from "../../shared/observable.js";
import { showOverlay } from "../map/overlay.js";
import { showGeometry } from "../map/store-map.js";
import type { Area } from "./area.js";
import { countrySearch } from "./country-search.js";
import { countsList } from "./counts-list.js";
import { areaDrawing, type DrawMode } from "./draw.js";
import { exportLimit, plainLimit } from "./limits.js";
import { areaFromGeoJson, NotAnArea } from "./read-geojson.js";

const NO_AREA = "No area yet: draw one, use the map's view, upload or paste GeoJSON, or pick a country.";

const DRAW_HINTS: Record<DrawMode, string> = {
  polygon: "Click the map to add corners; click the first corner or press Enter to close the polygon; Escape gives up.",
  rectangle: "Click one corner on the map, then the opposite one.",
};

export interface AreaPanelOptions {
  map: MapLibreMap;
  area: Observable<Area | undefined>;
  settings: PageSettings;
}

export function areaPanel(panel: HTMLElement, { map, area, settings }: AreaPanelOptions): void {
  const problem = el("p", { class: "problem", role: "alert" });
  const hint = el("p", { class: "hint", role: "status" });
  const size = el("div", { class: "area-size", role: "status", "aria-live": "polite" }, NO_AREA);
  const counts = countsList();

  const choose = (chosen: Area | undefined) => {
    problem.textContent = "";
    area.set(chosen);
  };
  /** GeoJSON text as the area, or what it is instead, in words. */
  const chooseGeoJson = (text: string, origin: string) => {
    try {
      choose(areaFromGeoJson(text, origin));
    } catch (error) {
      if (!(error instanceof NotAnArea)) throw error;
      problem.textContent = error.message;
    }
  };

  const describeSize = (geometry: PolygonalGeometry, origin: string) => {
    const km2 = areaKm2(geometry);
    const exporting = exportLimit(km2, settings);
    replaceChildren(
      size,
      el("p", {}, el("strong", { class: "km2" }, formatKm2(km2)), ` · ${origin}`),
      el("p", { class: exporting.over ? "limit over" : "limit" }, exporting.text),
      // Only a hint: over it, the area is exported, not refused.
      el("p", { class: "limit hint" }, plainLimit(km2, settings).text),
    );
  };

  const drawButtons = new Map<DrawMode, HTMLButtonElement>();
  const pressed = (mode: DrawMode | undefined) => {
    for (const [name, control] of drawButtons) control.setAttribute("aria-pressed", String(name === mode));
    hint.textContent = mode === undefined ? "" : "Getting the drawing ready…";
  };
  const drawing = areaDrawing(map, {
    onShape: (shape) => {
      if (shape !== undefined) describeSize(shape, "being drawn");
    },
    onDrawn: (geometry, mode) => {
      pressed(undefined);
      choose({ geometry, request: geometry, origin: mode === "polygon" ? "drawn polygon" : "drawn rectangle" });
    },
  });
  for (const [mode, name] of [
    ["polygon", "Draw polygon"],
    ["rectangle", "Draw rectangle"],
  ] as const) {
    const control = button(
      name,
      () => {
        if (control.getAttribute("aria-pressed") === "true") {
          drawing.stop();
          pressed(undefined);
          return;
        }
        pressed(mode);
        void drawing.start(mode).then(() => {
          // Unless another button was pressed meanwhile.
          if (control.getAttribute("aria-pressed") === "true") hint.textContent = DRAW_HINTS[mode];
        });
      },
      { "aria-pressed": "false" },
    );
    drawButtons.set(mode, control);
  }

  const upload = el("input", { type: "file", accept: ".geojson,.json,application/geo+json,application/json", class: "visually-hidden" });
  upload.addEventListener("change", async () => {
    const file = upload.files?.[0];
    if (file === undefined) return;
    chooseGeoJson(await file.text(), file.name);
    upload.value = "";
  });

  const pasted = el("textarea", { rows: 5, spellcheck: "false", placeholder: '{"type": "Polygon", "coordinates": [[[7.41, 43.72], …]]}' });
  const usePasted = button("Use pasted area", () => chooseGeoJson(pasted.value, "pasted GeoJSON"));

  // The area a keyboard can choose too: move the map with the arrow keys and +/-, then take its view.
  const useView = button("Use map view", () => {
    drawing.stop();
    pressed(undefined);
    const bounds = map.getBounds();
    const [west, south, east, north] = [bounds.getWest(), bounds.getSouth(), bounds.getEast(), bounds.getNorth()];
    const geometry: PolygonalGeometry = { type: "Polygon", coordinates: [[[west, south], [east, south], [east, north], [west, north], [west, south]]] };
    choose({ geometry, request: geometry, origin: "the map's view" });
  });

  const clear = button("Clear area", () => {
    drawing.stop();
    pressed(undefined);
    choose(undefined);
  });

  area.subscribe((chosen) => {
    showOverlay(map, "area", chosen?.geometry);
    counts.show(chosen);
    if (chosen === undefined) {
      replaceChildren(size, NO_AREA);
      return;
    }
    describeSize(chosen.geometry, chosen.origin);
    showGeometry(map, chosen.geometry);
  });

  replaceChildren(
    panel,
    el("p", { class: "intro" }, "The area of an export and of the data quality findings."),
    el("div", { class: "button-row" }, ...drawButtons.values(), el("label", { class: "button" }, "Upload area", upload), useView, clear),
    hint,
    el("details", {}, el("summary", {}, "Paste GeoJSON"), labelled("GeoJSON of the area", pasted), usePasted),
    countrySearch((country) => choose(country)),
    problem,
    size,
    counts.element,
  );
}
