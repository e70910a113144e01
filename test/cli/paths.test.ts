import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { basemodel, ROOT, scratchDir } from "./helpers.js";

// The scratch folder lies outside the repository, where the CLI runs: relative to it, its files
// would be "../../tmp/...".
const dir = scratchDir();
const valid = readFileSync(join(ROOT, "fixtures/warning/hyperparameters-spec.json"), "utf8");
const broken = valid.replace('"mlm:framework": "PyTorch"', '"mlm:framework": "pytorch"');

function write(name: string, content: string): string {
  const path = join(dir, name);
  mkdirSync(join(path, ".."), { recursive: true });
  writeFileSync(path, content);
  return path;
}

const shownFiles = (stdout: string): string[] => JSON.parse(stdout).files.map((file: { file: string }) => file.file);

describe("basemodel validate: paths are shown as they were typed", () => {
  const bad = write("abs/bad.json", broken);
  const ok = write("abs/tree/a/ok.json", valid);
  write("abs/tree/b/bad.json", broken);

  it("an absolute file stays absolute in every format", async () => {
    const text = await basemodel(["validate", bad]);
    expect(text.code).toBe(1);
    expect(text.stdout).toMatch(new RegExp(`^${bad}\\n {2}${bad}:\\d+:\\d+ {2}error {2}enum`));
    expect(text.stdout).not.toContain("../");
    expect(shownFiles((await basemodel(["validate", bad, "--format", "json"])).stdout)).toEqual([bad]);
    expect((await basemodel(["validate", bad, "--format", "junit"])).stdout).toContain(`<testsuite name="${bad}"`);
    expect((await basemodel(["validate", bad, "--format", "github"])).stdout).toMatch(new RegExp(`^::error file=${bad},line=`));
    const sarif = JSON.parse((await basemodel(["validate", bad, "--format", "sarif"])).stdout);
    expect(sarif.runs[0].results[0].locations[0].physicalLocation.artifactLocation).toEqual({ uri: pathToFileURL(bad).href });
  });

  it("a relative file is shown exactly as typed", async () => {
    const run = await basemodel(["validate", "./abs/../abs/bad.json", "abs/tree//a/ok.json", "--format", "json"], { cwd: dir });
    expect(shownFiles(run.stdout)).toEqual(["./abs/../abs/bad.json", "abs/tree//a/ok.json"]);
    // Inside the working folder, CI formats still get the plain relative path.
    const github = await basemodel(["validate", "./abs/../abs/bad.json", "--format", "github"], { cwd: dir });
    expect(github.stdout).toMatch(/^::error file=abs\/bad\.json,line=/);
  });

  it("files found in a folder are joined to the folder as typed", async () => {
    const tree = join(dir, "abs/tree");
    expect(shownFiles((await basemodel(["validate", tree, "--format", "json"])).stdout)).toEqual([ok, join(tree, "b/bad.json")]);
    expect(shownFiles((await basemodel(["validate", "abs/tree", "--format", "json"], { cwd: dir })).stdout)).toEqual(["abs/tree/a/ok.json", "abs/tree/b/bad.json"]);
    expect(shownFiles((await basemodel(["validate", `${dir}/abs/tree/*/*.json`, "--format", "json"])).stdout)).toEqual([ok, join(tree, "b/bad.json")]);
  });

  it("a missing absolute path is named as typed", async () => {
    const missing = join(dir, "missing.json");
    const run = await basemodel(["validate", missing]);
    expect(run.code).toBe(2);
    expect(run.stdout).toContain(`${missing}  error  no such file or directory`);
  });
});
