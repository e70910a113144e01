/**
 * fAIr's rule sets (--rules) and fAIr's CI checks (--fair-checks) on the project's own fixtures:
 * each file of fixtures/rules/ gives exactly the issues fixtures/rules/expected.json lists for it
 * under each mode, with their severity and their line and column (recorded when the fixtures
 * were written, independently of our parser), and rules "auto" judges each file by the set its identifier
 * names. The three items valid under their own set are listed under the other sets too.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { rules, validateItemText, type Issue, type ValidatorOptions } from "../../../src/index.js";

const FOLDER = path.resolve(__dirname, "../../../fixtures/rules");
const expected = JSON.parse(readFileSync(path.join(FOLDER, "expected.json"), "utf8")) as {
  auto: Record<string, string>;
  issues: Record<string, Record<string, string[]>>;
};

const MODES: Record<string, ValidatorOptions> = {
  "v1.0.0": { rules: "v1.0.0" },
  "v1.0.0+fair-checks": { rules: "v1.0.0", fairChecks: true },
  "v1.0.0-current": { rules: "v1.0.0-current" },
  "v1.0.0-current+fair-checks": { rules: "v1.0.0-current", fairChecks: true },
  "v1.1.0": { rules: "v1.1.0" },
  "v1.1.0+fair-checks": { rules: "v1.1.0", fairChecks: true },
  auto: { rules: "auto" },
};

const byPosition = (a: Issue, b: Issue) => a.line! - b.line! || a.column! - b.column! || a.path.localeCompare(b.path);
const shown = (issue: Issue) => `${issue.severity} ${issue.rule} ${issue.path} ${issue.line}:${issue.column}`;

const files = (readdirSync(FOLDER, { recursive: true }) as string[])
  .filter((name) => name.endsWith(".json") && name !== "expected.json")
  .map((name) => name.split(path.sep).join("/"))
  .sort();
const cases = files.flatMap((file) => Object.keys(expected.issues[file] ?? {}).map((mode) => [file, mode] as const));
const read = (file: string) => readFileSync(path.join(FOLDER, file), "utf8");

describe("fixtures/rules", () => {
  it("lists every file, and has a fault for every rule the rule sets and fAIr's CI checks add", () => {
    expect(Object.keys(expected.issues).sort()).toEqual(files);
    const found = new Set(Object.values(expected.issues).flatMap((modes) => Object.values(modes).flat().map((line) => line.split(" ")[1])));
    const added = ["range", "max-items", "pattern", "format", "fair-keyword", "fair-hyperparameter-spec", "fair-hyperparameter-spec-entry", "fair-model-asset"];
    expect(added.every((rule) => rules.some((entry) => entry.id === rule))).toBe(true);
    expect(added.filter((rule) => !found.has(rule))).toEqual([]);
  });

  it.each(cases)("%s under %s gives exactly the listed issues, at their positions", (file, mode) => {
    const result = validateItemText(read(file), { ...MODES[mode], maxErrors: Infinity });
    const issues = [...result.errors.sort(byPosition), ...result.warnings.sort(byPosition)];
    expect(issues.map(shown)).toEqual(expected.issues[file]![mode]);
    expect(result.valid).toBe(result.errors.length === 0);
    expect(result.ruleSet).toBe(mode === "auto" ? expected.auto[file] : mode.replace("+fair-checks", ""));
  });

  it.each(Object.entries(expected.auto))("rules auto judges %s by %s", (file, set) => {
    expect(validateItemText(read(file), { rules: "auto" }).ruleSet).toBe(set);
  });
});
