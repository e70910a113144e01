/**
 * The export's choices: "Format", geometry types, tag filters as rows and how they join, or the
 * custom export's categories as YAML or JSON text; the file name. `choices()` reads them.
 */
import type { PageSettings } from "basemodel/api";
import { button, el, labelled, uniqueId } from "../../shared/dom.js";
import type { ExportChoices, TagFilterRow } from "./request.js";

const GEOMETRY_NAMES: Record<string, string> = { point: "Points", line: "Lines", polygon: "Polygons" };

const EXAMPLE_CATEGORIES = `- Buildings:
    types: [polygons]
    select: [name, building, building:levels]
    where: tags['building'] IS NOT NULL
    formats: [geojson]
- Roads:
    types: [lines]
    select: [name, highway, surface]
    where: tags['highway'] IS NOT NULL
    formats: [geojson]
`;

export interface ExportForm {
  element: HTMLElement;
  choices(): ExportChoices;
  accessToken(): string;
  /** Called whenever a choice changes. */
  onChange(listener: () => void): void;
}

function radio(name: string, value: string, text: string, checked: boolean): { label: HTMLLabelElement; input: HTMLInputElement } {
  const input = el("input", { type: "radio", name, value, checked });
  return { input, label: el("label", { class: "choice" }, input, ` ${text}`) };
}

/** One tag filter row: a key, its values (none: any value), and a button that removes the row. */
function tagRow(index: number, remove: (row: HTMLElement) => void): HTMLElement {
  const key = el("input", { type: "text", class: "tag-key", placeholder: "building", "aria-label": `Tag key ${index}` });
  const values = el("input", { type: "text", class: "tag-values", placeholder: "any value; or yes, house", "aria-label": `Values of tag ${index}` });
  const row = el("div", { class: "tag-row" }, key, el("span", { "aria-hidden": "true" }, "="), values);
  row.append(button("Remove", () => remove(row), { "aria-label": `Remove tag filter ${index}` }));
  return row;
}

function readTagRow(row: Element): TagFilterRow {
  const key = (row.querySelector(".tag-key") as HTMLInputElement).value.trim();
  const values = (row.querySelector(".tag-values") as HTMLInputElement).value
    .split(",")
    .map((value) => value.trim())
    .filter((value) => value !== "");
  return { key, values };
}

export function exportForm(settings: PageSettings): ExportForm {
  const listeners: Array<() => void> = [];
  const changed = () => listeners.forEach((listener) => listener());
  const modeName = uniqueId("mode");
  const byFilters = radio(modeName, "filters", "Tag filters", true);
  const byCategories = radio(modeName, "categories", "Categories (YAML or JSON)", false);

  const format = el("select", {}, ...settings.outputTypes.map((type) => el("option", { value: type }, type)));
  const geometryBoxes = settings.geometryTypes
    .filter((type) => type in GEOMETRY_NAMES)
    .map((type) => ({ type, input: el("input", { type: "checkbox", value: type }) }));
  const geometryTypes = el(
    "fieldset",
    { class: "inline" },
    el("legend", {}, "Geometry types (none ticked: all)"),
    ...geometryBoxes.map(({ type, input }) => el("label", { class: "choice" }, input, ` ${GEOMETRY_NAMES[type]}`)),
  );
  const rows = el("div", { class: "tag-rows" });
  let rowCount = 0;
  const removeRow = (row: HTMLElement) => {
    row.remove();
    changed();
  };
  const addRow = button("Add tag filter", () => {
    rowCount += 1;
    const row = tagRow(rowCount, removeRow);
    rows.append(row);
    (row.querySelector("input") as HTMLInputElement).focus();
    changed();
  });
  const join = el("select", {}, el("option", { value: "OR" }, "any of them (OR)"), el("option", { value: "AND" }, "all of them (AND)"));
  const filters = el(
    "div",
    { class: "mode-filters" },
    labelled("Format", format),
    geometryTypes,
    el("fieldset", {}, el("legend", {}, "Tag filters (none: every feature)"), rows, addRow, labelled("Features must match", join)),
  );

  const categories = el("textarea", { rows: 12, spellcheck: "false" });
  categories.value = EXAMPLE_CATEGORIES;
  const categoryPart = el(
    "div",
    { class: "mode-categories", hidden: true },
    labelled("Categories", categories, "A list of categories, each with types, select, where and formats, as raw-data-api's custom exports take them; one zip per category, type and format."),
  );

  const fileName = el("input", { type: "text", value: "Export", autocomplete: "off" });
  const accessToken = el("input", { type: "password", autocomplete: "off" });

  const showMode = () => {
    filters.hidden = !byFilters.input.checked;
    categoryPart.hidden = !byCategories.input.checked;
  };
  const element = el(
    "div",
    { class: "export-form" },
    el("fieldset", { class: "inline" }, el("legend", {}, "Choose the features by"), byFilters.label, byCategories.label),
    filters,
    categoryPart,
    labelled("File name", fileName, "Letters, digits and _; it names the files."),
    settings.accessTokens ? labelled("Access token", accessToken, "This server has a users file: custom exports are for its staff.") : null,
  );
  element.addEventListener("input", () => {
    showMode();
    changed();
  });
  element.addEventListener("change", () => {
    showMode();
    changed();
  });

  return {
    element,
    choices: () =>
      byCategories.input.checked
        ? { kind: "categories", categories: categories.value, fileName: fileName.value }
        : {
            kind: "filters",
            format: format.value,
            geometryTypes: geometryBoxes.filter(({ input }) => input.checked).map(({ type }) => type),
            tags: [...rows.children].map(readTagRow),
            joinFilterType: join.value === "AND" ? "AND" : "OR",
            fileName: fileName.value,
          },
    accessToken: () => accessToken.value,
    onChange: (listener) => listeners.push(listener),
  };
}
