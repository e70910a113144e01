/**
 * Conformance fixtures: every file in fixtures/valid is a valid base model item, and every file
 * in fixtures/invalid breaks one rule of spec section A and gives exactly the errors that
 * fixtures/invalid/expected.json lists for it.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { DEFAULT_SCHEMA_URL, validateItem, validateItemText, type BaseModelItem, type Issue } from "../../src/index.js";

const here = path.dirname(fileURLToPath(import.meta.url));
const VALID = path.resolve(here, "../../fixtures/valid");
const INVALID = path.resolve(here, "../../fixtures/invalid");
const MANIFEST = "expected.json";
const SCHEMA_URL = "https://hotosm.github.io/fAIr-models/schemas/v1.0.0/base-model/schema.json";

type Expected = Array<{ rule: string; path: string }>;

const read = (dir: string, file: string): string => readFileSync(path.join(dir, file), "utf8");
const jsonFiles = (dir: string): string[] => readdirSync(dir).filter((file) => file.endsWith(".json")).sort();

const validFiles = jsonFiles(VALID);
const invalidFiles = jsonFiles(INVALID).filter((file) => file !== MANIFEST);
const manifest = JSON.parse(read(INVALID, MANIFEST)) as Record<string, Expected>;

/** Rule and path of each issue, sorted: the issues compared as a set. */
const keys = (issues: ReadonlyArray<{ rule: string; path: string }>): string[] =>
  issues.map((issue) => `${issue.rule} ${issue.path}`).sort();

/**
 * Warnings an invalid fixture deliberately carries (all others carry none). The misspelt
 * "fair:metric_spec" is the fixture of the unknown-prefixed-property rule: a warning by default,
 * and the real "fair:metrics_spec" is then missing.
 */
const expectedWarnings: Record<string, Expected> = {
  "unknown-prefixed-property-typo.json": [{ rule: "unknown-prefixed-property", path: "/properties/fair:metric_spec" }],
};

/** 1-based line and column of the first occurrence of `needle` at or after line `fromLine`. */
function positionOf(text: string, needle: string, fromLine = 1): { line: number; column: number } {
  const lines = text.split("\n");
  for (let index = fromLine - 1; index < lines.length; index++) {
    const column = lines[index]!.indexOf(needle);
    if (column !== -1) return { line: index + 1, column: column + 1 };
  }
  throw new Error(`${JSON.stringify(needle)} not found after line ${fromLine}`);
}

function only(issues: Issue[]): Issue {
  expect(issues).toHaveLength(1);
  return issues[0]!;
}

describe("fixture files", () => {
  it("exist in both folders", () => {
    expect(validFiles.length).toBeGreaterThanOrEqual(5);
    expect(invalidFiles.length).toBeGreaterThanOrEqual(100);
  });

  it.each([...validFiles.map((file) => ["valid", file]), ...invalidFiles.map((file) => ["invalid", file]), ["invalid", MANIFEST]])(
    "fixtures/%s/%s is pretty-printed JSON with a 2-space indent and a final newline",
    (folder, file) => {
      const text = read(folder === "valid" ? VALID : INVALID, file!);
      expect(text).toBe(`${JSON.stringify(JSON.parse(text), null, 2)}\n`);
    },
  );

  it("include a realistic item of about 10 KB for benchmarks", () => {
    const text = read(VALID, "realistic-segmentation.json");
    expect(text.length).toBeGreaterThan(9_000);
    expect(text.length).toBeLessThan(20_000);
    const properties = JSON.parse(text).properties;
    expect(properties["mlm:input"].length).toBeGreaterThan(1);
    expect(properties["mlm:output"].length).toBeGreaterThan(1);
    expect(Object.keys(properties["mlm:hyperparameters"]).length).toBeGreaterThan(10);
  });

  it("the manifest lists every invalid fixture, and only those", () => {
    expect(Object.keys(manifest).sort()).toEqual(invalidFiles);
    for (const [file, issues] of Object.entries(manifest)) {
      expect(issues.length, file).toBeGreaterThan(0);
      for (const issue of issues) expect(Object.keys(issue).sort(), file).toEqual(["path", "rule"]);
    }
  });
});

