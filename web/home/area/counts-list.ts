/** How many features of each kind the chosen area holds, and "no features of this kind here" for none. */
import { el, replaceChildren } from "../../shared/dom.js";
import { ServerError } from "../../shared/http.js";
import { STORE_LAYERS, type StoreLayer } from "../map/style.js";
import type { Area } from "./area.js";
import { countLayers } from "./counts.js";

export function countsList(): { element: HTMLElement; show(area: Area | undefined): void } {
  const list = el("dl", { class: "counts" });
  const element = el("section", { class: "counts-section", "aria-label": "Features in the area", "aria-live": "polite" });
  let asking: AbortController | undefined;

  async function show(area: Area | undefined): Promise<void> {
    asking?.abort();
    if (area === undefined) {
      replaceChildren(element);
      return;
    }
    const mine = new AbortController();
    asking = mine;
    element.setAttribute("aria-busy", "true");
    replaceChildren(element, el("h3", {}, "Features in the area"), el("p", { class: "hint" }, "Counting…"));
    try {
      const counts = await countLayers(area.request, mine.signal);
      replaceChildren(
        list,
        ...(Object.keys(STORE_LAYERS) as StoreLayer[]).flatMap((layer) => {
          const count = counts[layer] ?? 0;
          return [el("dt", {}, STORE_LAYERS[layer]), el("dd", { class: count === 0 ? "none" : "" }, count === 0 ? "no features of this kind here" : count.toLocaleString("en-US"))];
        }),
      );
      replaceChildren(element, el("h3", {}, "Features in the area"), list);
    } catch (error) {
      if ((error as Error).name === "AbortError") return;
      if (!(error instanceof ServerError)) throw error;
      replaceChildren(element, el("h3", {}, "Features in the area"), el("p", { class: "problem" }, `Not counted: ${error.message}.`));
    } finally {
      if (asking === mine) element.setAttribute("aria-busy", "false");
    }
  }
  return { element, show: (area) => void show(area) };
}
