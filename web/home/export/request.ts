/**
 * The export request the form describes, exactly as it is sent, and the same request as a curl
 * command: what the page shows before "Export", so that a person can see what will be selected
 * and run it again without the page.
 */

export interface TagFilterRow {
  key: string;
  /** Empty: the key with any value. */
  values: string[];
}

export interface FilterChoices {
  kind: "filters";
  format: string;
  /** Empty: every geometry type. */
  geometryTypes: string[];
  tags: TagFilterRow[];
  joinFilterType: "OR" | "AND";
  fileName: string;
}

export interface CategoryChoices {
  kind: "categories";
  /** The categories list, as JSON or YAML text. */
  categories: string;
  fileName: string;
}

export type ExportChoices = FilterChoices | CategoryChoices;

export interface ExportRequest {
  path: string;
  contentType: string;
  /** The body's text, as sent. */
  body: string;
  headers: Record<string, string>;
}

/** JSON with an object member per line, and coordinate arrays on one line each: short enough to read. */
export function readableJson(value: unknown, indent = ""): string {
  if (Array.isArray(value)) {
    if (value.every((item) => typeof item !== "object" || item === null || Array.isArray(item))) return JSON.stringify(value);
    const inner = `${indent}  `;
    return `[\n${value.map((item) => inner + readableJson(item, inner)).join(",\n")}\n${indent}]`;
  }
  if (typeof value === "object" && value !== null) {
    const entries = Object.entries(value);
    if (entries.length === 0) return "{}";
    const inner = `${indent}  `;
    return `{\n${entries.map(([key, item]) => `${inner}${JSON.stringify(key)}: ${readableJson(item, inner)}`).join(",\n")}\n${indent}}`;
  }
  return JSON.stringify(value);
}

function snapshotBody(area: unknown, choices: FilterChoices): Record<string, unknown> {
  const tags = Object.fromEntries(choices.tags.filter((row) => row.key.trim() !== "").map((row) => [row.key.trim(), row.values]));
  return {
    geometry: area,
    outputType: choices.format,
    fileName: choices.fileName,
    ...(choices.geometryTypes.length > 0 && { geometryType: choices.geometryTypes }),
    ...(Object.keys(tags).length > 0 && { filters: { tags: { allGeometry: tags } }, joinFilterType: choices.joinFilterType }),
  };
}

/** Whether the categories are JSON (sent as JSON) rather than YAML (sent to the YAML route). */
function parsedJson(text: string): { value: unknown } | undefined {
  try {
    return { value: JSON.parse(text) };
  } catch {
    return undefined;
  }
}

function customRequest(area: unknown, choices: CategoryChoices): Pick<ExportRequest, "path" | "contentType" | "body"> {
  const dataset = { dataset_prefix: choices.fileName };
  const json = parsedJson(choices.categories);
  if (json !== undefined) {
    return { path: "/latest/custom/snapshot/", contentType: "application/json", body: readableJson({ geometry: area, dataset, categories: json.value }) };
  }
  // JSON is YAML: the area and the dataset as JSON, the categories as the person wrote them, indented under their key.
  const categories = choices.categories.replace(/\s+$/, "").replace(/^/gm, "  ");
  return {
    path: "/latest/custom/snapshot/yaml/",
    contentType: "application/yaml",
    body: `geometry: ${JSON.stringify(area)}\ndataset: ${JSON.stringify(dataset)}\ncategories:\n${categories}\n`,
  };
}

export function exportRequest(area: unknown, choices: ExportChoices, accessToken = ""): ExportRequest {
  const headers: Record<string, string> = accessToken === "" ? {} : { "access-token": accessToken };
  if (choices.kind === "categories") return { ...customRequest(area, choices), headers };
  return { path: "/latest/snapshot/", contentType: "application/json", body: readableJson(snapshotBody(area, choices)), headers };
}

/** Quoted for a POSIX shell: the text between single quotes, each ' written '\''. */
const shellQuoted = (text: string) => `'${text.replace(/'/g, "'\\''")}'`;

export function curlCommand(url: string, request: ExportRequest): string {
  const headers = { "content-type": request.contentType, ...request.headers };
  return [
    `curl -X POST ${shellQuoted(url)}`,
    ...Object.entries(headers).map(([name, value]) => `-H ${shellQuoted(`${name}: ${value}`)}`),
    `--data-binary ${shellQuoted(request.body)}`,
  ].join(" \\\n  ");
}
