/**
 * A file that is no base model item at all gets one line saying what it is, as the real CLI
 * prints it (text and JSON, with and without --stac).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { validateItemText, type ValidatorOptions } from "../../src/index.js";
import { basemodel, jsonIssues, ROOT } from "./helpers.js";

const SCHEMA_URL = "https://hotosm.github.io/fAIr-models/schemas/v1.0.0/base-model/schema.json";
const EXPECTED_ITEM = `a base model item is a STAC Item whose stac_extensions lists "${SCHEMA_URL}" and whose properties describe a model with mlm: members`;

/** The library's issues for the same file (test/validator/item/not-an-item.test.ts says what they are). */
const libraryIssues = (file: string, options: ValidatorOptions = {}) => {
  const { errors, warnings } = validateItemText(readFileSync(join(ROOT, file)), options);
  return [...errors, ...warnings];
};

describe("a file that is no base model item: one line saying what it is", () => {
  const DATASET = "https://hotosm.github.io/fAIr-models/schemas/v1.0.0/dataset/schema.json";

  /** What the dataset item's line says after what it is: the flag that checks it. */
  const FLAG = " (--fair-checks or --profile fair-ci checks it by fAIr's dataset rules, as fAIr's CI does; in the library, fairChecks: true)";

  const oneLine = (file: string, what: string, rest = `; ${EXPECTED_ITEM}`) =>
    `${file}\n  ${file}:1:1  error  not-a-base-model-item  not a base model item: found ${what}${rest}\n    > 1 | {\n        | ^\n\n`;

  it.each([
    ["a fAIr dataset item", "fixtures/not-items/dataset-item.json", `a fAIr dataset item (its stac_extensions lists "${DATASET}")`, FLAG],
    ["a STAC Collection", "fixtures/not-items/stac-collection.json", "a STAC Collection", `; ${EXPECTED_ITEM}`],
    ["package.json", "package.json", "an npm package.json", `; ${EXPECTED_ITEM}`],
    ["a GeoJSON file of buildings", "fixtures/not-items/buildings.json", "a GeoJSON FeatureCollection of 3 features, none of them a base model item", `; ${EXPECTED_ITEM}`],
  ])("%s, in text and json", async (_label, file, what, rest) => {
    const run = await basemodel(["validate", file, "--no-color"]);
    expect(run.code).toBe(1);
    expect(run.stdout).toBe(`${oneLine(file, what, rest)}1 file, 1 item: 0 valid, 1 invalid; 1 error, 0 warnings; rules v1.0.0 (${/\((\d+ ms)\)\n$/.exec(run.stdout)?.[1]})\n`);
    const json = await basemodel(["validate", file, "--format", "json"]);
    const issues = jsonIssues(json.stdout);
    expect(issues).toEqual(libraryIssues(file));
    expect(issues).toMatchObject([{ rule: "not-a-base-model-item", actual: what, line: 1, column: 1 }]);
  });

  it.each([
    ["a STAC Collection", "fixtures/not-items/stac-collection.json", "a STAC Collection"],
    ["package.json", "package.json", "an npm package.json"],
  ])("%s with --stac and --profile fair-ci: the same one line", async (_label, file, what) => {
    for (const flags of [["--stac"], ["--profile", "fair-ci"]]) {
      const run = await basemodel(["validate", file, "--no-color", ...flags]);
      expect(run.stdout.startsWith(`${oneLine(file, what)}1 file, 1 item: 0 valid, 1 invalid; 1 error, 0 warnings;`)).toBe(true);
    }
  });

  it("a dataset item with --stac: the one line, and nothing of fAIr's dataset schema being an extension --stac cannot check", async () => {
    const json = await basemodel(["validate", "fixtures/not-items/dataset-item.json", "--stac", "--format", "json"]);
    const issues = jsonIssues(json.stdout);
    expect(issues).toEqual(libraryIssues("fixtures/not-items/dataset-item.json", { stac: true }));
    expect(issues.map((issue) => `${issue.rule} ${issue.path}`)).toEqual(["not-a-base-model-item "]);
  });

  it("a dataset item with --profile fair-ci: checked as fAIr's CI checks it, judged by no rule set of base model items", async () => {
    const valid = await basemodel(["validate", "fixtures/datasets/valid.json", "--profile", "fair-ci", "--no-color"]);
    expect(valid.code).toBe(0);
    expect(valid.stdout).toMatch(/^fixtures\/datasets\/valid\.json {2}ok\n1 file, 1 item: 1 valid, 0 invalid; 0 errors, 0 warnings \(\d+ ms\)\n$/);
    const json = await basemodel(["validate", "fixtures/not-items/dataset-item.json", "--profile", "fair-ci", "--format", "json"]);
    expect(json.code).toBe(1);
    const report = JSON.parse(json.stdout);
    expect(report.files[0].items[0].ruleSet).toBeUndefined();
    expect(report.summary.ruleSets).toBeUndefined();
    expect(jsonIssues(json.stdout)).toEqual(libraryIssues("fixtures/not-items/dataset-item.json", { profile: "fair-ci" }));
    expect(jsonIssues(json.stdout).map((issue) => `${issue.rule} ${issue.path}`)).toEqual(["required /properties/label:classes", "required /properties/deprecated", "required /properties/providers"]);
  });

  it("an item that lacks many members but lists the schema still gets each error", async () => {
    const run = await basemodel(["validate", "fixtures/invalid/missing-properties.json", "--format", "json"]);
    expect(jsonIssues(run.stdout).map((issue) => `${issue.rule} ${issue.path}`)).toEqual(["required /properties"]);
  });
});
