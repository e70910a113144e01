/**
 * A required member written under a near miss of its name (mlm:framwork, modle, stac_extension),
 * from the library (the CLI's output: test/cli/near-miss.test.ts).
 */
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { validateItem, validateItemText, type Issue } from "../../../src/index.js";

const ROOT = resolve(__dirname, "../../..");
const read = (path: string) => readFileSync(join(ROOT, path), "utf8");
const minimal = read("fixtures/valid/minimal.json");
const realistic = read("fixtures/valid/realistic-segmentation.json");

/** 1-based line and column of the first occurrence of `needle`. */
function positionOf(text: string, needle: string): { line: number; column: number } {
  const before = text.slice(0, text.indexOf(needle));
  expect(before.length).toBeLessThan(text.length);
  return { line: before.split("\n").length, column: before.length - before.lastIndexOf("\n") };
}

/** The member `from` renamed `to`, exactly once. */
function renamed(text: string, from: string, to: string): string {
  const at = text.indexOf(`"${from}":`);
  expect(at).toBeGreaterThanOrEqual(0);
  return `${text.slice(0, at)}"${to}":${text.slice(at + from.length + 3)}`;
}

const errorsOf = (issues: readonly Issue[]) => issues.map(({ rule, path, message, suggestion, actual }) => ({ rule, path, message, suggestion, actual }));

describe("a required member written under a near miss of its name", () => {
  it.each([
    ["mlm:framwork", "mlm:framework", "/properties/mlm:framework", "properties"],
    ["fair:metric_spec", "fair:metrics_spec", "/properties/fair:metrics_spec", "properties"],
    ["modle", "model", "/assets/model", "assets"],
    ["stac_extension", "stac_extensions", "/stac_extensions", "the item"],
    ["propertie", "properties", "/properties", "the item"],
    ["Assets", "assets", "/assets", "the item"],
    ["sed", "seed", "/properties/fair:split_spec/seed", "properties.fair:split_spec"],
  ])("%s: the missing %s names it, suggests the name meant and points at it", (written, meant, path, where) => {
    const text = renamed(minimal, meant, written);
    const result = validateItemText(text);
    const missing = result.errors.find((issue) => issue.rule === "required")!;
    expect(errorsOf([missing])).toEqual([
      { rule: "required", path, message: `"${meant}" is missing from ${where}; found "${written}"`, suggestion: `did you mean "${meant}"?`, actual: written },
    ]);
    const at = positionOf(text, `"${written}":`);
    expect(missing).toMatchObject({ line: at.line, column: at.column, endLine: at.line, endColumn: at.column + written.length + 2 });
    // From a value too, without positions.
    expect(validateItem(JSON.parse(text)).errors.find((issue) => issue.rule === "required")).toMatchObject({ message: missing.message, actual: written });
  });

  it("a misspelled fair: member keeps its own warning: the member is not one the schema defines", () => {
    const result = validateItem(JSON.parse(renamed(minimal, "fair:metrics_spec", "fair:metric_spec")));
    expect(result.warnings.map((issue) => `${issue.rule} ${issue.path}`)).toEqual(["unknown-prefixed-property /properties/fair:metric_spec"]);
  });

  it("a member the schema defines is never taken for a misspelling of another (mlm:input for a missing mlm:output)", () => {
    const text = minimal.replace(/"mlm:output": \[[\s\S]*?\n {4}\],\n/, "");
    expect(text).not.toContain("mlm:output");
    const result = validateItemText(text);
    expect(errorsOf(result.errors)).toEqual([
      { rule: "required", path: "/properties/mlm:output", message: '"mlm:output" is missing from properties', suggestion: undefined, actual: undefined },
    ]);
    expect(result.errors[0]).toMatchObject(positionOf(text, '"properties"'));
  });

  it("a near miss stands for one missing member only", () => {
    const text = renamed(renamed(minimal, "mlm:name", "mlm:nam"), "mlm:framework", "mlm:frame");
    const missing = validateItem(JSON.parse(text)).errors.filter((issue) => issue.rule === "required");
    expect(missing.map((issue) => [issue.path, issue.actual])).toEqual([
      ["/properties/mlm:name", "mlm:nam"],
      ["/properties/mlm:framework", undefined],
    ]);
  });

  describe("with stac", () => {
    it("MLM's own 'member it does not define' is not said again for the near miss", () => {
      const text = renamed(realistic, "mlm:framework", "mlm:framwork");
      const result = validateItemText(text, { stac: true });
      expect(errorsOf(result.errors)).toEqual([
        {
          rule: "required",
          path: "/properties/mlm:framework",
          message: '"mlm:framework" is missing from properties; found "mlm:framwork"',
          suggestion: 'did you mean "mlm:framework"?',
          actual: "mlm:framwork",
        },
      ]);
    });

    it.each([
      ["stac_verison", "stac_version", "/stac_version", "the item"],
      ["date_time", "datetime", "/properties/datetime", "properties"],
    ])("a member core STAC requires, written %s, gets the same", (written, meant, path, where) => {
      const text = renamed(realistic, meant, written);
      const result = validateItemText(text, { stac: true });
      expect(errorsOf(result.errors)).toEqual([
        { rule: "stac-core", path, message: `"${meant}" is missing from ${where}; found "${written}"`, suggestion: `did you mean "${meant}"?`, actual: written },
      ]);
      expect(result.errors[0]).toMatchObject(positionOf(text, `"${written}"`));
    });
  });
});
