/**
 * The real fAIr catalogue files (AGPL data, read from ../shared, never copied into the repo):
 * the three base model items are valid with one warning, the three dataset items are invalid
 * (and valid with --fair-checks, which checks them by fAIr's dataset rules).
 * Without ../shared these tests skip; fixtures/warning/ covers the same behaviour for the product.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { validateItem, validateItemText, type BaseModelItem, type Issue } from "../../src/index.js";
import type { JsonObject } from "../support/json-edit.js";
import { fairModelsFolder } from "../support/requirements.js";

const FAIR_MODELS = fairModelsFolder();
const withRealItems = describe.skipIf(FAIR_MODELS === undefined);
const SCHEMA_URL = "https://hotosm.github.io/fAIr-models/schemas/v1.0.0/base-model/schema.json";

const MODELS = ["resnet18_classification", "unet_segmentation", "yolo11n_detection"];
const DATASETS = ["buildings-banepa-classification", "buildings-banepa-detection", "buildings-banepa-segmentation"];

/** The file's text; empty where the files are absent (the suites then skip). */
const realText = (...segments: string[]): string => (FAIR_MODELS === undefined ? "" : readFileSync(path.join(FAIR_MODELS, ...segments, "stac-item.json"), "utf8"));
const modelText = (name: string): string => realText("models", name);
const datasetText = (name: string): string => realText("data/sample", name);

const keys = (issues: readonly Issue[]): string[] => issues.map((issue) => `${issue.rule} ${issue.path}`).sort();

/** The item with every member name that starts with "fair:" renamed to start with "svc:" (values are left alone). */
const toSvc = (text: string): string => text.replace(/"fair:([^"]*)"(\s*):/g, '"svc:$1"$2:');

/** 1-based line and column of the first occurrence of `needle`. */
function positionOf(text: string, needle: string): { line: number; column: number } {
  const lines = text.split("\n");
  const index = lines.findIndex((line) => line.includes(needle));
  if (index === -1) throw new Error(`${needle} not found`);
  return { line: index + 1, column: lines[index]!.indexOf(needle) + 1 };
}

withRealItems.each(MODELS)("real base model item %s", (name) => {
  const text = modelText(name);
  const item = () => JSON.parse(text) as BaseModelItem;

  it("is valid, with exactly one warning: the undefined fair:hyperparameters_spec", () => {
    const result = validateItem(item());
    expect(result.valid).toBe(true);
    expect(result.errors).toEqual([]);
    expect(result.omitted).toBe(0);
    expect(result.warnings).toEqual([
      {
        rule: "unknown-prefixed-property",
        severity: "warning",
        path: "/properties/fair:hyperparameters_spec",
        message:
          'unknown member "fair:hyperparameters_spec" in properties; the known "fair:" members are fair:metrics_spec and fair:split_spec',
        expected: ["fair:metrics_spec", "fair:split_spec"],
        actual: "fair:hyperparameters_spec",
      },
    ]);
  });

  it("is invalid with strict, that warning being the one error", () => {
    const result = validateItem(item(), { strict: true });
    expect(result.valid).toBe(false);
    expect(result.warnings).toEqual([]);
    expect(result.errors).toHaveLength(1);
    expect(result.errors[0]).toMatchObject({
      rule: "unknown-prefixed-property",
      severity: "error",
      path: "/properties/fair:hyperparameters_spec",
    });
  });

  it("from text, the warning points at the member name", () => {
    const result = validateItemText(text);
    expect(result.valid).toBe(true);
    const at = positionOf(text, '"fair:hyperparameters_spec"');
    expect(result.warnings).toHaveLength(1);
    expect(result.warnings[0]).toMatchObject({ line: at.line, column: at.column, endLine: at.line, endColumn: at.column + 27 });
  });

  it('validates the same under prefix "svc:" once its "fair:" members are renamed', () => {
    const svcText = toSvc(text);
    expect(svcText).not.toMatch(/"fair:[^"]*"\s*:/);
    expect(svcText).toContain('"key": "fair:'); // values are not member names
    const svcItem = JSON.parse(svcText);
    for (const prefix of ["svc:", "svc"]) {
      const result = validateItem(svcItem, { prefix });
      expect(result.valid).toBe(true);
      expect(result.errors).toEqual([]);
      expect(result.warnings).toHaveLength(1);
      expect(result.warnings[0]).toMatchObject({
        rule: "unknown-prefixed-property",
        path: "/properties/svc:hyperparameters_spec",
        expected: ["svc:metrics_spec", "svc:split_spec"],
      });
      expect(result.warnings[0]!.message).toBe(
        'unknown member "svc:hyperparameters_spec" in properties; the known "svc:" members are svc:metrics_spec and svc:split_spec',
      );
    }
    const strict = validateItem(svcItem, { prefix: "svc:", strict: true });
    expect(keys(strict.errors)).toEqual(["unknown-prefixed-property /properties/svc:hyperparameters_spec"]);
  });

  it('is invalid under prefix "svc:" as written: its fair: members do not count', () => {
    const result = validateItem(item(), { prefix: "svc:" });
    expect(result.valid).toBe(false);
    expect(keys(result.errors)).toEqual(["required /properties/svc:metrics_spec", "required /properties/svc:split_spec"]);
    // fair: is just another foreign prefix under svc:, so its members are allowed silently; but
    // they are the near misses of the two svc: members missing.
    expect(result.warnings).toEqual([]);
    expect(result.errors.map((issue) => `${issue.message} (${issue.suggestion})`).sort()).toEqual([
      '"svc:metrics_spec" is missing from properties; found "fair:metrics_spec" (did you mean "svc:metrics_spec"?)',
      '"svc:split_spec" is missing from properties; found "fair:split_spec" (did you mean "svc:split_spec"?)',
    ]);
  });

  it("the renamed svc: item is invalid under the default fair: prefix", () => {
    const result = validateItem(JSON.parse(toSvc(text)));
    expect(keys(result.errors)).toEqual(["required /properties/fair:metrics_spec", "required /properties/fair:split_spec"]);
    expect(result.warnings).toEqual([]);
  });
});

