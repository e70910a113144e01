/**
 * validateItem(item, { stac: true, schemaMap }): extension schemas basemodel does not bundle,
 * read from local files and compiled at run time, explained as the bundled ones are; an
 * extension with no schema is a warning that says how to check it; a schema that cannot be
 * used is a finding, never an exception.
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { validateItem, validateItemText, type Issue } from "../../../src/index.js";
import { basemodel, scratchDir } from "../../cli/helpers.js";

const ROOT = path.resolve(__dirname, "../../..");
const STAC_INVALID = path.join(ROOT, "fixtures/stac-invalid");
const MLM = "https://stac-extensions.github.io/mlm/v1.5.1/schema.json";
const DEMO = "https://example.com/demo/v1.0.0/schema.json";

const dir = scratchDir();
const write = (name: string, content: unknown) => {
  const file = path.join(dir, name);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, typeof content === "string" ? content : JSON.stringify(content, null, 2));
  return file;
};

/** A small extension: a $ref into its own definitions, an anyOf, and a $ref into a bundled schema (raster). */
const demoSchema = (draft = "http://json-schema.org/draft-07/schema#", definitions = "definitions") => ({
  $schema: draft,
  $id: DEMO,
  type: "object",
  required: ["stac_extensions", "properties"],
  properties: {
    stac_extensions: { type: "array", contains: { const: DEMO } },
    properties: {
      type: "object",
      required: ["demo:mode"],
      properties: {
        "demo:mode": { $ref: `#/${definitions}/mode` },
        "demo:scale": { anyOf: [{ type: "number", minimum: 0 }, { type: "null" }] },
        "demo:data_type": { $ref: "https://stac-extensions.github.io/raster/v1.1.0/schema.json#/definitions/bands/items/properties/data_type" },
      },
    },
  },
  [definitions]: { mode: { enum: ["fast", "exact"] } },
});

/** The realistic fixture (valid STAC) with the demo extension listed and three of its members wrong. */
function demoItemText(): string {
  const item = JSON.parse(readFileSync(path.join(ROOT, "fixtures/valid/realistic-segmentation.json"), "utf8"));
  item.stac_extensions.push(DEMO);
  Object.assign(item.properties, { "demo:mode": "fest", "demo:scale": -1, "demo:data_type": "float" });
  return JSON.stringify(item, null, 2);
}

const brief = (issues: readonly Issue[]) => issues.map(({ rule, path, message, suggestion, schema, line }) => ({ rule, path, message, suggestion, schema, line }));

const DEMO_FINDINGS = [
  { rule: "stac-extension", path: "/properties/demo:mode", message: 'properties.demo:mode must be one of "fast", "exact"; found a string ("fest")', suggestion: 'did you mean "fast"?', schema: DEMO, line: 458 },
  {
    rule: "stac-extension",
    path: "/properties/demo:data_type",
    message:
      'properties.demo:data_type must be one of "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float16", "float32", "float64", "cint16", "cint32", "cfloat32", "cfloat64" and 1 more; found a string ("float")',
    suggestion: undefined,
    schema: DEMO,
    line: 460,
  },
  { rule: "stac-extension", path: "/properties/demo:scale", message: "properties.demo:scale must be at least 0; found a number (-1)", suggestion: undefined, schema: DEMO, line: 459 },
];

describe("an extension schema that is not bundled", () => {
  it("without a schema, is a warning that names the URL and says how to check it", () => {
    const result = validateItemText(demoItemText(), { stac: true });
    expect(result.valid).toBe(true);
    expect(brief(result.warnings)).toEqual([
      {
        rule: "stac-extension-unknown",
        path: "/stac_extensions/6",
        message: `stac_extensions[6] is not checked: this schema is not bundled; found "${DEMO}"`,
        suggestion: `to check it, give a local copy with --schema-map "${DEMO}=<file>" or download it once with --fetch; in the library, schemaMap or fetchSchemas`,
        schema: undefined,
        line: 11,
      },
    ]);
  });

  it("mapped to a file, is compiled at run time and its failures are worded as the bundled schemas' are, at their places", () => {
    const file = write("demo.json", demoSchema());
    const result = validateItemText(demoItemText(), { stac: true, schemaMap: { [DEMO]: file } });
    expect(brief(result.errors)).toEqual(DEMO_FINDINGS);
    expect(result.warnings).toEqual([]);
  });

  it("mapped by a URL prefix to a folder, is read from the rest of the URL's path under it; a URL with no file there stays unchecked", () => {
    write("tree/demo/v1.0.0/schema.json", demoSchema());
    const schemaMap = { "https://example.com/": path.join(dir, "tree") };
    expect(brief(validateItemText(demoItemText(), { stac: true, schemaMap }).errors)).toEqual(DEMO_FINDINGS);
    const other = demoItemText().replace(DEMO, "https://example.com/other/v1.0.0/schema.json");
    const { warnings } = validateItemText(other, { stac: true, schemaMap });
    expect(warnings.map((issue) => issue.message)).toEqual(['stac_extensions[6] is not checked: this schema is not bundled, nor mapped; found "https://example.com/other/v1.0.0/schema.json"']);
  });

  it("is compiled by the JSON Schema draft its $schema names: 2019-09 and 2020-12 as well as draft-07", () => {
    for (const draft of ["https://json-schema.org/draft/2019-09/schema", "https://json-schema.org/draft/2020-12/schema"]) {
      const file = write(`demo-${draft.split("/").at(-2)}.json`, demoSchema(draft, "$defs"));
      expect(brief(validateItemText(demoItemText(), { stac: true, schemaMap: { [DEMO]: file } }).errors)).toEqual(DEMO_FINDINGS);
    }
  });
});

