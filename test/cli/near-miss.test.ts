/**
 * A required member written under a near miss of its name, as the real CLI prints it (text and
 * JSON, with and without --stac).
 */
import { describe, expect, it } from "vitest";
import { basemodel, itemWithWarningText, jsonIssues, scratchDir, writeIn } from "./helpers.js";

const dir = scratchDir();
const item = itemWithWarningText();
const write = (name: string, content: string) => writeIn(dir, name, content);

/** 1-based line and column of the first occurrence of `needle`. */
function positionOf(text: string, needle: string): string {
  const before = text.slice(0, text.indexOf(needle));
  return `${before.split("\n").length}:${before.length - before.lastIndexOf("\n")}`;
}

describe("a misspelled member", () => {
  const text = item.replace('"mlm:framework":', '"mlm:framwork":');
  const file = write("framwork.json", text);
  const at = positionOf(text, '"mlm:framwork"');

  it.each(["without --stac", "with --stac"])("text, %s: the missing member names the one written, at its place, with the name meant", async (mode) => {
    const run = await basemodel(["validate", file, "--no-color", ...(mode === "with --stac" ? ["--stac"] : [])], { cwd: dir });
    expect(run.code).toBe(1);
    expect(run.stdout).toContain(
      `  ${file}:${at}  error  required  "mlm:framework" is missing from properties; found "mlm:framwork" (did you mean "mlm:framework"?)\n`,
    );
    expect(run.stdout).toContain('    > 18 |         "mlm:framwork": "PyTorch",\n');
    expect(run.stdout).not.toContain("does not define it");
  });

  it("json: actual and suggestion", async () => {
    const run = await basemodel(["validate", file, "--format", "json"], { cwd: dir });
    const missing = jsonIssues(run.stdout).find((issue) => issue.rule === "required")!;
    expect(missing).toMatchObject({
      path: "/properties/mlm:framework",
      message: '"mlm:framework" is missing from properties; found "mlm:framwork"',
      suggestion: 'did you mean "mlm:framework"?',
      actual: "mlm:framwork",
      line: Number(at.split(":")[0]),
      column: Number(at.split(":")[1]),
    });
  });

  it("an asset key and a top-level member too", async () => {
    const both = write("modle.json", item.replace('"model":', '"modle":').replace('"stac_extensions":', '"stac_extension":'));
    const run = await basemodel(["validate", both, "--format", "json"], { cwd: dir });
    expect(jsonIssues(run.stdout).map((issue) => `${issue.path} ${issue.actual} ${issue.suggestion}`)).toEqual([
      '/stac_extensions stac_extension did you mean "stac_extensions"?',
      '/assets/model modle did you mean "model"?',
      "/properties/fair:hyperparameters_spec fair:hyperparameters_spec undefined",
    ]);
  });
});
