/**
 * `basemodel validate .` in a repository: a folder walk (or a glob) skips the JSON files that are
 * not STAC at all and counts them in the summary of every format that has one; what it does
 * report about a found file that may be no item says how to leave it out; a file named on the
 * command line is always checked. Also: a glob that matches nothing, and a file written in YAML.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { basemodel, ITEM_WITH_WARNING, ROOT, scratchDir, writeIn } from "./helpers.js";

const item = readFileSync(ITEM_WITH_WARNING, "utf8");
const DATASET_URL = "https://hotosm.github.io/fAIr-models/schemas/v1.0.0/dataset/schema.json";

/** A repository as a model's authors keep it: items beside the files of their tools. */
function repository(): string {
  const dir = scratchDir();
  // An item as fAIr writes them today, which fAIr's CI passes.
  writeIn(dir, "models/unet/stac-item.json", readFileSync(join(ROOT, "fixtures/rules/v1.0.0-current/valid.json"), "utf8"));
  writeIn(dir, "data/sample/stac-item.json", readFileSync(join(ROOT, "fixtures/datasets/valid.json"), "utf8"));
  writeIn(dir, "package.json", JSON.stringify({ name: "models", scripts: { test: "true" } }));
  writeIn(dir, "tsconfig.json", JSON.stringify({ compilerOptions: { strict: true } }));
  writeIn(dir, "basemodel.config.json", JSON.stringify({ strict: false }));
  writeIn(dir, "schemas/keywords.json", JSON.stringify(["building", "road"]));
  writeIn(dir, "notes/count.json", "42");
  return dir;
}

const files = (stdout: string): string[] => JSON.parse(stdout).files.map((file: { file: string }) => file.file);

