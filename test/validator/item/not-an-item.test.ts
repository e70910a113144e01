/**
 * An object that is not a base model item at all (a fAIr dataset item, a STAC Collection, a
 * package.json, a GeoJSON file of buildings) gets one error saying what it is, from the library
 * (the CLI's output: test/cli/not-an-item.test.ts).
 */
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { validateDocumentText, validateItem, validateItemText, type Issue } from "../../../src/index.js";

const ROOT = resolve(__dirname, "../../..");
const read = (path: string) => readFileSync(join(ROOT, path), "utf8");
const minimal = read("fixtures/valid/minimal.json");
const SCHEMA_URL = "https://hotosm.github.io/fAIr-models/schemas/v1.0.0/base-model/schema.json";

const errorsOf = (issues: readonly Issue[]) => issues.map(({ rule, path, message, suggestion, actual }) => ({ rule, path, message, suggestion, actual }));

describe("an object that is not a base model item at all: one error saying what it is", () => {
  const EXPECTED_ITEM = `a base model item is a STAC Item whose stac_extensions lists "${SCHEMA_URL}" and whose properties describe a model with mlm: members`;
  const notAnItem = (what: string) => ({
    rule: "not-a-base-model-item",
    severity: "error",
    path: "",
    message: `not a base model item: found ${what}; ${EXPECTED_ITEM}`,
    expected: "a base model item",
    actual: what,
  });

  it.each([
    ["a fAIr dataset item", read("fixtures/not-items/dataset-item.json"), 'a dataset item (its stac_extensions lists "https://hotosm.github.io/fAIr-models/schemas/v1.0.0/dataset/schema.json")'],
    ["a STAC Collection", read("fixtures/not-items/stac-collection.json"), "a STAC Collection"],
    ["a STAC Catalog", JSON.stringify({ type: "Catalog", stac_version: "1.1.0", id: "root", description: "All models", links: [] }), "a STAC Catalog"],
    ["a STAC Item of imagery", JSON.stringify({ type: "Feature", stac_version: "1.1.0", id: "scene", properties: { datetime: "2025-01-01T00:00:00Z" }, assets: {} }), "a STAC Item that describes no model"],
    ["a GeoJSON Feature", JSON.stringify({ type: "Feature", geometry: null, properties: { building: "yes" } }), "a GeoJSON Feature"],
    ["package.json", read("package.json"), "an npm package.json"],
    ["a JSON Schema", read("schema/base-model-item.schema.json"), "a JSON Schema"],
    ["tsconfig.json", read("tsconfig.json"), 'an object with the members "compilerOptions", "include"'],
    ["an empty object", "{}", "an empty object"],
  ])("%s", (_label, text, what) => {
    const result = validateItemText(text);
    expect(result).toMatchObject({ valid: false, warnings: [], omitted: 0 });
    expect(result.errors).toEqual([{ ...notAnItem(what), line: 1, column: 1, endLine: text.trimEnd().split("\n").length, endColumn: expect.any(Number) }]);
    // The same from a value, with strict, and with fAIr's CI checks (they do not look at it).
    for (const options of [{}, { strict: true }, { fairChecks: true }]) expect(validateItem(JSON.parse(text), options).errors).toEqual([notAnItem(what)]);
  });

  it("with stac, a STAC Item that describes no model is still checked as one; anything else is not", () => {
    const imagery = { type: "Feature", stac_version: "1.1.0", id: "scene", properties: { datetime: "2025-01-01T00:00:00Z" }, assets: {} };
    expect(validateItem(imagery, { stac: true }).errors.map((issue) => `${issue.rule} ${issue.path}`)).toEqual([
      "not-a-base-model-item ",
      "stac-links /links",
      "stac-core /geometry",
    ]);
    const dataset = validateItem(JSON.parse(read("fixtures/not-items/dataset-item.json")), { stac: true });
    expect(dataset.errors.map((issue) => issue.rule)).toEqual(["not-a-base-model-item"]);
    // fAIr's dataset schema is not bundled: STAC says so, as for any such extension.
    expect(dataset.warnings.map((issue) => `${issue.rule} ${issue.path}`)).toEqual(["stac-extension-unknown /stac_extensions/1"]);
    for (const file of ["package.json", "fixtures/not-items/stac-collection.json"]) {
      expect(validateItem(JSON.parse(read(file)), { stac: true })).toMatchObject({ errors: [{ rule: "not-a-base-model-item" }], warnings: [] });
    }
  });

  it("a GeoJSON file of buildings: one error for the file, not one per feature", () => {
    const text = read("fixtures/not-items/buildings.json");
    const items = validateDocumentText(text);
    expect(items).toHaveLength(1);
    expect(items[0]).toMatchObject({ index: 0, pointer: "", line: 1, valid: false, warnings: [] });
    expect(errorsOf(items[0]!.errors)).toEqual([
      {
        rule: "not-a-base-model-item",
        path: "",
        message: `not a base model item: found a GeoJSON FeatureCollection of 3 features, none of them a base model item; ${EXPECTED_ITEM}`,
        suggestion: undefined,
        actual: "a GeoJSON FeatureCollection of 3 features, none of them a base model item",
      },
    ]);
  });

  it("a collection with a base model item among other features: each feature on its own", () => {
    const features = [JSON.parse(minimal), { type: "Feature", geometry: null, properties: { building: "yes" } }];
    const items = validateDocumentText(JSON.stringify({ type: "FeatureCollection", features }, null, 2));
    expect(items.map((item) => [item.pointer, item.valid, item.errors.map((issue) => issue.rule)])).toEqual([
      ["/features/0", true, []],
      ["/features/1", false, ["not-a-base-model-item"]],
    ]);
  });

  it.each([
    ["lists the schema identifier", (item: any) => ({ ...item, properties: {}, assets: {} })],
    ["lists a near miss of the identifier", (item: any) => ({ ...item, stac_extensions: [SCHEMA_URL.replace("v1.0.0", "v1.0.1")], properties: {}, assets: {} })],
    ["has one mlm: property", (item: any) => ({ ...item, stac_extensions: [], properties: { "mlm:name": "unet" }, assets: {} })],
    ["has fair:split_spec", (item: any) => ({ ...item, stac_extensions: [], properties: { "fair:split_spec": {} }, assets: {} })],
    ["has the asset mlm:training", (item: any) => ({ ...item, stac_extensions: [], properties: {}, assets: { "mlm:training": { href: "x" } } })],
    ["has mlm: members at its top level", (item: any) => ({ type: "Feature", "mlm:name": "unet", "mlm:framework": "PyTorch" })],
  ])("an object that %s is meant as an item: every error in detail", (_label, make) => {
    const result = validateItem(make(JSON.parse(minimal)));
    expect(result.valid).toBe(false);
    expect(result.errors.map((issue) => issue.rule)).not.toContain("not-a-base-model-item");
    expect(result.errors.length).toBeGreaterThan(1);
  });

  it("a full base model item that lists the dataset schema instead is still told what to fix in detail", () => {
    const result = validateItem(JSON.parse(read("fixtures/invalid/schema-url-dataset-schema.json")));
    expect(result.errors.map((issue) => `${issue.rule} ${issue.path}`)).toEqual(["schema-url /stac_extensions"]);
  });

  it("a value that is no object at all stays a type error", () => {
    expect(validateItem([]).errors.map((issue) => issue.rule)).toEqual(["type"]);
  });
});
