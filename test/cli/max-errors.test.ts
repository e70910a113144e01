import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { basemodel, ROOT, scratchDir } from "./helpers.js";

const dir = scratchDir();
// 10 errors (each of ten unknown mlm:tasks) and 2 warnings (two undefined fair: properties).
const item = JSON.parse(readFileSync(join(ROOT, "fixtures/warning/hyperparameters-spec.json"), "utf8"));
item.properties["mlm:tasks"] = Array.from({ length: 10 }, () => "segmentation");
item.properties["fair:extra"] = 1;
writeFileSync(join(dir, "item.json"), JSON.stringify(item, null, 2));

const run = (...args: string[]) => basemodel(["validate", "item.json", "--max-errors", "2", ...args], { cwd: dir });

describe("basemodel validate --max-errors: every issue is counted, also those not shown", () => {
  it("text: the summary says how many issues there are and how many are shown", async () => {
    const text = await run();
    expect(text.code).toBe(1);
    expect(text.stdout).toContain("  … and 10 more issues: 8 errors, 2 warnings (raise --max-errors)\n");
    expect(text.stdout.trimEnd().split("\n").at(-1)).toMatch(/^1 file, 1 item: 0 valid, 1 invalid; 10 errors and 2 warnings, showing 2; rules v1.0.0 \(\d+ ms\)$/);
    const all = await basemodel(["validate", "item.json"], { cwd: dir });
    expect(all.stdout.trimEnd().split("\n").at(-1)).toMatch(/; 10 errors, 2 warnings; rules v1.0.0 \(\d+ ms\)$/);
  });

  it("json: the listed issues, and the ones left out by severity", async () => {
    const report = JSON.parse((await run("--format", "json")).stdout);
    expect(report.summary).toMatchObject({ errors: 2, warnings: 0, omittedErrors: 8, omittedWarnings: 2 });
    expect(report.files[0].items[0]).toMatchObject({ omitted: 10, omittedErrors: 8, omittedWarnings: 2 });
  });

  it("junit: the failure counts every error", async () => {
    const xml = (await run("--format", "junit")).stdout;
    expect(xml).toContain('<failure message="10 errors" type="basemodel">');
    expect(xml).toContain("… and 10 more issues: 8 errors, 2 warnings (raise --max-errors)");
  });

  it("sarif: a notification says how many errors and warnings are not among the results", async () => {
    const log = JSON.parse((await run("--format", "sarif")).stdout);
    expect(log.runs[0].results).toHaveLength(2);
    expect(log.runs[0].invocations[0].toolExecutionNotifications.map((note: { message: { text: string } }) => note.message.text)).toEqual([
      "… and 10 more issues: 8 errors, 2 warnings (raise --max-errors)",
    ]);
  });

  it("github: the annotation and the step summary count every issue", async () => {
    const summary = join(dir, "summary.md");
    const annotated = await basemodel(["validate", "item.json", "--max-errors", "2", "--format", "github"], { cwd: dir, env: { GITHUB_STEP_SUMMARY: summary } });
    expect(annotated.stdout).toContain("::warning file=item.json,line=1,title=basemodel max-errors::… and 10 more issues: 8 errors, 2 warnings (raise --max-errors)");
    // Files, Unreadable, Items, Valid, Invalid, Errors, Warnings.
    expect(readFileSync(summary, "utf8")).toContain("| 1 | 0 | 1 | 0 | 1 | 10 | 2 |");
  });
});