withRealItems("a custom schemaUrl", () => {
  const CUSTOM = "https://models.example.org/schemas/v2.0.0/base-model/schema.json";
  const text = modelText("unet_segmentation");

  it("is required in stac_extensions: the fAIr identifier alone no longer counts", () => {
    const item = JSON.parse(text);
    expect(item.stac_extensions).toContain(SCHEMA_URL);
    const result = validateItem(item, { schemaUrl: CUSTOM });
    expect(result.valid).toBe(false);
    expect(keys(result.errors)).toEqual(["schema-url /stac_extensions"]);
    expect(result.errors[0]!.message).toBe(`stac_extensions must include the base model schema "${CUSTOM}"; found an array of 6 items`);
    expect(result.errors[0]!.expected).toBe(CUSTOM);
  });

  it("makes the item valid once listed (the fAIr identifier may stay or go)", () => {
    const item = JSON.parse(text);
    item.stac_extensions.push(CUSTOM);
    expect(validateItem(item, { schemaUrl: CUSTOM })).toMatchObject({ valid: true, errors: [] });
    item.stac_extensions = item.stac_extensions.filter((url: string) => url !== SCHEMA_URL);
    expect(validateItem(item, { schemaUrl: CUSTOM })).toMatchObject({ valid: true, errors: [] });
    // ...and the default validator now misses its own identifier.
    expect(keys(validateItem(item).errors)).toEqual(["schema-url /stac_extensions"]);
  });

  it("combines with a custom prefix", () => {
    const item = JSON.parse(toSvc(text));
    item.stac_extensions = [CUSTOM];
    const result = validateItem(item, { schemaUrl: CUSTOM, prefix: "svc:" });
    expect(result.valid).toBe(true);
    expect(keys(result.warnings)).toEqual(["unknown-prefixed-property /properties/svc:hyperparameters_spec"]);
  });
});

withRealItems.each(DATASETS)("real dataset item %s", (name) => {
  const text = datasetText(name);
  const item = () => JSON.parse(text) as JsonObject;
  const DATASET_URL = "https://hotosm.github.io/fAIr-models/schemas/v1.0.0/dataset/schema.json";

  /**
   * A dataset item is a STAC Item, but no base model item: it lists the dataset schema instead of
   * the base model one, and has none of the mlm: properties nor fair:metrics_spec / fair:split_spec.
   * One error says so, and names the flag that checks it, instead of the 17 missing members and
   * values a base model item would lack.
   */
  const EXPECTED = {
    rule: "not-a-base-model-item",
    severity: "error",
    path: "",
    message: `not a base model item: found a fAIr dataset item (its stac_extensions lists "${DATASET_URL}")`,
    expected: "a base model item",
    actual: `a fAIr dataset item (its stac_extensions lists "${DATASET_URL}")`,
    suggestion: "--fair-checks or --profile fair-ci checks it by fAIr's dataset rules, as fAIr's CI does; in the library, fairChecks: true",
  };

  it("is invalid, with one error saying it is a dataset item", () => {
    const result = validateItem(item());
    expect(item().stac_extensions).toContain(DATASET_URL);
    expect(result).toEqual({ valid: false, errors: [EXPECTED], warnings: [], omitted: 0 });
  });

  it("gives the same error from text, at the start of the item", () => {
    const result = validateItemText(text);
    expect(result.errors).toEqual([{ ...EXPECTED, line: 1, column: 1, endLine: text.trimEnd().split("\n").length, endColumn: 2 }]);
  });

  it("gives the same one error with strict and with stac, which checks it as the valid STAC Item it is", () => {
    expect(validateItem(item(), { strict: true }).errors).toEqual([EXPECTED]);
    // fAIr's dataset schema is for fAIr's dataset rules to check, not an extension STAC cannot.
    expect(validateItem(item(), { stac: true })).toEqual({ valid: false, errors: [EXPECTED], warnings: [], omitted: 0 });
  });

  it("is valid with fair-checks and with the profile fair-ci, as fAIr's CI finds it", () => {
    expect(validateItem(item(), { fairChecks: true })).toEqual({ valid: true, errors: [], warnings: [], omitted: 0 });
    expect(validateItemText(text, { profile: "fair-ci" })).toEqual({ valid: true, errors: [], warnings: [], omitted: 0 });
  });
});
