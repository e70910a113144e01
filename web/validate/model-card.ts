/**
 * A valid item shown as a model card: its name, tasks, framework, inputs and outputs, classes,
 * metrics, licence and asset links. Links only: nothing here is fetched by the page; following one
 * is the reader's own request. Members are read as they are, whatever rule set passed the item.
 */
import { DEFAULT_PREFIX } from "basemodel";
import { el, uniqueId, type Child } from "../shared/dom.js";

type Json = Record<string, unknown>;

const objectOf = (value: unknown): Json => (value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Json) : {});
const listOf = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);
/** A string or number as text; anything else is not shown. */
const textOf = (value: unknown): string | undefined => (typeof value === "string" ? value : typeof value === "number" || typeof value === "boolean" ? String(value) : undefined);
const texts = (value: unknown): string[] => listOf(value).flatMap((entry) => textOf(entry) ?? []);

/** [-1, 3, 512, 512] as "-1 × 3 × 512 × 512", with the dimensions' names when given. */
function shapeOf(tensor: Json): string | undefined {
  const shape = texts(tensor.shape);
  if (shape.length === 0) return undefined;
  const order = texts(tensor.dim_order);
  return `${shape.join(" × ")}${order.length === shape.length ? ` (${order.join(", ")})` : ""}`;
}

function bandNames(input: Json): string {
  return listOf(input.bands)
    .map((band) => textOf(band) ?? textOf(objectOf(band).name))
    .filter((name): name is string => name !== undefined)
    .join(", ");
}

function facts(entries: Array<[string, Child]>): HTMLElement {
  return el("dl", { class: "facts" }, ...entries.filter(([, value]) => value !== undefined && value !== "").flatMap(([name, value]) => [el("dt", {}, name), el("dd", {}, value)]));
}

function table(caption: string, head: string[], rows: Child[][]): HTMLElement | null {
  if (rows.length === 0) return null;
  return el(
    "table",
    {},
    el("caption", {}, caption),
    el("thead", {}, el("tr", {}, ...head.map((name) => el("th", { scope: "col" }, name)))),
    el("tbody", {}, ...rows.map((row) => el("tr", {}, ...row.map((cell) => el("td", {}, cell))))),
  );
}

function inputsTable(properties: Json): HTMLElement | null {
  const rows = listOf(properties["mlm:input"]).map(objectOf).map((input) => {
    const tensor = objectOf(input.input);
    return [textOf(input.name) ?? "", shapeOf(tensor) ?? "", textOf(tensor.data_type) ?? "", bandNames(input)];
  });
  return table("Inputs", ["Name", "Shape", "Data type", "Bands"], rows);
}

function outputsTable(properties: Json): HTMLElement | null {
  const rows = listOf(properties["mlm:output"]).map(objectOf).map((output) => {
    const tensor = objectOf(output.result);
    return [textOf(output.name) ?? "", texts(output.tasks).join(", "), shapeOf(tensor) ?? "", textOf(tensor.data_type) ?? ""];
  });
  return table("Outputs", ["Name", "Tasks", "Shape", "Data type"], rows);
}

/** Every output's classes, by value; a colour hint is shown as a swatch beside the name. */
function classesTable(properties: Json): HTMLElement | null {
  const rows = listOf(properties["mlm:output"])
    .map(objectOf)
    .flatMap((output) => listOf(output["classification:classes"]).map(objectOf))
    .map((entry) => {
      const hint = textOf(entry.color_hint);
      const swatch = hint !== undefined && /^[0-9a-f]{6}$/i.test(hint) ? el("span", { class: "swatch", "aria-hidden": "true" }) : null;
      if (swatch) swatch.style.backgroundColor = `#${hint}`;
      return [textOf(entry.value) ?? "", el("span", {}, swatch, textOf(entry.name) ?? ""), textOf(entry.description) ?? ""];
    });
  return table("Classes", ["Value", "Name", "Description"], rows);
}

/** A heading over a list, or nothing when the list is empty. */
function listSection(heading: string, className: string, entries: HTMLElement[]): HTMLElement | null {
  return entries.length === 0 ? null : el("div", {}, el("h4", {}, heading), el("ul", { class: className }, ...entries));
}

/** The metrics the item declares (the service's metrics_spec), with a value where the item holds one under the metric's key. */
function metricsList(properties: Json): HTMLElement | null {
  const metrics = listOf(properties[`${DEFAULT_PREFIX}metrics_spec`]).map(objectOf);
  return listSection(
    "Metrics",
    "metrics",
    metrics.map((metric) => {
      const key = textOf(metric.key);
      const value = key === undefined ? undefined : textOf(properties[key]);
      return el("li", {}, el("strong", {}, textOf(metric.name) ?? key ?? ""), value === undefined ? "" : `: ${value}`, textOf(metric.description) ? ` — ${textOf(metric.description)}` : "");
    }),
  );
}

/** Each asset as a link when its href is an http(s) URL, as text otherwise (s3://, a container image). */
function assetsList(item: Json): HTMLElement | null {
  return listSection(
    "Assets",
    "assets",
    Object.entries(objectOf(item.assets)).map(([key, asset]) => {
      const { href, title } = objectOf(asset);
      const target = textOf(href) ?? "";
      const shown = /^https?:\/\//i.test(target) ? el("a", { href: target, rel: "noopener noreferrer" }, target) : el("code", {}, target);
      return el("li", {}, el("strong", {}, key), textOf(title) ? ` (${textOf(title)})` : "", ": ", shown);
    }),
  );
}

export function modelCard(value: unknown, place: string | undefined): HTMLElement {
  const item = objectOf(value);
  const properties = objectOf(item.properties);
  const titleId = uniqueId("card");
  const name = textOf(properties["mlm:name"]);
  const framework = [textOf(properties["mlm:framework"]), textOf(properties["mlm:framework_version"])].filter(Boolean).join(" ");
  return el(
    "article",
    { class: "model-card", "aria-labelledby": titleId },
    el("h3", { id: titleId }, textOf(properties.title) ?? name ?? textOf(item.id) ?? "A valid item"),
    place === undefined ? null : el("p", { class: "hint" }, place),
    facts([
      ["Name", name],
      ["Tasks", texts(properties["mlm:tasks"]).join(", ")],
      ["Framework", framework],
      ["Architecture", textOf(properties["mlm:architecture"])],
      ["Version", textOf(properties.version)],
      ["Licence", textOf(properties.license)],
      ["Keywords", texts(properties.keywords).join(", ")],
    ]),
    textOf(properties.description) ? el("p", { class: "description" }, textOf(properties.description)) : null,
    inputsTable(properties),
    outputsTable(properties),
    classesTable(properties),
    metricsList(properties),
    assetsList(item),
  );
}
