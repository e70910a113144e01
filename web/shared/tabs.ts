/**
 * Panels behind tabs, as WAI-ARIA's tabs pattern has them: Tab reaches the chosen tab, the arrow
 * keys, Home and End choose another, and each panel is named by its tab.
 */
import { el, uniqueId } from "./dom.js";

export interface Tabs {
  element: HTMLElement;
  /** The panel of each tab, by its name. */
  panels: Map<string, HTMLElement>;
  select(name: string): void;
  /** Called with a tab's name when it is chosen. */
  onSelect(listener: (name: string) => void): void;
}

export function tabs(label: string, names: readonly string[]): Tabs {
  const list = el("div", { role: "tablist", "aria-label": label, class: "tablist" });
  const element = el("div", { class: "tabs" }, list);
  const panels = new Map<string, HTMLElement>();
  const buttons: HTMLButtonElement[] = [];
  const listeners: Array<(name: string) => void> = [];

  for (const name of names) {
    const tabId = uniqueId("tab");
    const panelId = uniqueId("panel");
    const tab = el("button", { type: "button", role: "tab", id: tabId, "aria-controls": panelId, "aria-selected": "false", tabindex: "-1" }, name);
    const panel = el("section", { role: "tabpanel", id: panelId, "aria-labelledby": tabId, class: "tabpanel", hidden: true });
    tab.addEventListener("click", () => select(name));
    buttons.push(tab);
    list.append(tab);
    element.append(panel);
    panels.set(name, panel);
  }

  function select(name: string): void {
    names.forEach((candidate, index) => {
      const chosen = candidate === name;
      const tab = buttons[index]!;
      tab.setAttribute("aria-selected", String(chosen));
      tab.tabIndex = chosen ? 0 : -1;
      panels.get(candidate)!.hidden = !chosen;
    });
    for (const listener of listeners) listener(name);
  }

  list.addEventListener("keydown", (event) => {
    const current = buttons.indexOf(document.activeElement as HTMLButtonElement);
    if (current < 0) return;
    const next = { ArrowRight: current + 1, ArrowDown: current + 1, ArrowLeft: current - 1, ArrowUp: current - 1, Home: 0, End: names.length - 1 }[event.key];
    if (next === undefined) return;
    event.preventDefault();
    const index = (next + names.length) % names.length;
    select(names[index]!);
    buttons[index]!.focus();
  });

  select(names[0]!);
  return { element, panels, select, onSelect: (listener) => listeners.push(listener) };
}
