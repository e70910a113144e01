/**
 * action.yml, the composite GitHub Action, run as the runner runs it: each `run` step in bash with
 * the environment variables Actions sets (GITHUB_ACTION_PATH, GITHUB_OUTPUT, GITHUB_STEP_SUMMARY,
 * GITHUB_WORKSPACE), its `${{ inputs.* }}` and `${{ steps.*.outputs.* }}` replaced by their values
 * as the runner replaces them. The install step (npm ci from the action's checkout) is not run:
 * this checkout is installed and built already. Also the problem matcher, on the CLI's text output.
 */
import { spawnSync } from "node:child_process";
import { copyFileSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { ROOT, scratchDir } from "./helpers.js";

interface Step {
  name: string;
  id?: string;
  if?: string;
  uses?: string;
  run?: string;
  env?: Record<string, string>;
  with?: Record<string, string>;
  "working-directory"?: string;
}
interface Action {
  inputs: Record<string, { default: string }>;
  outputs: Record<string, { value: string }>;
  runs: { using: string; steps: Step[] };
}

const action = parse(readFileSync(join(ROOT, "action.yml"), "utf8")) as Action;
const step = (name: string) => action.runs.steps.find((candidate) => candidate.name === name)!;

interface ActionRun {
  outputs: Record<string, string>;
  stdout: string;
  summary: string;
  /** The exit code of the job: what the last step exits with. */
  exitCode: number;
}

/** Replaces `${{ inputs.x }}` and `${{ steps.validate.outputs.y }}` as the runner does; any other expression fails the test. */
function expand(text: string, inputs: Record<string, string>, outputs: Record<string, string>): string {
  return text.replace(/\$\{\{\s*([^}]*?)\s*\}\}/g, (_, expression: string) => {
    const input = /^inputs\.([\w-]+)$/.exec(expression);
    if (input) return inputs[input[1]!] ?? action.inputs[input[1]!]!.default;
    const output = /^steps\.validate\.outputs\.([\w-]+)$/.exec(expression);
    if (output) return outputs[output[1]!] ?? "";
    throw new Error(`the test does not evaluate ${expression}`);
  });
}

function runStep(run: Step, inputs: Record<string, string>, outputs: Record<string, string>, workspace: string, files: { output: string; summary: string }) {
  const env = Object.fromEntries(Object.entries(run.env ?? {}).map(([name, value]) => [name, expand(value, inputs, outputs)]));
  const cwd = join(workspace, expand(run["working-directory"] ?? ".", inputs, outputs));
  return spawnSync("bash", ["-e", "-c", run.run!], {
    cwd,
    encoding: "utf8",
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      CI: "true",
      GITHUB_ACTIONS: "true",
      GITHUB_ACTION_PATH: ROOT,
      GITHUB_WORKSPACE: workspace,
      GITHUB_OUTPUT: files.output,
      GITHUB_STEP_SUMMARY: files.summary,
      ...env,
    },
  });
}

/** The Validate step, then the last one, in a workspace holding `files` (fixtures, by path under fixtures/). */
function runAction(fixtures: string[], inputs: Record<string, string> = {}): ActionRun {
  const workspace = scratchDir();
  for (const fixture of fixtures) copyFileSync(join(ROOT, "fixtures", fixture), join(workspace, fixture.replaceAll("/", "-")));
  const files = { output: join(workspace, ".output"), summary: join(workspace, ".summary") };
  writeFileSync(files.output, "");
  writeFileSync(files.summary, "");
  const validate = runStep(step("Validate"), inputs, {}, workspace, files);
  expect(validate.status, validate.stderr).toBe(0);
  const outputs = Object.fromEntries(
    readFileSync(files.output, "utf8")
      .trim()
      .split("\n")
      .filter(Boolean)
      .map((line) => [line.slice(0, line.indexOf("=")), line.slice(line.indexOf("=") + 1)]),
  );
  const last = runStep(step("Exit as basemodel validate did"), inputs, outputs, workspace, files);
  return { outputs, stdout: validate.stdout, summary: readFileSync(files.summary, "utf8"), exitCode: last.status ?? -1 };
}