describe("a copy of a bundled schema mapped in its place", () => {
  it("gives exactly what the bundled schema, compiled ahead of time, gives: every fixture, every message and position", () => {
    const copy = write("mlm-1.5.1.json", readFileSync(path.join(ROOT, "schema/stac/stac-extensions.github.io/mlm/v1.5.1/schema.json"), "utf8"));
    const files = readdirSync(STAC_INVALID).filter((file) => file.endsWith(".json") && file !== "expected.json");
    const texts = [readFileSync(path.join(ROOT, "fixtures/valid/realistic-segmentation.json"), "utf8"), ...files.map((file) => readFileSync(path.join(STAC_INVALID, file), "utf8"))];
    let compared = 0;
    for (const text of texts.filter((text) => text.includes(MLM))) {
      const bundled = validateItemText(text, { stac: true, maxErrors: Infinity });
      const mapped = validateItemText(text, { stac: true, maxErrors: Infinity, schemaMap: { [MLM]: copy } });
      // An extension that is not bundled reads "not bundled, nor mapped" once there is a map.
      for (const issue of mapped.warnings) issue.message = issue.message.replace(", nor mapped", "");
      expect(mapped).toEqual(bundled);
      compared++;
    }
    expect(compared).toBeGreaterThan(20);
    // The map wins over the bundled schema: a broken file in its place is what is used.
    const cut = write("mlm-cut.json", "{");
    const { errors } = validateItemText(texts[0]!, { stac: true, schemaMap: { [MLM]: cut } });
    expect(errors.map((issue) => issue.rule)).toEqual(["stac-extension-schema"]);
  });
});

describe("a schema that cannot be used", () => {
  const item = { type: "Feature", stac_version: "1.1.0", stac_extensions: [DEMO], properties: {} };
  const messageWith = (content: unknown) => {
    const file = write(`broken-${Math.random().toString(36).slice(2)}.json`, content);
    const result = validateItem(item, { stac: true, maxErrors: Infinity, schemaMap: { [DEMO]: file } });
    const found = result.errors.filter((issue) => issue.rule === "stac-extension-schema");
    expect(found.map((issue) => issue.path)).toEqual(["/stac_extensions/0"]);
    return { file, message: found[0]!.message };
  };
  const ending = `; found "${DEMO}"`;

  it("is a stac-extension-schema error that says which file and what is wrong with it, never an exception", () => {
    const cut = messageWith('{"type": ');
    expect(cut.message).toBe(`stac_extensions[0] cannot be checked: the schema file mapped to it (${cut.file}) is not JSON: Unexpected end of JSON input${ending}`);
    const list = messageWith([1]);
    expect(list.message).toBe(`stac_extensions[0] cannot be checked: the schema file mapped to it (${list.file}) holds no JSON Schema: a schema is an object${ending}`);
    expect(messageWith({ properties: { properties: { properties: { "demo:mode": { type: "strin" } } } } }).message).toBe(
      `stac_extensions[0] cannot be checked: its schema is not a valid JSON Schema: /properties/properties/properties/demo:mode/type must be equal to one of the allowed values${ending}`,
    );
    expect(messageWith({ properties: { "demo:mode": { $ref: "../nowhere.json" } } }).message).toBe(
      `stac_extensions[0] cannot be checked: its schema's $ref "../nowhere.json" (in ${DEMO}) points to https://example.com/demo/nowhere.json, which is not bundled, not mapped and not downloaded${ending}`,
    );
    expect(messageWith({ $schema: "http://json-schema.org/draft-04/schema#" }).message).toBe(
      `stac_extensions[0] cannot be checked: it is written in JSON Schema "http://json-schema.org/draft-04/schema"; basemodel compiles draft-07, 2019-09 and 2020-12${ending}`,
    );
    const missing = path.join(dir, "missing.json");
    const result = validateItem(item, { stac: true, schemaMap: { [DEMO]: missing } });
    expect(result.errors.map((issue) => issue.message)).toContain(`stac_extensions[0] cannot be checked: the schema file mapped to it (${missing}) cannot be read: no such file${ending}`);
  });
});