describe("valid fixtures", () => {
  it.each(validFiles)("%s is valid, with no error and no warning", (file) => {
    const text = read(VALID, file);
    const result = validateItem(JSON.parse(text));
    expect(result).toEqual({ valid: true, errors: [], warnings: [], omitted: 0 });
    expect(validateItemText(text)).toEqual({ valid: true, errors: [], warnings: [], omitted: 0 });
    expect(validateItem(JSON.parse(text), { strict: true }).valid).toBe(true);
  });

  // The boundary cases the valid fixtures must hold between them (so that nobody edits them away).
  const items = validFiles.map((file) => JSON.parse(read(VALID, file)) as BaseModelItem);
  const all = <T>(pick: (item: BaseModelItem) => T[]): T[] => items.flatMap(pick);
  const expressions = all((item) => [
    ...item.properties["mlm:input"].map((input) => input.pre_processing_function.expression),
    ...item.properties["mlm:output"].map((output) => output.post_processing_function.expression),
  ]);
  const splitSpecs = all((item) => [item.properties["fair:split_spec"]]);

  it("cover default_ratio 0.5 and values close to both bounds", () => {
    const ratios = splitSpecs.map((spec) => spec.default_ratio);
    expect(ratios).toEqual(expect.arrayContaining([0.5, 0.0001, 0.9999]));
  });

  it("cover seeds 0 and negative", () => {
    const seeds = splitSpecs.map((spec) => spec.seed as number);
    expect(seeds).toContain(0);
    expect(seeds.some((seed) => seed < 0)).toBe(true);
  });

  it("cover mlm:pretrained_source null, a string, and absent", () => {
    const sources = items.map((item) => ("mlm:pretrained_source" in item.properties ? item.properties["mlm:pretrained_source"] : "absent"));
    expect(sources).toContain(null);
    expect(sources).toContain("absent");
    expect(sources.some((source) => typeof source === "string" && source !== "absent")).toBe(true);
  });

  it("cover an empty classification:classes", () => {
    const classes = all((item) => item.properties["mlm:output"].map((output) => output["classification:classes"]));
    expect(classes).toContainEqual([]);
  });

  it("cover expressions of every JSON type", () => {
    const kinds = new Set(expressions.map((value) => (value === null ? "null" : Array.isArray(value) ? "array" : typeof value)));
    expect([...kinds].sort()).toEqual(["array", "boolean", "null", "number", "object", "string"]);
  });

  it("cover extra members, prefixed or not, at every level", () => {
    const detection = items[validFiles.indexOf("pytorch-detection.json")]!;
    expect(detection.properties["mlm:accelerator"]).toBe("cuda");
    expect(detection.custom).toBeTypeOf("object");
    expect(detection.properties.custom).toBeTypeOf("object");
    expect(detection.properties["mlm:input"][0]!.pre_processing_function.custom).toBeTypeOf("object");
    expect(detection.properties["fair:split_spec"].custom).toBeTypeOf("object");
    expect(detection.assets["mlm:inference"].custom).toBeTypeOf("object");
  });

  it("cover the optional asset members, present and absent", () => {
    const artifactTypes = items.map((item) => item.assets.model["mlm:artifact_type"]);
    const entrypoints = items.map((item) => item.assets["source-code"]["mlm:entrypoint"]);
    expect(artifactTypes).toContain(undefined);
    expect(entrypoints).toContain(undefined);
    expect(new Set(artifactTypes.filter(Boolean)).size).toBeGreaterThanOrEqual(4);
    expect(entrypoints.filter(Boolean).length).toBeGreaterThanOrEqual(3);
  });

  it("cover both frameworks, every task and every licence", () => {
    expect(new Set(items.map((item) => item.properties["mlm:framework"]))).toEqual(new Set(["PyTorch", "TensorFlow"]));
    expect(new Set(all((item) => item.properties["mlm:tasks"]))).toEqual(
      new Set(["semantic-segmentation", "instance-segmentation", "object-detection", "classification"]),
    );
    expect(new Set(items.map((item) => item.properties.license))).toEqual(new Set(["AGPL-3.0-only", "MIT", "Apache-2.0", "BSD-3-Clause"]));
  });
});

