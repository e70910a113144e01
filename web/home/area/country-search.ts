/** "Country": type part of a name, pick one of the store's countries, and its boundary is the area. */
import type { PolygonalGeometry } from "../../../src/model/geojson.js";
import { button, el, labelled, replaceChildren } from "../../shared/dom.js";
import { ServerError } from "../../shared/http.js";
import type { Area } from "./area.js";
import { findCountries } from "./countries.js";

/** Waits this long after the last key before asking, so that typing a name asks once. */
const TYPING_PAUSE_MS = 250;

export function countrySearch(onChosen: (area: Area) => void): HTMLElement {
  const input = el("input", { type: "search", autocomplete: "off", placeholder: "Part of a name, e.g. mona" });
  const results = el("ul", { class: "choices", "aria-label": "Countries found" });
  const note = el("p", { class: "hint", role: "status" });
  let timer: ReturnType<typeof setTimeout> | undefined;
  let asking: AbortController | undefined;

  const search = async () => {
    asking?.abort();
    const text = input.value.trim();
    if (text === "") {
      replaceChildren(results);
      note.textContent = "";
      return;
    }
    asking = new AbortController();
    try {
      const countries = await findCountries(text, asking.signal);
      note.textContent = countries.length === 0 ? `No country of this server's data has "${text}" in its name.` : "";
      replaceChildren(
        results,
        ...countries.map((country) =>
          el(
            "li",
            {},
            button(country.properties.iso3 ? `${country.properties.name} (${country.properties.iso3.toUpperCase()})` : country.properties.name, () => {
              const geometry = country.geometry as PolygonalGeometry;
              onChosen({ geometry, request: geometry, origin: country.properties.name });
            }),
          ),
        ),
      );
    } catch (error) {
      if ((error as Error).name === "AbortError") return;
      if (!(error instanceof ServerError)) throw error;
      note.textContent = `The countries could not be searched: ${error.message}.`;
    }
  };
  input.addEventListener("input", () => {
    clearTimeout(timer);
    timer = setTimeout(() => void search(), TYPING_PAUSE_MS);
  });
  input.addEventListener("keydown", (event) => {
    if (event.key !== "Enter") return;
    clearTimeout(timer);
    void search();
  });
  return el("div", { class: "country" }, labelled("Country", input), note, results);
}