describe("a repository walk: JSON that is not STAC at all is skipped and counted", () => {
  it("text: only the STAC files are reported; the summary counts the others", async () => {
    const dir = repository();
    const run = await basemodel(["validate", ".", "--no-color", "--profile", "fair-ci"], { cwd: dir });
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    const lines = run.stdout.trimEnd().split("\n");
    expect(lines).toContain("data/sample/stac-item.json  ok");
    expect(lines).toContain("models/unet/stac-item.json  ok");
    expect(lines.at(-1)).toMatch(/^2 files, 2 items: 2 valid, 0 invalid; 0 errors, 0 warnings; rules v1.0.0-current; 5 other JSON files skipped \(\d+ ms\)$/);
    for (const other of ["package.json", "tsconfig.json", "basemodel.config.json", "keywords.json", "count.json"]) expect(run.stdout).not.toContain(other);
  });

  it("json: summary.skipped counts them and skipped lists them, as shown; a glob skips them alike", async () => {
    const dir = repository();
    for (const path of [".", "**/*.json"]) {
      const run = await basemodel(["validate", path, "--format", "json"], { cwd: dir });
      const report = JSON.parse(run.stdout);
      expect(files(run.stdout).sort()).toEqual(["data/sample/stac-item.json", "models/unet/stac-item.json"]);
      expect(report.summary).toMatchObject({ files: 2, items: 2, skipped: 5 });
      expect(report.skipped.sort()).toEqual(["basemodel.config.json", "notes/count.json", "package.json", "schemas/keywords.json", "tsconfig.json"]);
    }
  });

  it("github: the step summary says how many were skipped; sarif and junit, which have no summary, leave them out", async () => {
    const dir = repository();
    const summary = join(dir, "step-summary.md");
    const github = await basemodel(["validate", ".", "--format", "github"], { cwd: dir, env: { GITHUB_STEP_SUMMARY: summary } });
    expect(github.stdout).not.toContain("package.json");
    expect(readFileSync(summary, "utf8")).toContain("5 other JSON files skipped: JSON, but not STAC.");
    const sarif = await basemodel(["validate", ".", "--format", "sarif"], { cwd: dir });
    expect(sarif.stdout).not.toContain("package.json");
    const junit = await basemodel(["validate", ".", "--format", "junit"], { cwd: dir });
    expect(junit.stdout).not.toContain("package.json");
    expect(junit.stdout).toContain('<testsuites name="basemodel" tests="2" failures="1" errors="0"');
  });

  it("a file named on the command line is always checked, and fails", async () => {
    const dir = repository();
    const run = await basemodel(["validate", "package.json", "models", "--format", "json"], { cwd: dir });
    expect(run.code).toBe(1);
    const report = JSON.parse(run.stdout);
    expect(files(run.stdout)).toEqual(["models/unet/stac-item.json", "package.json"]);
    expect(report.files[1].items[0].errors).toMatchObject([{ rule: "not-a-base-model-item", actual: "an npm package.json" }]);
    // Named, it is told nothing of --ignore.
    expect(report.files[1].items[0].errors[0].suggestion).toBeUndefined();
    expect(report.summary.skipped).toBeUndefined();
    expect(report.skipped).toBeUndefined();
  });

  it("a walk that finds only JSON that is not STAC validates nothing, says so once and exits 2", async () => {
    const dir = scratchDir();
    writeIn(dir, "package.json", JSON.stringify({ name: "x", dependencies: {} }));
    writeIn(dir, "tsconfig.json", "{}");
    const run = await basemodel(["validate", "."], { cwd: dir });
    expect(run).toEqual({ code: 2, stdout: "", stderr: "basemodel: nothing was validated: 2 other JSON files skipped, none of them STAC\n" });
  });

  it("is told from the value the validator parsed: a byte-order mark, a one-line NDJSON file and a lone feature's collection alike", async () => {
    const dir = scratchDir();
    writeIn(dir, "settings.json", `\uFEFF${JSON.stringify({ name: "x" })}`);
    writeIn(dir, "one.ndjson", `\n${JSON.stringify({ name: "x" })}\n\n`);
    // Two lines are two items: reported, never skipped.
    writeIn(dir, "two.ndjson", `${JSON.stringify({ name: "x" })}\n${JSON.stringify({ name: "y" })}\n`);
    writeIn(dir, "buildings.json", JSON.stringify({ type: "FeatureCollection", features: [{ type: "Feature", properties: {}, geometry: null }] }));
    const run = await basemodel(["validate", "*.json", "*.ndjson", "--format", "json"], { cwd: dir });
    const report = JSON.parse(run.stdout);
    expect(files(run.stdout)).toEqual(["buildings.json", "two.ndjson"]);
    expect(report.skipped.sort()).toEqual(["one.ndjson", "settings.json"]);
  });
});

describe("a repository walk: what it reports of a file that may be no item says how to leave it out", () => {
  it("STAC that is no base model item, and a JSON file with comments, name --ignore with their path as the walk matches it", async () => {
    const dir = scratchDir();
    writeIn(dir, "repo/catalog/collection.json", readFileSync(join(ROOT, "fixtures/not-items/stac-collection.json"), "utf8"));
    writeIn(dir, "repo/.vscode/settings.json", "{ // hidden: never walked\n}");
    writeIn(dir, "repo/tsconfig.base.json", '{\n  // JSON with comments\n  "compilerOptions": {}\n}\n');
    writeIn(dir, "repo/data/it's.json", readFileSync(join(ROOT, "fixtures/not-items/dataset-item.json"), "utf8"));
    const run = await basemodel(["validate", "repo", "--format", "json"], { cwd: dir });
    const report = JSON.parse(run.stdout);
    const suggestions = Object.fromEntries(report.files.map((file: { file: string; items: Array<{ errors: Array<{ suggestion?: string }> }> }) => [file.file, file.items[0]!.errors[0]!.suggestion]));
    expect(suggestions).toEqual({
      "repo/catalog/collection.json": "--ignore 'catalog/collection.json' leaves it out",
      "repo/data/it's.json": `--fair-checks or --profile fair-ci checks it by fAIr's dataset rules, as fAIr's CI does; in the library, fairChecks: true; --ignore 'data/it'\\''s.json' leaves it out`,
      "repo/tsconfig.base.json": "remove it; if it is no item, --ignore 'tsconfig.base.json' leaves it out",
    });
    // The hint is right: with it, the walk leaves them out.
    const ignored = await basemodel(["validate", "repo", "--ignore", "catalog/collection.json", "--ignore", "tsconfig.base.json", "--ignore", "data/**", "--format", "json"], { cwd: dir });
    expect(ignored).toMatchObject({ code: 2, stdout: "", stderr: "basemodel: no file matched; nothing was validated\n" });
    expect(report.files.some((file: { items: Array<{ errors: Array<{ message: string }> }> }) => JSON.stringify(file).includes(DATASET_URL))).toBe(true);
  });
});

