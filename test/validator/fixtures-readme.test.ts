/**
 * fixtures/README.md says which example passes which rules, in a table: every ✔ and ✘ of it is
 * what the validator says of the files its row names.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { validateItemText, type ValidatorOptions } from "../../src/index.js";

const FIXTURES = path.resolve(__dirname, "../../fixtures");
const COLUMNS: ValidatorOptions[] = [{}, { strict: true }, { stac: true }, { rules: "v1.0.0-current" }, { profile: "fair-ci" }, { rules: "v1.1.0" }];

/** The table's rows: the files each names (the first with its folder, the others in the same one) and a mark per column. */
function rows(): Array<{ files: string[]; passes: boolean[] }> {
  const readme = readFileSync(path.join(FIXTURES, "README.md"), "utf8");
  return readme
    .split("\n")
    .filter((line) => line.startsWith("| [`"))
    .map((line) => {
      const [names, ...marks] = line.slice(2, -2).split(" | ");
      const [first, ...others] = [...names!.matchAll(/`([^`]+\.json)`/g)].map((match) => match[1]!);
      const folder = path.dirname(first!);
      return { files: [first!, ...others.map((name) => path.join(folder, name))], passes: marks.map((mark) => mark.startsWith("✔")) };
    });
}

describe("fixtures/README.md", () => {
  const table = rows();

  it("names at least the templates that pass fAIr's CI", () => {
    expect(table.length).toBeGreaterThanOrEqual(8);
    expect(table.filter((row) => row.passes[4]).flatMap((row) => row.files)).toEqual(
      expect.arrayContaining(["valid/fair-ci-detection.json", "valid/fair-ci-classification.json", "rules/v1.0.0-current/valid.json", "datasets/valid.json"]),
    );
  });

  it.each(table.flatMap((row) => row.files.map((file) => [file, row.passes] as const)))("%s passes exactly where the table says", (file, passes) => {
    const text = readFileSync(path.join(FIXTURES, file), "utf8");
    expect(COLUMNS.map((options) => validateItemText(text, options).valid)).toEqual(passes);
  });
});