describe("invalid fixtures", () => {
  it.each(invalidFiles)("%s gives exactly the expected errors", (file) => {
    const text = read(INVALID, file);
    const expected = keys(manifest[file] ?? []);
    const result = validateItem(JSON.parse(text));
    expect(result.valid).toBe(false);
    expect(keys(result.errors)).toEqual(expected);
    expect(result.errors.every((issue) => issue.severity === "error")).toBe(true);
    expect(keys(result.warnings)).toEqual(keys(expectedWarnings[file] ?? []));
    expect(result.omitted).toBe(0);

    // The same from text, now with a position on every issue.
    const fromText = validateItemText(text);
    expect(keys(fromText.errors)).toEqual(expected);
    expect(keys(fromText.warnings)).toEqual(keys(expectedWarnings[file] ?? []));
    for (const issue of [...fromText.errors, ...fromText.warnings]) {
      expect(issue.line, `${file} ${issue.path}`).toBeGreaterThanOrEqual(1);
      expect(issue.column, `${file} ${issue.path}`).toBeGreaterThanOrEqual(1);
    }
  });

  it("break exactly one rule each (one error, or one error plus the typo's warning)", () => {
    for (const [file, issues] of Object.entries(manifest)) expect(issues, file).toHaveLength(1);
  });

  const expectedPairs = new Set(Object.values(manifest).flatMap((issues) => keys(issues)));
  const expectCovered = (rule: string, paths: string[]) => {
    for (const pointer of paths) expect(expectedPairs.has(`${rule} ${pointer}`), `${rule} ${pointer}`).toBe(true);
  };

  it("cover every rule of spec section A", () => {
    const rules = new Set(Object.values(manifest).flatMap((issues) => issues.map((issue) => issue.rule)));
    expect([...rules].sort()).toEqual(["const", "enum", "exclusive-range", "min-items", "min-length", "required", "schema-url", "type"]);
    expect(Object.values(expectedWarnings).flat().map((issue) => issue.rule)).toContain("unknown-prefixed-property");
  });

  it("cover every required member at every level", () => {
    const P = "/properties";
    expectCovered("required", [
      "/type",
      "/stac_extensions",
      "/properties",
      "/assets",
      ...[
        "title",
        "description",
        "mlm:name",
        "mlm:architecture",
        "mlm:tasks",
        "mlm:framework",
        "mlm:framework_version",
        "mlm:pretrained",
        "mlm:input",
        "mlm:output",
        "mlm:hyperparameters",
        "keywords",
        "version",
        "license",
        "fair:metrics_spec",
        "fair:split_spec",
      ].map((name) => `${P}/${name}`),
      ...["strategy", "default_ratio", "seed", "description"].map((name) => `${P}/fair:split_spec/${name}`),
      `${P}/mlm:input/0/pre_processing_function`,
      `${P}/mlm:input/0/pre_processing_function/format`,
      `${P}/mlm:input/0/pre_processing_function/expression`,
      `${P}/mlm:output/0/post_processing_function`,
      `${P}/mlm:output/0/post_processing_function/format`,
      `${P}/mlm:output/0/post_processing_function/expression`,
      `${P}/mlm:output/0/classification:classes`,
      `${P}/mlm:output/0/classification:classes/1/name`,
      `${P}/fair:metrics_spec/1/name`,
      ...["model", "source-code", "mlm:training", "mlm:inference"].flatMap((asset) => [`/assets/${asset}`, `/assets/${asset}/href`]),
    ]);
  });

  it("cover every enum, every minimum length and every minimum item count", () => {
    expectCovered("enum", ["/properties/mlm:tasks/0", "/properties/mlm:framework", "/properties/license", "/assets/model/mlm:artifact_type"]);
    expectCovered(
      "min-items",
      ["mlm:tasks", "mlm:input", "mlm:output", "keywords", "fair:metrics_spec"].map((name) => `/properties/${name}`),
    );
    expectCovered("min-length", [
      ...["mlm:name", "mlm:architecture", "mlm:framework_version", "version"].map((name) => `/properties/${name}`),
      "/properties/fair:metrics_spec/0/name",
      "/properties/fair:split_spec/strategy",
      ...["model", "source-code", "mlm:training", "mlm:inference"].map((asset) => `/assets/${asset}/href`),
      "/assets/source-code/mlm:entrypoint",
    ]);
    expectCovered("exclusive-range", ["/properties/fair:split_spec/default_ratio"]);
    expectCovered("schema-url", ["/stac_extensions"]);
    expectCovered("const", ["/type"]);
  });

  it("the misspelt prefixed property is an error too with strict", () => {
    const item = JSON.parse(read(INVALID, "unknown-prefixed-property-typo.json"));
    const result = validateItem(item, { strict: true });
    expect(keys(result.errors)).toEqual(["required /properties/fair:metrics_spec", "unknown-prefixed-property /properties/fair:metric_spec"]);
    expect(result.warnings).toEqual([]);
  });
});

