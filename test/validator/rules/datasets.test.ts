/**
 * fAIr's dataset items (their stac_extensions lists fAIr's dataset schema) with --fair-checks:
 * checked by fAIr's dataset rules as fAIr's CI checks them. Each file of fixtures/datasets/ gives
 * exactly the issues fixtures/datasets/expected.json lists, at their positions; the same with
 * --profile fair-ci, which adds core STAC and the extensions they declare. Without --fair-checks
 * a dataset item gets one error saying what it is and which flag checks it. (That our rules give
 * fAIr's own verdict: fair-ci-verdict.test.ts, on fAIr's published schema.)
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { validateItem, validateItemText, type Issue, type ValidatorOptions } from "../../../src/index.js";

const FOLDER = path.resolve(__dirname, "../../../fixtures/datasets");
const expected = (JSON.parse(readFileSync(path.join(FOLDER, "expected.json"), "utf8")) as { issues: Record<string, string[]> }).issues;
const files = readdirSync(FOLDER).filter((name) => name.endsWith(".json") && name !== "expected.json").sort();
const read = (file: string) => readFileSync(path.join(FOLDER, file), "utf8");
const DATASET_URL = "https://hotosm.github.io/fAIr-models/schemas/v1.0.0/dataset/schema.json";
const MODEL_URL = "https://hotosm.github.io/fAIr-models/schemas/v1.0.0/base-model/schema.json";

const byPosition = (a: Issue, b: Issue) => a.line! - b.line! || a.column! - b.column!;
const shown = (issue: Issue) => `${issue.severity} ${issue.rule} ${issue.path} ${issue.line}:${issue.column}`;
const issuesOf = (file: string, options: ValidatorOptions) => {
  const result = validateItemText(read(file), { ...options, maxErrors: Infinity });
  return { result, issues: [...result.errors.sort(byPosition), ...result.warnings.sort(byPosition)].map(shown) };
};

describe("fixtures/datasets with --fair-checks", () => {
  it("lists every file, one of them valid, and a fault of every rule the dataset rules report", () => {
    expect(Object.keys(expected).sort()).toEqual(files);
    expect(expected["valid.json"]).toEqual([]);
    const rules = new Set(Object.values(expected).flat().map((line) => line.split(" ")[1]));
    expect([...rules].sort()).toEqual(["enum", "fair-keyword", "format", "min-items", "min-length", "range", "required", "schema-url", "type"]);
  });

  it.each(files)("%s gives exactly the listed issues, with every rule set, and with --profile fair-ci", (file) => {
    for (const options of [{ fairChecks: true }, { fairChecks: true, rules: "v1.0.0-current" }, { fairChecks: true, rules: "v1.1.0" }, { fairChecks: true, rules: "auto" }, { profile: "fair-ci" }] as ValidatorOptions[]) {
      const { result, issues } = issuesOf(file, options);
      expect(issues).toEqual(expected[file]);
      expect(result.valid).toBe(issues.length === 0);
      // No rule set of base model items judged it.
      expect(result.ruleSet).toBeUndefined();
    }
  });

  it("a near miss of a required member is named, and the dataset identifier that is not fAIr's gets the one to write", () => {
    const misspelt = validateItemText(read("deprecated-misspelt.json"), { fairChecks: true }).errors[0]!;
    expect(misspelt).toMatchObject({ message: '"deprecated" is missing from properties; found "depreciated"', suggestion: 'did you mean "deprecated"?' });
    const short = validateItemText(read("identifier-short.json"), { profile: "fair-ci" });
    expect(short.errors).toMatchObject([
      {
        message: 'stac_extensions[3] is "https://hotosm.github.io/fAIr-models/v1.0.0/dataset/schema.json", which is not fAIr\'s dataset schema',
        expected: DATASET_URL,
        suggestion: `replace it with "${DATASET_URL}"`,
      },
    ]);
    // --stac does not also call it an extension it cannot check.
    expect(short.warnings).toEqual([]);
  });

  it("--stac checks it against core STAC and every extension it declares but fAIr's dataset schema", () => {
    const item = JSON.parse(read("valid.json"));
    delete item.properties["label:properties"];
    item.properties.datetime = "2025-01-01";
    const { errors, warnings } = validateItem(item, { profile: "fair-ci" });
    expect(errors.map((issue) => `${issue.rule} ${issue.path}`).sort()).toEqual(["stac-core /properties/datetime", "stac-extension /properties/label:properties"]);
    expect(warnings).toEqual([]);
  });
});

describe("a dataset item without --fair-checks", () => {
  it("is one error saying what it is and which flag checks it, whatever its faults", () => {
    for (const file of files) {
      // v1.1.0 defines fair:source_imagery for models too: shared with datasets, it makes no dataset a model.
      for (const options of [{}, { strict: true }, { rules: "v1.0.0-current" }, { rules: "v1.1.0" }] as ValidatorOptions[]) {
        const { errors, warnings } = validateItemText(read(file), options);
        expect(warnings).toEqual([]);
        expect(errors).toHaveLength(1);
        expect(errors[0]).toMatchObject({
          rule: "not-a-base-model-item",
          path: "",
          suggestion: "--fair-checks or --profile fair-ci checks it by fAIr's dataset rules, as fAIr's CI does; in the library, fairChecks: true",
        });
        expect(errors[0]!.message).toMatch(/^not a base model item: found a fAIr dataset item \(its stac_extensions lists "https:\/\/hotosm\.github\.io\/fAIr-models\/(schemas\/)?v1\.0\.0\/dataset\/schema\.json"\)$/);
      }
    }
  });

  it("with --stac, the same one error, and no word of fAIr's dataset schema being an extension --stac cannot check", () => {
    expect(validateItemText(read("valid.json"), { stac: true })).toMatchObject({ errors: [{ rule: "not-a-base-model-item" }], warnings: [] });
    // STAC's own findings stay: the label extension's here.
    const faulty = validateItemText(read("class-name-number.json"), { stac: true });
    expect(faulty.errors.map((issue) => `${issue.rule} ${issue.path}`)).toEqual(["not-a-base-model-item ", "stac-extension /properties/label:classes/0/name"]);
    expect(faulty.warnings).toEqual([]);
  });

  it("an item that lists the base model schema beside the dataset one is a base model item, checked as one", () => {
    const item = JSON.parse(read("valid.json"));
    item.stac_extensions.push(MODEL_URL);
    const { errors } = validateItem(item, { fairChecks: true });
    expect(errors.map((issue) => issue.rule)).not.toContain("not-a-base-model-item");
    expect(errors.map((issue) => `${issue.rule} ${issue.path}`)).toContain("required /properties/mlm:name");
  });
});
