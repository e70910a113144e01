/** The home page's frame: a header with the data's age and the API docs, a banner for trouble, the panels beside the map. */
import { el } from "../shared/dom.js";

export interface HomeLayout {
  dataAge: HTMLElement;
  banner: HTMLElement;
  side: HTMLElement;
  map: HTMLElement;
  /** Says something about the map itself (its tiles missing, say). */
  mapNotice: HTMLElement;
}

export function homeLayout(): HomeLayout {
  const dataAge = el("p", { class: "data-age", "aria-live": "polite" }, "Data as of …");
  const banner = el("div", { class: "banner", role: "alert", hidden: true });
  const side = el("div", { class: "side" });
  const map = el("div", { class: "map", id: "map" });
  const mapNotice = el("p", { class: "map-notice", role: "status", hidden: true });
  // What the map shows, in words, for a screen reader (the map's canvas is described by it).
  const mapDescription = el(
    "p",
    { id: "map-description", class: "visually-hidden" },
    "The map of this server's data: buildings, roads, water, land use and points of interest; features with a data quality finding in its colour. " +
      "The Area panel counts what the chosen area holds, and the Data quality panel lists the findings.",
  );
  document.body.append(
    el("header", { class: "top" }, el("h1", {}, "basemodel"), dataAge, el("nav", { "aria-label": "Elsewhere" }, el("a", { href: "docs" }, "API docs"))),
    banner,
    el("main", { class: "home" }, el("aside", { "aria-label": "Panels" }, side), el("div", { class: "map-frame" }, map, mapNotice, mapDescription)),
  );
  return { dataAge, banner, side, map, mapNotice };
}
