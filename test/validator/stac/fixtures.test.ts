/**
 * --stac on the project's fixtures: fixtures/valid/realistic-segmentation.json is valid STAC
 * (core 1.1.0, MLM 1.5.1, version 1.2.0, classification 2.0.0, file 2.1.0, raster 1.1.0), and
 * each file of fixtures/stac-invalid is it with one fault planted, which gives exactly the issues
 * fixtures/stac-invalid/expected.json lists, at a position, and nothing without --stac.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { rules, validateItem, validateItemText } from "../../../src/index.js";
import type { EditableItem } from "../../support/json-edit.js";

const FIXTURES = path.resolve(__dirname, "../../../fixtures");
const STAC_INVALID = path.join(FIXTURES, "stac-invalid");
const MANIFEST = "expected.json";

const read = (file: string) => readFileSync(file, "utf8");
const faultFiles = readdirSync(STAC_INVALID)
  .filter((file) => file.endsWith(".json") && file !== MANIFEST)
  .sort();
const manifest = JSON.parse(read(path.join(STAC_INVALID, MANIFEST))) as Record<string, Array<{ rule: string; path: string }>>;
const realistic = read(path.join(FIXTURES, "valid/realistic-segmentation.json"));

describe("the realistic fixture", () => {
  it("is valid STAC: core, MLM and every extension it lists, with no warning", () => {
    const item = JSON.parse(realistic) as { stac_extensions: string[] };
    expect(item.stac_extensions).toEqual(
      expect.arrayContaining([
        "https://stac-extensions.github.io/mlm/v1.5.1/schema.json",
        "https://stac-extensions.github.io/version/v1.2.0/schema.json",
        "https://stac-extensions.github.io/classification/v2.0.0/schema.json",
        "https://stac-extensions.github.io/file/v2.1.0/schema.json",
        "https://stac-extensions.github.io/raster/v1.1.0/schema.json",
      ]),
    );
    expect(validateItemText(realistic, { stac: true })).toEqual({ valid: true, errors: [], warnings: [], omitted: 0 });
  });
});

describe("fixtures/stac-invalid", () => {
  it("has a fault for every rule of --stac, and the manifest lists every file", () => {
    expect(Object.keys(manifest).sort()).toEqual(faultFiles);
    // stac-extension-schema is about a schema file given beside the item, not the item: test/validator/stac/schema-map.test.ts plants its faults.
    const stacRules = rules.map((rule) => rule.id).filter((id) => (id.startsWith("stac-") || id.startsWith("mlm-")) && id !== "stac-extension-schema");
    const covered = new Set(Object.values(manifest).flatMap((issues) => issues.map((issue) => issue.rule)));
    expect(stacRules.filter((id) => !covered.has(id))).toEqual([]);
  });

  it.each(faultFiles)("%s gives exactly the listed issues with --stac, each at a position, and none without", (file) => {
    const text = read(path.join(STAC_INVALID, file));
    const result = validateItemText(text, { stac: true, maxErrors: Infinity });
    const issues = [...result.errors, ...result.warnings];
    expect(issues.map(({ rule, path }) => ({ rule, path }))).toEqual(manifest[file]);
    expect(result.valid).toBe(result.errors.length === 0);
    const lines = text.split("\n").length;
    for (const issue of issues) {
      expect(issue.line, issue.message).toBeGreaterThanOrEqual(1);
      expect(issue.line!, issue.message).toBeLessThanOrEqual(lines);
      expect(issue.column, issue.message).toBeGreaterThanOrEqual(1);
    }
    expect(validateItemText(text)).toEqual({ valid: true, errors: [], warnings: [], omitted: 0 });
  });
});

/** The one issue --stac reports for an item. */
function only(item: unknown) {
  const { errors, warnings } = validateItem(item, { stac: true, maxErrors: Infinity });
  const issues = [...errors, ...warnings];
  expect(issues.map((issue) => `${issue.rule} ${issue.path}: ${issue.message}`)).toHaveLength(1);
  return issues[0]!;
}

