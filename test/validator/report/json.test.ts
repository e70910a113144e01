import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { formatJson } from "../../../src/validator/report/json.js";
import { brokenText, fileReport, mixedReport, runReport } from "./fixtures.js";
import { NO_COLOURS } from "../../../src/validator/report/paint.js";

const ROOT = resolve(__dirname, "../../..");
const packageVersion = (JSON.parse(readFileSync(resolve(ROOT, "package.json"), "utf8")) as { version: string }).version;
const documentation = readFileSync(resolve(ROOT, "docs/json-format.md"), "utf8");

interface JsonItem {
  [member: string]: unknown;
  errors: Array<Record<string, unknown>>;
  warnings: Array<Record<string, unknown>>;
}
interface JsonReport {
  [member: string]: unknown;
  files: Array<{ [member: string]: unknown; items: JsonItem[] }>;
}

/** Every member name of the report, except inside `expected` and `actual`, which hold the item's own values. */
function memberNames(value: unknown, names = new Set<string>()): Set<string> {
  if (Array.isArray(value)) for (const element of value) memberNames(element, names);
  else if (value !== null && typeof value === "object") {
    for (const [name, member] of Object.entries(value)) {
      names.add(name);
      if (name !== "expected" && name !== "actual") memberNames(member, names);
    }
  }
  return names;
}

describe("json format", () => {
  const report = mixedReport();
  const output = formatJson(report, { paint: NO_COLOURS, quiet: false });
  const parsed = JSON.parse(output) as JsonReport;

  it("is indented JSON ending with a line feed", () => {
    expect(output).toBe(`${JSON.stringify(parsed, null, 2)}\n`);
  });

  it("has the documented top level: version, tool, settings, summary, files", () => {
    expect(Object.keys(parsed)).toEqual(["version", "tool", "settings", "summary", "files"]);
    expect(parsed.version).toBe(1);
    expect(parsed.tool).toEqual({ name: "basemodel", version: packageVersion });
    expect(parsed.settings).toEqual(report.settings);
    expect(parsed.summary).toEqual(report.summary);
    expect(Object.keys(parsed.summary as object)).toEqual(["files", "unreadable", "items", "valid", "invalid", "errors", "warnings", "omittedErrors", "omittedWarnings", "durationMs"]);
  });

  it("lists every file with its items, and never the source text", () => {
    expect(parsed.files.map((file) => file.file)).toEqual(report.files.map((file) => file.file));
    for (const file of parsed.files) expect(Object.keys(file)).toEqual(file.readError === undefined ? ["file", "items"] : ["file", "readError", "items"]);
    expect(parsed.files.at(-1)).toEqual({ file: "missing.json", readError: "ENOENT: no such file or directory", items: [] });
    expect(output).not.toContain("DeepLabV3 with a ResNet-50 backbone");
  });

  it("keeps every item and issue of the validator, in a fixed member order", () => {
    report.files.forEach((file, index) => expect(parsed.files[index]!.items).toEqual(JSON.parse(JSON.stringify(file.items))));
    const [item] = parsed.files[0]!.items;
    expect(Object.keys(item!)).toEqual(["index", "pointer", "line", "id", "valid", "errors", "warnings", "omitted"]);
    expect(Object.keys(item!.errors[0]!)).toEqual(["rule", "severity", "path", "message", "expected", "actual", "suggestion", "line", "column", "endLine", "endColumn"]);
  });

  it("leaves optional members out instead of writing null", () => {
    const syntaxItem = parsed.files.find((file) => file.file === "bad-syntax.json")!.items[0]!;
    expect(Object.keys(syntaxItem)).toEqual(["index", "pointer", "line", "valid", "errors", "warnings", "omitted"]);
    expect(Object.keys(syntaxItem.errors[0]!)).toEqual(["rule", "severity", "path", "message", "line", "column", "endLine", "endColumn"]);
    expect(output).not.toContain("null");
  });

  it("counts the issues --max-errors left out, by severity, per item and in the summary", () => {
    const cut = JSON.parse(formatJson(runReport([fileReport("a.json", brokenText, { maxErrors: 2 })]), { paint: NO_COLOURS, quiet: false })) as JsonReport;
    const [item] = cut.files[0]!.items;
    expect(item).toMatchObject({ omitted: 3, omittedErrors: 1, omittedWarnings: 2 });
    expect(item!.errors).toHaveLength(2);
    expect(cut.summary).toMatchObject({ errors: 2, warnings: 0, omittedErrors: 1, omittedWarnings: 2 });
  });

  it("documents every member it writes in docs/json-format.md", () => {
    // Documented as `name` in its table, or as `parent.name`.
    const cut = JSON.parse(formatJson(runReport([fileReport("a.json", brokenText, { maxErrors: 2 })]), { paint: NO_COLOURS, quiet: false }));
    for (const name of memberNames([parsed, cut])) expect(documentation, name).toMatch(new RegExp(`\`([\\w.]+\\.)?${name}\``));
  });
});