describe("messages", () => {
  const errorOf = (file: string): Issue => only(validateItem(JSON.parse(read(INVALID, file))).errors);

  it("a missing member names the object it is missing from", () => {
    expect(errorOf("missing-properties-mlm-name.json")).toEqual({
      rule: "required",
      severity: "error",
      path: "/properties/mlm:name",
      message: '"mlm:name" is missing from properties',
      expected: "mlm:name",
    });
    expect(errorOf("missing-type.json").message).toBe('"type" is missing from the item');
    expect(errorOf("missing-assets-model-href.json").message).toBe('"href" is missing from assets.model');
    expect(errorOf("missing-split-spec-default-ratio.json").message).toBe('"default_ratio" is missing from properties.fair:split_spec');
    expect(errorOf("missing-class-name.json").message).toBe('"name" is missing from properties.mlm:output[0].classification:classes[1]');
    expect(errorOf("missing-input-expression.json").message).toBe(
      '"expression" is missing from properties.mlm:input[0].pre_processing_function',
    );
  });

  it("an enum error lists the allowed values and suggests the value meant", () => {
    expect(errorOf("enum-mlm-framework-case.json")).toEqual({
      rule: "enum",
      severity: "error",
      path: "/properties/mlm:framework",
      message: 'properties.mlm:framework must be one of "PyTorch", "TensorFlow"; found a string ("pytorch")',
      expected: ["PyTorch", "TensorFlow"],
      actual: "pytorch",
      suggestion: 'did you mean "PyTorch"?',
    });
    const far = errorOf("enum-mlm-framework.json");
    expect(far.message).toBe('properties.mlm:framework must be one of "PyTorch", "TensorFlow"; found a string ("JAX")');
    expect(far.suggestion).toBeUndefined();
    expect(errorOf("enum-license-case.json").suggestion).toBe('did you mean "AGPL-3.0-only"?');
    expect(errorOf("enum-artifact-type-case.json").suggestion).toBe('did you mean "onnx"?');
    expect(errorOf("enum-mlm-tasks-item-case.json")).toMatchObject({
      path: "/properties/mlm:tasks/1",
      message:
        'properties.mlm:tasks[1] must be one of "semantic-segmentation", "instance-segmentation", "object-detection", "classification"; found a string ("Object-Detection")',
      suggestion: 'did you mean "object-detection"?',
    });
    expect(errorOf("enum-license.json").message).toBe(
      'properties.license must be one of "AGPL-3.0-only", "MIT", "Apache-2.0", "BSD-3-Clause"; found a string ("GPL-3.0-or-later")',
    );
  });

  it("an exclusive-range error says the bound", () => {
    expect(errorOf("default-ratio-zero.json")).toEqual({
      rule: "exclusive-range",
      severity: "error",
      path: "/properties/fair:split_spec/default_ratio",
      message: "properties.fair:split_spec.default_ratio must be greater than 0; found a number (0)",
      expected: "greater than 0",
      actual: 0,
    });
    expect(errorOf("default-ratio-one.json").message).toBe("properties.fair:split_spec.default_ratio must be less than 1; found a number (1)");
    expect(errorOf("default-ratio-negative.json").message).toBe(
      "properties.fair:split_spec.default_ratio must be greater than 0; found a number (-0.5)",
    );
    expect(errorOf("default-ratio-above-one.json").message).toBe("properties.fair:split_spec.default_ratio must be less than 1; found a number (1.5)");
  });

  it("a schema-url error names the identifier and suggests the fix", () => {
    expect(SCHEMA_URL).toBe(DEFAULT_SCHEMA_URL);
    expect(errorOf("schema-url-empty.json")).toEqual({
      rule: "schema-url",
      severity: "error",
      path: "/stac_extensions",
      message: `stac_extensions must include the base model schema "${SCHEMA_URL}"; found an empty array`,
      expected: SCHEMA_URL,
      actual: "[]",
      suggestion: `add "${SCHEMA_URL}" to stac_extensions`,
    });
    const nearMiss = errorOf("schema-url-near-miss-version.json");
    expect(nearMiss.message).toBe(`stac_extensions must include the base model schema "${SCHEMA_URL}"; found an array of 2 items`);
    expect(nearMiss.suggestion).toBe(`replace "${SCHEMA_URL.replace("v1.0.0", "v1.0.1")}" with "${SCHEMA_URL}"`);
    expect(errorOf("schema-url-missing.json").suggestion).toBe(`add "${SCHEMA_URL}" to stac_extensions`);
  });

  it("const, type, min-length and min-items errors name the member and the value found", () => {
    expect(errorOf("const-type-lowercase.json")).toMatchObject({
      message: 'type must be "Feature"; found a string ("feature")',
      expected: "Feature",
      actual: "feature",
      suggestion: 'did you mean "Feature"?',
    });
    expect(errorOf("type-seed-fraction.json")).toMatchObject({
      message: "properties.fair:split_spec.seed must be an integer; found a number (1.5)",
      expected: "integer",
      actual: 1.5,
    });
    expect(errorOf("type-seed-string.json").message).toBe('properties.fair:split_spec.seed must be an integer; found a string ("42")');
    expect(errorOf("type-mlm-pretrained-string.json").message).toBe('properties.mlm:pretrained must be a boolean; found a string ("true")');
    expect(errorOf("type-mlm-pretrained-source-number.json")).toMatchObject({
      message: "properties.mlm:pretrained_source must be a string or null; found a number (5)",
      expected: ["string", "null"],
    });
    expect(errorOf("type-stac-extensions-string.json").message).toBe(`stac_extensions must be an array; found a string ("${SCHEMA_URL.slice(0, 58)}…)`);
    expect(errorOf("type-mlm-hyperparameters-array.json").message).toBe("properties.mlm:hyperparameters must be an object; found an array of 1 item");
    expect(errorOf("min-length-mlm-name.json")).toMatchObject({ message: "properties.mlm:name must not be empty", actual: "" });
    expect(errorOf("min-length-assets-source-code-href.json").message).toBe("assets.source-code.href must not be empty");
    expect(errorOf("min-items-keywords.json").message).toBe("properties.keywords must hold at least 1 item; found an empty array");
  });

  it("an unknown prefixed property says what the schema defines and suggests the name meant", () => {
    const result = validateItem(JSON.parse(read(INVALID, "unknown-prefixed-property-typo.json")));
    expect(only(result.warnings)).toEqual({
      rule: "unknown-prefixed-property",
      severity: "warning",
      path: "/properties/fair:metric_spec",
      message:
        'unknown member "fair:metric_spec" in properties; the known "fair:" members are fair:metrics_spec and fair:split_spec',
      expected: ["fair:metrics_spec", "fair:split_spec"],
      actual: "fair:metric_spec",
      suggestion: 'did you mean "fair:metrics_spec"?',
    });
  });
});