/** The one issue of the realistic item changed by `plant`. */
function onlyIssue(plant: (item: EditableItem) => void) {
  const item = JSON.parse(realistic) as EditableItem;
  plant(item);
  return only(item);
}

const issueOf = (file: string) => only(JSON.parse(read(path.join(STAC_INVALID, file))));

describe("messages", () => {
  it("a value outside a list: every allowed value and the closest", () => {
    expect(issueOf("stac-extension-accelerator-case.json")).toMatchObject({
      rule: "stac-extension",
      schema: "https://stac-extensions.github.io/mlm/v1.5.1/schema.json",
      message: 'properties.mlm:accelerator must be one of "amd64", "cuda", "xla", "amd-rocm", "intel-ipex-cpu", "intel-ipex-gpu", "macos-arm"; found a string ("CUDA")',
      suggestion: 'did you mean "cuda"?',
    });
  });

  it("the branches of a oneOf that differ by their type member: one list of what they allow", () => {
    expect(issueOf("stac-extension-value-scaling-type.json")).toMatchObject({
      message:
        'properties.mlm:input[0].value_scaling[0].type must be one of "min-max", "z-score", "clip", "clip-min", "clip-max", "offset", "scale", "processing"; found a string ("zscore")',
      suggestion: 'did you mean "z-score"?',
    });
    expect(issueOf("stac-core-geometry-type-typo.json")).toMatchObject({ rule: "stac-core", path: "/geometry/type", suggestion: 'did you mean "Polygon"?' });
  });

  it("patterns and formats in words", () => {
    expect(issueOf("stac-extension-framework-version-short.json").message).toBe(
      'properties.mlm:framework_version must be a semantic version such as 2.5.1 (major.minor.patch, optionally -prerelease or +build); found a string ("2.5")',
    );
    expect(issueOf("stac-extension-class-name-space.json").message).toBe(
      'properties.mlm:output[0].classification:classes[4].name must be a name of letters, digits, - and _ only; found a string ("tree canopy")',
    );
    expect(issueOf("stac-core-datetime-date-only.json").message).toBe(
      'properties.datetime must be a date and time in RFC 3339 form, such as 2025-11-02T08:15:00Z; found a string ("2025-11-02")',
    );
    expect(issueOf("stac-core-datetime-not-utc.json").message).toBe('properties.created must be a time in UTC, ending in Z or +00:00; found a string ("2025-11-02T08:15:00+05:45")');
  });

  it("a member the schema does not define, a repeated entry, a bound, a condition", () => {
    expect(issueOf("stac-extension-band-unit.json").message).toBe('unknown member "unit" in properties.mlm:input[1].bands[0]; the known members are name, format and expression');
    expect(issueOf("stac-core-stac-extensions-twice.json").message).toBe(
      "stac_extensions must not repeat a value: items [1] and [6] are equal (https://stac-extensions.github.io/version/v1.2.0/schema.json)",
    );
    expect(issueOf("stac-extension-file-size-negative.json").message).toBe("assets.weights.file:size must be at least 0; found a number (-1)");
    expect(issueOf("stac-core-collection-link-without-collection.json").message).toBe('"collection" is missing from the item (when links has an entry whose rel is "collection")');
  });

  it("a value of none of the types a oneOf allows", () => {
    const issue = onlyIssue((item) => (item.properties["mlm:accelerator"] = 5));
    expect(issue).toMatchObject({ path: "/properties/mlm:accelerator", message: "properties.mlm:accelerator must be a string or null; found a number (5)", expected: ["string", "null"] });
  });

  it("a member MLM forbids in properties, and a member required by another", () => {
    expect(onlyIssue((item) => (item.properties["mlm:entrypoint"] = "landcover.pipeline:predict"))).toMatchObject({
      rule: "stac-extension",
      path: "/properties/mlm:entrypoint",
      message: 'properties must not have "mlm:entrypoint"',
    });
    expect(onlyIssue((item) => (item.properties.start_datetime = "2025-11-01T00:00:00Z"))).toMatchObject({
      rule: "stac-core",
      path: "/properties/end_datetime",
      message: '"end_datetime" is missing from properties; it goes with "start_datetime"',
    });
  });

  it("a stac_extensions entry that must be there", () => {
    // MLM 1.0.0 asks for its first URL, at crim-ca.github.io, even when named by the newer one.
    const item = JSON.parse(realistic);
    item.stac_extensions[0] = "https://stac-extensions.github.io/mlm/v1.0.0/schema.json";
    const { errors } = validateItem(item, { stac: true, maxErrors: Infinity });
    expect(errors.find((issue) => issue.path === "/stac_extensions")).toMatchObject({
      rule: "stac-extension",
      message: 'stac_extensions must include "https://crim-ca.github.io/mlm-extension/v1.0.0/schema.json"; found an array of 6 items',
      suggestion: 'replace "https://stac-extensions.github.io/mlm/v1.0.0/schema.json" with "https://crim-ca.github.io/mlm-extension/v1.0.0/schema.json"',
    });
  });

  it("cross-field rules in their own words", () => {
    expect(issueOf("mlm-entrypoint-role-missing.json")).toMatchObject({
      message: 'assets.source-code has mlm:entrypoint but not the role "code"; an entry point belongs to the asset that holds the code',
      suggestion: 'add "code" to the roles of assets.source-code',
    });
    expect(issueOf("mlm-bands-without-raster-bands.json").message).toBe(
      'assets.model has the role "mlm:model" but no raster:bands; properties.mlm:input names bands ("red", "green", "blue", "dsm", "mask"), which every model asset must describe',
    );
    expect(issueOf("stac-links-missing.json").message).toBe('"links" is missing from the item; a STAC item lists its links, [] when it has none');
    expect(issueOf("stac-geometry-null-with-bbox.json")).toMatchObject({ path: "/bbox", suggestion: "remove bbox, or give the item its geometry" });
    expect(issueOf("stac-datetime-null-without-range.json").message).toBe(
      'properties.datetime is null, so properties must give the time range in start_datetime and end_datetime; missing: "start_datetime", "end_datetime"',
    );
    expect(issueOf("stac-version-short.json")).toMatchObject({ suggestion: 'did you mean "1.1.0"?' });
    expect(issueOf("stac-extension-url-typo.json")).toMatchObject({ suggestion: 'did you mean "https://stac-extensions.github.io/mlm/v1.5.0/schema.json"?' });
    expect(issueOf("stac-extension-missing-file.json")).toMatchObject({
      message: "assets.weights.file:size and 2 more members use the file extension, which stac_extensions does not list, so its schema is not applied",
      suggestion: 'add "https://stac-extensions.github.io/file/v2.1.0/schema.json" to stac_extensions',
    });
  });

  it("names the bands no extension describes, without raster or eo", () => {
    const item = JSON.parse(realistic);
    item.stac_extensions = item.stac_extensions.filter((url: string) => !url.includes("/raster/"));
    for (const asset of Object.values(item.assets) as Array<Record<string, unknown>>) delete asset["raster:bands"];
    const { errors } = validateItem(item, { stac: true });
    expect(errors.map((issue) => `${issue.rule} ${issue.path}`)).toEqual(["mlm-bands /stac_extensions"]);
  });
});

describe("the base model rules and --stac together", () => {
  it("one issue where both find the same fault at the same place", () => {
    const item = JSON.parse(realistic);
    delete item.properties["mlm:name"];
    const { errors } = validateItem(item, { stac: true, maxErrors: Infinity });
    expect(errors.map((issue) => `${issue.rule} ${issue.path}`)).toEqual(["required /properties/mlm:name"]);
  });

  it("never throws, on any value", () => {
    for (const value of [null, 1, "x", [], {}, { type: "Feature" }, { stac_extensions: "x" }, { stac_extensions: [1, null, {}] }, { stac_version: 1.1 }]) {
      const result = validateItem(value, { stac: true });
      expect(result.valid).toBe(false);
    }
  });

  it("checks the option", () => {
    expect(() => validateItem({}, { stac: "yes" as unknown as boolean })).toThrow('stac must be a boolean; found a string ("yes")');
  });
});
