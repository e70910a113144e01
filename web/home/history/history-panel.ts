/**
 * The History panel: the server's exports, newest first, each with its state, its area (drawn on
 * the map when chosen), formats, size, its files ("Download", or that it is gone, or that it holds
 * no features) and "Run again".
 */
import type { Map as MapLibreMap } from "maplibre-gl";
import { button, el, replaceChildren } from "../../shared/dom.js";
import { formatBytes, formatUtc } from "../../shared/format.js";
import { ServerError } from "../../shared/http.js";
import type { Area } from "../area/area.js";
import { areaFromValue, NotAnArea } from "../area/read-geojson.js";
import type { ExportPanel } from "../export/export-panel.js";
import { STATE_WORDS } from "../export/task.js";
import { showOverlay } from "../map/overlay.js";
import { showGeometry } from "../map/store-map.js";
import { readHistory, type HistoryEntry } from "./history-api.js";

const stateWords = (state: string) => (STATE_WORDS as Record<string, string>)[state] ?? state;

export interface HistoryPanel {
  reload(): void;
}

/** The polygons of an entry's area, or undefined for one without (a country's custom export) or one the page cannot draw. */
function areaOf(entry: HistoryEntry): Area | undefined {
  if (entry.area === null) return undefined;
  try {
    return areaFromValue(entry.area, entry.fileName);
  } catch (error) {
    if (error instanceof NotAnArea) return undefined;
    throw error;
  }
}

function fileItem(file: HistoryEntry["files"][number], several: boolean): HTMLElement {
  const label = several ? `Download ${file.name}` : undefined;
  return el(
    "li",
    {},
    file.url === null ? el("span", { class: "hint" }, "Deleted (past its maximum age): run it again") : el("a", { href: file.url, download: file.name, "aria-label": label }, "Download"),
    ` ${file.name}, ${formatBytes(file.size)}`,
    file.features === 0 ? el("strong", { class: "empty" }, ": no features of the kinds asked for in this area") : `, ${file.features.toLocaleString("en-US")} features`,
  );
}

export function historyPanel(panel: HTMLElement, options: { map: MapLibreMap; exports: ExportPanel; onRunAgain: () => void }): HistoryPanel {
  const list = el("ol", { class: "history", "aria-label": "Exports, newest first" });
  const note = el("p", { class: "hint", role: "status" });
  /** The entry whose area the map shows, and its button. */
  let shown: { id: string; control: HTMLButtonElement } | undefined;

  const toggleArea = (entry: HistoryEntry, area: Area, control: HTMLButtonElement) => {
    shown?.control.setAttribute("aria-pressed", "false");
    shown = shown?.id === entry.id ? undefined : { id: entry.id, control };
    showOverlay(options.map, "history-area", shown === undefined ? undefined : area.geometry);
    if (shown === undefined) return;
    control.setAttribute("aria-pressed", "true");
    showGeometry(options.map, area.geometry);
  };

  const entryItem = (entry: HistoryEntry) => {
    const area = areaOf(entry);
    let showButton: HTMLButtonElement | null = null;
    if (area !== undefined) {
      const pressed = shown?.id === entry.id;
      showButton = button("Show area", () => toggleArea(entry, area, showButton!), { "aria-pressed": String(pressed) });
      // A reload keeps the area shown; its button is this new one.
      if (pressed) shown = { id: entry.id, control: showButton };
    }
    const facts = [stateWords(entry.status), formatUtc(entry.createdAt), entry.iso3?.toUpperCase(), entry.formats.join(", "), entry.size === undefined ? undefined : formatBytes(entry.size)];
    return el(
      "li",
      { class: "history-entry" },
      el("p", {}, el("strong", {}, entry.fileName), ` ${facts.filter(Boolean).join(" · ")}`),
      entry.error ? el("p", { class: "problem" }, entry.error) : null,
      entry.files.length > 0 ? el("ul", { class: "downloads" }, ...entry.files.map((file) => fileItem(file, entry.files.length > 1))) : null,
      el(
        "div",
        { class: "button-row" },
        showButton,
        button("Run again", () => {
          options.onRunAgain();
          void options.exports.run(entry.request);
        }),
      ),
    );
  };

  async function reload(): Promise<void> {
    note.textContent = "Reading the history…";
    try {
      const entries = await readHistory(options.exports.accessToken());
      replaceChildren(list, ...entries.map(entryItem));
      note.textContent = entries.length === 0 ? "No exports yet." : "";
    } catch (error) {
      if (!(error instanceof ServerError)) throw error;
      note.textContent = `The history could not be read: ${error.message}.`;
    }
  }

  replaceChildren(panel, el("p", { class: "intro" }, "The exports of this server, newest first, kept across restarts."), note, list);
  return { reload: () => void reload() };
}
