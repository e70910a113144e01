/**
 * The library's rules, fairChecks and profile options: what they accept and refuse, what a result
 * says about the rule set that judged it, and the messages of the rules the sets add, on the
 * project's fixtures (fixtures/rules/).
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { createValidator, validateItem, validateItemText, type Issue, type ValidatorOptions } from "../../../src/index.js";
import type { EditableItem } from "../../support/json-edit.js";

const FOLDER = path.resolve(__dirname, "../../../fixtures/rules");
const text = (file: string) => readFileSync(path.join(FOLDER, file), "utf8");
const item = (file: string) => JSON.parse(text(file)) as EditableItem;
const V110 = "https://hotosm.github.io/fAIr-models/schemas/v1.1.0/base-model/schema.json";

/** The one issue of a fixture under these options. */
function only(file: string, options: ValidatorOptions): Issue {
  const { errors, warnings } = validateItemText(text(file), options);
  const issues = [...errors, ...warnings];
  expect(issues.map((issue) => issue.message)).toHaveLength(1);
  return issues[0]!;
}

describe("options", () => {
  it("refuse what they do not know, saying what they take", () => {
    expect(() => validateItem({}, { rules: "v1.2.0" as never })).toThrow(new TypeError('rules must be one of "v1.0.0", "v1.0.0-current", "v1.1.0", "auto"; found a string ("v1.2.0")'));
    expect(() => validateItem({}, { fairChecks: "yes" as never })).toThrow(new TypeError('fairChecks must be a boolean; found a string ("yes")'));
    expect(() => validateItem({}, { profile: "fair" as never })).toThrow(new TypeError('profile must be "fair-ci"; found a string ("fair")'));
    expect(() => validateItem({}, { rules: "auto", schemaUrl: "https://example.org/base-model/schema.json" })).toThrow(/rules "auto" picks the rule set by fAIr's identifiers/);
  });

  it("name the rule set in results only when rules were chosen", () => {
    const current = item("v1.0.0-current/valid.json");
    expect(validateItem(current)).not.toHaveProperty("ruleSet");
    expect(validateItem(current, { rules: "v1.0.0-current" })).toEqual({ valid: true, errors: [], warnings: [], omitted: 0, ruleSet: "v1.0.0-current" });
    expect(validateItem(item("v1.1.0/valid.json"), { rules: "auto" }).ruleSet).toBe("v1.1.0");
    // A text that is not JSON was judged by no set.
    expect(validateItemText("{", { rules: "v1.1.0" })).not.toHaveProperty("ruleSet");
  });

  it("check the rule set's own identifier unless schemaUrl says another", () => {
    expect(createValidator({ rules: "v1.1.0" }).settings.schemaUrl).toBe(V110);
    expect(createValidator({ rules: "v1.0.0-current" }).settings.schemaUrl).toBe("https://hotosm.github.io/fAIr-models/schemas/v1.0.0/base-model/schema.json");
    const other = "https://example.org/base-model/v1.1.0/schema.json";
    const v11 = item("v1.1.0/valid.json");
    v11.stac_extensions = v11.stac_extensions.map((url) => (url === V110 ? other : url));
    expect(validateItem(v11, { rules: "v1.1.0", schemaUrl: other }).valid).toBe(true);
    expect(validateItem(v11, { rules: "v1.1.0" }).errors.map((issue) => issue.rule)).toEqual(["schema-url"]);
  });

  it("apply a rule set under another prefix (compiled at run time, formats included)", () => {
    const svc = JSON.parse(text("v1.0.0-current/provider-url-not-uri.json").replace(/"fair:/g, '"svc:'));
    const result = validateItem(svc, { rules: "v1.0.0-current", prefix: "svc:", maxErrors: Infinity });
    expect(result.errors.map(({ rule, path }) => `${rule} ${path}`)).toEqual(["format /properties/providers/0/url"]);
    expect(createValidator({ rules: "v1.1.0", prefix: "svc:" }).schema().required).toEqual(["type", "stac_extensions", "properties", "assets"]);
    expect(JSON.stringify(createValidator({ rules: "v1.1.0", prefix: "svc:" }).schema())).not.toContain('"fair:');
  });

  it('profile "fair-ci" is stac, rules v1.0.0-current and fairChecks; options beside it win', () => {
    expect(createValidator({ profile: "fair-ci" }).settings).toMatchObject({ stac: true, rules: "v1.0.0-current", fairChecks: true });
    expect(createValidator({ profile: "fair-ci", rules: "v1.1.0", stac: false }).settings).toMatchObject({ stac: false, rules: "v1.1.0", fairChecks: true });
    expect(validateItemText(text("fair-checks/keyword-case.json"), { profile: "fair-ci" }).errors.map((issue) => issue.rule)).toEqual(["fair-keyword"]);
  });

  it("--fair-checks never throws on values of the wrong type, and says so where the schema does not", () => {
    const base = item("v1.0.0-current/valid.json");
    for (const hyperparameters of [[1, 2], "epochs=5", 5, null, { "training.epochs": 5 }]) {
      for (const spec of [[], {}, "x", 0, [null], [["epochs"]], [{ key: 5 }], { epochs: { type: "int" } }]) {
        const changed = structuredClone(base);
        changed.properties["mlm:hyperparameters"] = hyperparameters;
        changed.properties["fair:hyperparameters_spec"] = spec;
        for (const rules of ["v1.0.0", "v1.0.0-current", "v1.1.0"] as const) expect(() => validateItem(changed, { rules, fairChecks: true })).not.toThrow();
      }
    }
    const arrayHyperparameters = structuredClone(base);
    arrayHyperparameters.properties["mlm:hyperparameters"] = [{ key: "training.epochs", value: 120 }];
    expect(validateItem(arrayHyperparameters, { rules: "v1.0.0-current", fairChecks: true }).errors.map(({ rule, path }) => `${rule} ${path}`)).toEqual([
      "type /properties/mlm:hyperparameters",
    ]);
    // Under v1.1.0 the schema itself says the spec must be an array: said once.
    const objectSpec = structuredClone(item("v1.1.0/valid.json"));
    objectSpec.properties["fair:hyperparameters_spec"] = { epochs: { type: "int" } };
    expect(validateItem(objectSpec, { rules: "v1.1.0", fairChecks: true }).errors.map(({ rule, path }) => `${rule} ${path}`)).toEqual([
      "type /properties/fair:hyperparameters_spec",
    ]);
  });
});

describe("messages", () => {
  const current = { rules: "v1.0.0-current" } as const;
  const v11 = { rules: "v1.1.0" } as const;
  const checks = { rules: "v1.0.0-current", fairChecks: true } as const;

  it.each([
    ["v1.0.0-current/checkpoint-href-relative.json", current, 'assets.checkpoint.href must be an http(s) URL, starting with http:// or https://; found a string ("weights.pt")', undefined],
    ["v1.0.0-current/provider-url-not-uri.json", current, 'properties.providers[0].url must be an absolute URI such as "https://www.hotosm.org"; found a string ("mapping.example.org")', undefined],
    ["v1.0.0-current/epochs-zero.json", current, 'properties.mlm:hyperparameters["training.epochs"] must be at least 1; found a number (0)', undefined],
    ["v1.0.0-current/confidence-above-one.json", current, 'properties.mlm:hyperparameters["inference.confidence_threshold"] must be at most 1; found a number (55)', undefined],
    ["v1.0.0-current/learning-rate-zero.json", current, 'properties.mlm:hyperparameters["training.learning_rate"] must be greater than 0; found a number (0)', undefined],
    ["v1.0.0-current/checkpoint-missing.json", current, '"checkpoint" is missing from assets', 'the weights asset is "checkpoint" under these rules; "model" holds only an ONNX export'],
    ["v1.0.0-current/model-artifact-torch.json", current, 'assets.model.mlm:artifact_type must be "onnx"; found a string ("torch.save")', 'the weights asset is "checkpoint" under these rules; "model" holds only an ONNX export'],
    ["v1.1.0/preview-center-three.json", v11, "properties.fair:preview.center must hold at most 2 items; found an array of 3 items", undefined],
    ["v1.1.0/preview-zoom-too-deep.json", v11, "properties.fair:preview.zoom.recommended must be at most 24; found a number (25)", undefined],
    ["v1.1.0/spec-entry-type-case.json", v11, 'properties.fair:hyperparameters_spec[2].type must be one of "int", "float", "str", "bool", "imagery"; found a string ("Float")', 'did you mean "float"?'],
    [
      "v1.1.0/undefined-prefixed.json",
      v11,
      'unknown member "fair:categroy" in properties; the known "fair:" members are fair:metrics_spec, fair:split_spec, fair:category, fair:hyperparameters_spec, fair:preview, fair:coverage, fair:source_imagery, fair:pinned, fair:metrics and fair:output_properties',
      'did you mean "fair:category"?',
    ],
    ["fair-checks/keyword-case.json", checks, 'properties.keywords[0] is not a keyword fAIr\'s catalogue accepts, which are "building", "road", "tree", "water", "landuse", "semantic-segmentation", "instance-segmentation", "object-detection", "classification", "polygon", "line", "point"; found a string ("Building")', 'did you mean "building"?'],
    ["fair-checks/hyperparameter-without-entry.json", checks, 'properties.mlm:hyperparameters["training.loss"] has no entry in fair:hyperparameters_spec (an entry with "key": "loss")', 'add an entry with "key": "loss" to fair:hyperparameters_spec'],
    [
      "fair-checks/hyperparameter-entry-misnamed.json",
      checks,
      'properties.mlm:hyperparameters["training.learning_rate"] has no entry in fair:hyperparameters_spec (an entry with "key": "learning_rate")',
      'fair:hyperparameters_spec has an entry for "learning-rate"; if that is this hyperparameter, its key must be "learning_rate"',
    ],
    ["fair-checks/spec-entry-without-default.json", checks, 'properties.fair:hyperparameters_spec[3] ("optimizer") has no "default" and "description"; fAIr\'s CI needs "type", "default" and "description" in every entry', undefined],
    ["fair-checks/spec-not-array.json", checks, "properties.fair:hyperparameters_spec must be an array of entries, one per hyperparameter; found an object", undefined],
  ] as const)("%s", (file, options, message, suggestion) => {
    const issue = only(file, options);
    expect(issue.message).toBe(message);
    expect(issue.suggestion).toBe(suggestion);
  });

  it("an undefined fair: member is a warning under the v1.0.0 sets and an error under v1.1.0", () => {
    expect(only("v1.0.0-current/unknown-prefixed.json", current).severity).toBe("warning");
    expect(only("v1.1.0/undefined-prefixed.json", v11).severity).toBe("error");
  });
});
