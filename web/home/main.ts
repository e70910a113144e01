/**
 * The home page: the store's map, and beside it the panels Area, Export, History and Data
 * quality, which share the chosen area.
 */
import "maplibre-gl/dist/maplibre-gl.css";
import "../shared/page.css";
import "./home.css";
import { el } from "../shared/dom.js";
import { ServerError } from "../shared/http.js";
import { Observable } from "../shared/observable.js";
import { tabs } from "../shared/tabs.js";
import type { Area } from "./area/area.js";
import { areaPanel } from "./area/area-panel.js";
import { watchDataAge } from "./data-age.js";
import { exportPanel } from "./export/export-panel.js";
import { historyPanel } from "./history/history-panel.js";
import { homeLayout } from "./layout.js";
import { startMapWorker, storeMap } from "./map/store-map.js";
import { storeTiles } from "./map/tilejson.js";
import { qualityPanel } from "./quality/quality-panel.js";
import { readSettings } from "./settings.js";

const PANELS = ["Area", "Export", "History", "Data quality"] as const;

async function start(): Promise<void> {
  startMapWorker();
  document.title = "basemodel: the map of the data, areas, exports and data quality";
  const layout = homeLayout();
  watchDataAge(layout.dataAge, layout.banner);
  /** What failed, in words where the page shows it; the page goes on without what is missing. */
  const missing = (where: HTMLElement, what: string) => (error: unknown) => {
    if (!(error instanceof ServerError)) throw error;
    where.textContent = `${what}: GET ${error.path}: ${error.message}.`;
    where.hidden = false;
    return undefined;
  };
  const startProblem = el("p", { class: "problem", role: "alert", hidden: true });
  layout.side.append(startProblem);
  // Both asked for as the page arrived (head.html): here they are ready, or nearly.
  const [tiles, settings] = await Promise.all([
    storeTiles().catch(missing(layout.mapNotice, "The map has no data layers")),
    readSettings().catch(missing(startProblem, "The panels could not start")),
  ]);
  const map = storeMap(layout.map, tiles);
  if (settings === undefined) return;
  const area = new Observable<Area | undefined>(undefined);
  const panels = tabs("Panels", PANELS);
  layout.side.append(panels.element);
  const panel = (name: (typeof PANELS)[number]) => panels.panels.get(name)!;

  areaPanel(panel("Area"), { map, area, settings });
  // Each export that ends is the history's newest entry (it ends long after the history is made).
  const exports = exportPanel(panel("Export"), { area, settings, onFinished: () => history.reload() });
  const history = historyPanel(panel("History"), { map, exports, onRunAgain: () => panels.select("Export") });
  const quality = qualityPanel(panel("Data quality"), { map, area });
  panels.onSelect((name) => {
    if (name === "History") history.reload();
    if (name === "Data quality") quality.refresh();
  });
}

// From a microtask, not from the module's top level: a browser that records where each request
// comes from (its DevTools, and so playwright in test/web/ and bench/page.mjs) reads the source
// positions of every function on the stack, and the top level is the whole bundle, MapLibre and
// all: 40 to 70 ms at the page's first request, before the map could start.
queueMicrotask(() => void start());