describe("action.yml", () => {
  it("is a composite action that installs the validator from its own checkout, never from the registry by name", () => {
    expect(action.runs.using).toBe("composite");
    const install = step("Install basemodel from the action's checkout").run!;
    expect(install).toMatch(/^cd "\$GITHUB_ACTION_PATH" && npm ci --ignore-scripts/);
    const everyCommand = action.runs.steps.map((each) => each.run ?? "").join("\n");
    expect(everyCommand).not.toMatch(/npx basemodel|npm (install|i) basemodel/);
    // Inputs reach the scripts as environment variables only: none is pasted into a command.
    for (const each of action.runs.steps) expect(each.run ?? "").not.toContain("${{");
  });

  it("annotates each problem, lists every one in the job summary, and fails the job as the CLI exits (1)", () => {
    const run = runAction(["valid/minimal.json", "invalid/enum-artifact-type.json", "warning/hyperparameters-spec.json"]);
    expect(run.outputs["exit-code"]).toBe("1");
    expect(run.exitCode).toBe(1);
    expect(run.stdout).toMatch(/^::error file=invalid-enum-artifact-type\.json,line=\d+,col=\d+.*title=basemodel enum::/m);
    expect(run.stdout).toMatch(/^::warning file=warning-hyperparameters-spec\.json,line=\d+.*::/m);
    expect(run.summary).toContain("invalid-enum-artifact-type.json");
    expect(run.summary).toContain("warning-hyperparameters-spec.json");
    expect(run.summary).toMatch(/\|.*enum.*\|/);
  });

  it("passes the job when every item is valid (0), and takes paths, a profile and flags", () => {
    const run = runAction(["valid/minimal.json", "warning/hyperparameters-spec.json"], { paths: "valid-minimal.json\nwarning-hyperparameters-spec.json", args: "--max-errors 5" });
    expect(run.outputs["exit-code"]).toBe("0");
    expect(run.exitCode).toBe(0);
    const strict = runAction(["warning/hyperparameters-spec.json"], { args: "--strict" });
    expect(strict.exitCode).toBe(1);
    const profile = runAction(["valid/minimal.json"], { profile: "fair-ci" });
    expect(profile.stdout).toMatch(/::error /);
  });

  it("writes the SARIF report where asked and names it as an output, beside the annotations", () => {
    const run = runAction(["invalid/enum-artifact-type.json"], { "sarif-file": "results.sarif" });
    expect(run.exitCode).toBe(1);
    const sarifFile = run.outputs["sarif-file"]!;
    expect(sarifFile).toMatch(/\/results\.sarif$/);
    const sarif = JSON.parse(readFileSync(sarifFile, "utf8")) as { version: string; runs: Array<{ results: unknown[] }> };
    expect(sarif.version).toBe("2.1.0");
    expect(sarif.runs[0]!.results.length).toBeGreaterThan(0);
    expect(step("Upload SARIF").uses).toMatch(/^github\/codeql-action\/upload-sarif@/);
  });

  it("a usage error (a format it does not know, an unclosed quote, a path that matches nothing) fails the job with 2 and one annotation", () => {
    const format = runAction(["valid/minimal.json"], { format: "xml" });
    expect(format.exitCode).toBe(2);
    expect(format.stdout).toMatch(/^::error title=basemodel action::format must be one of text, json, github, sarif, junit; found "xml"$/m);
    const quote = runAction(["valid/minimal.json"], { args: '--ignore "drafts' });
    expect(quote.exitCode).toBe(2);
    expect(quote.stdout).toMatch(/unclosed "/);
    const nothing = runAction([], { paths: "missing.json" });
    expect(nothing.exitCode).toBe(2);
  });

  it("keeps a quoted path with a space as one path", () => {
    const workspace = runAction(["invalid/enum-artifact-type.json"], { paths: '"no such folder" invalid-enum-artifact-type.json' });
    expect(workspace.exitCode).toBe(2);
    expect(workspace.stdout).toContain("no such folder");
  });
});

describe("the problem matcher", () => {
  const matchers = (JSON.parse(readFileSync(join(ROOT, ".github/basemodel-problem-matcher.json"), "utf8")) as {
    problemMatcher: Array<{ owner: string; pattern: Array<{ regexp: string; file: number; line?: number; column?: number; severity: number; code?: number; message: number }> }>;
  }).problemMatcher;

  it("turns every problem line of the text output into file, line, column, severity, rule and message, and nothing else", () => {
    expect(existsSync(join(ROOT, "bin/basemodel.js"))).toBe(true);
    const { stdout } = spawnSync(process.execPath, [join(ROOT, "bin/basemodel.js"), "validate", "invalid/enum-artifact-type.json", "warning/hyperparameters-spec.json", "valid/minimal.json", "no-such-file.json", "--no-color"], {
      cwd: join(ROOT, "fixtures"),
      encoding: "utf8",
    });
    const found = stdout.split("\n").flatMap((line) =>
      matchers.flatMap(({ owner, pattern: [pattern] }) => {
        const match = new RegExp(pattern!.regexp).exec(line);
        if (!match) return [];
        return [{ owner, file: match[pattern!.file], line: pattern!.line && match[pattern!.line], severity: match[pattern!.severity], code: pattern!.code && match[pattern!.code], message: match[pattern!.message] }];
      }),
    );
    expect(found).toEqual([
      expect.objectContaining({ owner: "basemodel-file", file: "no-such-file.json", severity: "error", message: expect.stringContaining("no such file") }),
      expect.objectContaining({ owner: "basemodel", file: "invalid/enum-artifact-type.json", severity: "error", code: "enum", line: "82" }),
      expect.objectContaining({ owner: "basemodel", file: "warning/hyperparameters-spec.json", severity: "warning", code: "unknown-prefixed-property", line: "77" }),
    ]);
  });
});