describe("the options", () => {
  it("are checked: a TypeError says what is wrong", () => {
    expect(() => validateItem({}, { schemaMap: { [DEMO]: "demo.json" } })).toThrow(new TypeError("schemaMap and schemaCache are for the extension schemas that stac: true checks; set stac: true too"));
    expect(() => validateItem({}, { stac: true, schemaMap: { "demo/v1.0.0": "demo.json" } })).toThrow(new TypeError('the member name "demo/v1.0.0" in schemaMap must be an http(s) URL, starting with http:// or https://; found a string ("demo/v1.0.0")'));
    expect(() => validateItem({}, { stac: true, schemaMap: { [DEMO]: "" } })).toThrow(new TypeError(`schemaMap["${DEMO}"] must not be empty`));
    expect(() => validateItem({}, { stac: true, schemaMap: { "https://example.com/": 3 } as unknown as Record<string, string> })).toThrow(
      new TypeError('schemaMap["https://example.com/"] must be a string; found a number (3)'),
    );
    expect(() => validateItem({}, { stac: true, schemaMap: [] as unknown as Record<string, string> })).toThrow(new TypeError("schemaMap must be an object; found an empty array"));
    expect(() => validateItem({}, { stac: true, schemaCache: 1 as unknown as boolean })).toThrow(new TypeError("schemaCache must be true, false or a folder; found a number (1)"));
  });

  it("read a relative path from the working folder", () => {
    write("relative/demo.json", demoSchema());
    const relative = path.relative(process.cwd(), path.join(dir, "relative/demo.json"));
    expect(brief(validateItemText(demoItemText(), { stac: true, schemaMap: { [DEMO]: relative } }).errors)).toEqual(DEMO_FINDINGS);
  });
});

describe("basemodel validate --stac --schema-map, and schemaMap in the configuration file", () => {
  const itemFile = write("items/demo-item.json", demoItemText());
  const findingLine = `${itemFile}:458:18  error  stac-extension  ${DEMO_FINDINGS[0]!.message}`;

  it("checks the extension against the file given for its URL, or found under the folder given for a URL prefix", async () => {
    const file = write("cli/demo.json", demoSchema());
    write("cli-tree/demo/v1.0.0/schema.json", demoSchema());
    for (const entry of [`${DEMO}=${file}`, `https://example.com/=${path.join(dir, "cli-tree")}`]) {
      const run = await basemodel(["validate", "--stac", "--no-color", "--schema-map", entry, itemFile]);
      expect(run.code).toBe(1);
      expect(run.stdout).toContain(findingLine);
      expect(run.stdout).toContain("3 errors, 0 warnings");
    }
  });

  it("reads schemaMap from the configuration file, paths relative to that file", async () => {
    const project = path.join(dir, "project");
    write("project/schemas/demo.json", demoSchema());
    write("project/basemodel.config.json", { stac: true, schemaMap: { [DEMO]: "schemas/demo.json" } });
    mkdirSync(path.join(project, "deeper"), { recursive: true });
    const run = await basemodel(["validate", "--no-color", itemFile], { cwd: path.join(project, "deeper") });
    expect(run.stdout).toContain(findingLine);
  });

  it("refuses, with exit 2, a path that is not there, a prefix mapped to a file, a malformed entry, and --schema-map without --stac", async () => {
    const missing = path.join(dir, "nowhere.json");
    const file = write("cli/demo-again.json", demoSchema());
    const cases: Array<[string[], string]> = [
      [["--stac", "--schema-map", `${DEMO}=${missing}`], `basemodel: --schema-map ${DEMO}=${missing}: ${missing} does not exist\n`],
      [["--stac", "--schema-map", `https://example.com/=${file}`], `basemodel: --schema-map https://example.com/=${file}: ${file} is not a folder; a URL prefix (ending in "/") maps to a folder\n`],
      [["--stac", "--schema-map", DEMO], `basemodel: --schema-map takes <url>=<file>, or <url-prefix>/=<folder>; found "${DEMO}"\n`],
      [["--stac", "--schema-map", `demo=${file}`], `basemodel: --schema-map demo=${file}: the member name "demo" in --schema-map must be an http(s) URL, starting with http:// or https://; found a string ("demo")\n`],
      [["--schema-map", `${DEMO}=${file}`], "basemodel: --schema-map, --fetch and --offline choose the extension schemas that --stac checks: add --stac\n"],
    ];
    for (const [args, stderr] of cases) {
      const run = await basemodel(["validate", ...args, itemFile]);
      expect([run.code, run.stderr]).toEqual([2, stderr]);
    }
    const config = write("bad-config/basemodel.config.json", { stac: true, schemaMap: { [DEMO]: "gone.json" } });
    const run = await basemodel(["validate", itemFile], { cwd: path.dirname(config) });
    expect([run.code, run.stderr]).toEqual([2, `basemodel: ${config}: schemaMap "${DEMO}": ${path.join(path.dirname(config), "gone.json")} does not exist\n`]);
  });
});