describe("positions from validateItemText", () => {
  const locate = (file: string) => {
    const text = read(INVALID, file);
    const result = validateItemText(text);
    return { text, result };
  };

  it("an enum error points at the value", () => {
    const { text, result } = locate("enum-mlm-framework-case.json");
    const key = positionOf(text, '"mlm:framework": "pytorch"');
    expect(only(result.errors)).toMatchObject({
      line: key.line,
      column: key.column + '"mlm:framework": '.length,
      endLine: key.line,
      endColumn: key.column + '"mlm:framework": "pytorch"'.length,
    });
  });

  it("a missing member points at the name of the object it is missing from", () => {
    const { text, result } = locate("missing-properties-mlm-name.json");
    const at = positionOf(text, '"properties": {');
    expect(only(result.errors)).toMatchObject({ line: at.line, column: at.column, endLine: at.line, endColumn: at.column + '"properties"'.length });

    const nested = locate("missing-split-spec-seed.json");
    const split = positionOf(nested.text, '"fair:split_spec": {');
    expect(only(nested.result.errors)).toMatchObject({ line: split.line, column: split.column });
  });

  it("an empty href points at the href of the right asset", () => {
    const { text, result } = locate("min-length-assets-mlm-training-href.json");
    const asset = positionOf(text, '"mlm:training": {');
    const href = positionOf(text, '"href": ""', asset.line);
    expect(href.line).toBe(asset.line + 1);
    expect(only(result.errors)).toMatchObject({ line: href.line, column: href.column + '"href": '.length });
  });

  it("the default ratio, the tasks item and the stac_extensions array are found", () => {
    const ratio = locate("default-ratio-above-one.json");
    const at = positionOf(ratio.text, '"default_ratio": 1.5');
    expect(only(ratio.result.errors)).toMatchObject({ line: at.line, column: at.column + '"default_ratio": '.length });

    const task = locate("enum-mlm-tasks-item-case.json");
    const item = positionOf(task.text, '"Object-Detection"');
    expect(only(task.result.errors)).toMatchObject({ line: item.line, column: item.column });

    const extensions = locate("schema-url-near-miss-version.json");
    const array = positionOf(extensions.text, '"stac_extensions": [');
    expect(only(extensions.result.errors)).toMatchObject({ line: array.line, column: array.column + '"stac_extensions": '.length });
  });

  it("an unknown prefixed property points at its name", () => {
    const { text, result } = locate("unknown-prefixed-property-typo.json");
    const at = positionOf(text, '"fair:metric_spec"');
    expect(only(result.warnings)).toMatchObject({
      line: at.line,
      column: at.column,
      endLine: at.line,
      endColumn: at.column + '"fair:metric_spec"'.length,
    });
  });
});
