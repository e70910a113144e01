/** The validator page's frame: a header, the input (options, files, the editor) beside the results (summary, problems, model cards). */
import { el } from "../shared/dom.js";

export interface ValidateLayout {
  /** Where the options, the file controls and the editor go. */
  input: HTMLElement;
  /** "1 item: 0 valid, 1 invalid; ...", said to screen readers as it changes. */
  summary: HTMLElement;
  /** Trouble of the page itself (a part that did not load), not of the item. */
  banner: HTMLElement;
  problems: HTMLElement;
  cards: HTMLElement;
}

export function validateLayout(): ValidateLayout {
  const input = el("section", { class: "input", "aria-label": "Input" });
  const summary = el("p", { class: "summary", role: "status" });
  const banner = el("p", { class: "banner", role: "alert", hidden: true });
  const problems = el("div", { class: "problems-pane" });
  const cards = el("section", { class: "cards", "aria-label": "Model cards" });
  document.body.append(
    el(
      "header",
      { class: "top" },
      el("h1", {}, "Validate base model items"),
      el("p", { class: "hint" }, "basemodel's validator runs in this browser: what you paste or open is not sent anywhere."),
    ),
    banner,
    el("main", { class: "validate" }, input, el("section", { class: "results", "aria-label": "Results" }, summary, problems, cards)),
  );
  return { input, summary, banner, problems, cards };
}