describe("basemodel validate: globs, YAML and the configuration", () => {
  it("a glob that matches nothing is one message and counts no file", async () => {
    const dir = scratchDir();
    writeIn(dir, "item.json", item);
    const alone = await basemodel(["validate", "nothing-here/*.json"], { cwd: dir });
    expect(alone).toEqual({ code: 2, stdout: "", stderr: "basemodel: no file matches nothing-here/*.json\n" });
    const beside = await basemodel(["validate", "nothing-here/*.json", "item.json", "--format", "json"], { cwd: dir });
    expect(beside.stderr).toBe("basemodel: no file matches nothing-here/*.json\n");
    expect(JSON.parse(beside.stdout).summary).toMatchObject({ files: 1, unreadable: 0, items: 1, valid: 1 });
    expect(beside.code).toBe(0);
  });

  it("a YAML file is called YAML, not JSON with a syntax error; one that is also JSON is read", async () => {
    const dir = scratchDir();
    writeIn(dir, "item.yaml", "type: Feature\nstac_version: 1.1.0\n");
    writeIn(dir, "item.yml", item);
    const run = await basemodel(["validate", "item.yaml", "item.yml", "--format", "json"], { cwd: dir });
    const report = JSON.parse(run.stdout);
    expect(report.files[0].items[0].errors).toMatchObject([
      { rule: "json-syntax", message: "the file is YAML, and basemodel reads items written in JSON", suggestion: "convert it to JSON first, e.g. with yq -o=json", line: 1, column: 1 },
    ]);
    expect(report.files[1].items[0].valid).toBe(true);
  });

  it("a configuration file in YAML is called YAML", async () => {
    const dir = scratchDir();
    writeIn(dir, "item.json", item);
    writeIn(dir, "basemodel.yml", "strict: true\n");
    const run = await basemodel(["validate", "item.json", "-c", "basemodel.yml"], { cwd: dir });
    expect(run).toEqual({
      code: 2,
      stdout: "",
      stderr: `basemodel: ${join(dir, "basemodel.yml")} is YAML; basemodel reads its configuration as JSON: write it as basemodel.config.json, or as "basemodel" in package.json\n`,
    });
  });

  it("an unknown format in the configuration file is a usage error naming the formats", async () => {
    const dir = scratchDir();
    writeIn(dir, "item.json", item);
    writeIn(dir, "basemodel.config.json", JSON.stringify({ format: "xml" }));
    const run = await basemodel(["validate", "item.json"], { cwd: dir });
    expect(run).toEqual({ code: 2, stdout: "", stderr: 'basemodel: unknown format "xml"; the formats are text, json, github, sarif, junit\n' });
  });

  it("--help says what a walk skips", async () => {
    const help = (await basemodel(["validate", "--help"])).stdout.replace(/\s+/g, " ");
    expect(help).toContain("A folder walk (and a glob) skips hidden files and folders (.name), node_modules and .git, and the JSON files it finds that are not STAC at all (counted in the summary); a file named is always checked");
  });
});
