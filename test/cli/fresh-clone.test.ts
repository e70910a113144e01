/**
 * README's first command in a clone that was never built: the package runs no script on install
 * (no `prepare`), so `npx basemodel validate fixtures/valid` right after `npm ci` meets no dist/.
 * bin/basemodel.js then builds once, saying so in one line, and runs the command. A copy without
 * scripts/ (what `npm pack` or a git-URL install leaves) never builds: without its build it says
 * in one line what to install instead.
 */
import { execFileSync } from "node:child_process";
import { cpSync, mkdirSync, symlinkSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { hasTool } from "../support/requirements.js";
import { basemodel, bundleFilesLoaded, ROOT, scratchDir } from "./helpers.js";

/** The repository's files as a clone has them (the tracked files, as they are in the working tree), node_modules linked. */
function unbuiltClone(): string {
  const dir = scratchDir();
  const tracked = execFileSync("git", ["ls-files", "-z"], { cwd: ROOT, encoding: "utf8" }).split("\0").filter((file) => file !== "");
  for (const file of tracked) {
    mkdirSync(join(dir, dirname(file)), { recursive: true });
    cpSync(join(ROOT, file), join(dir, file));
  }
  symlinkSync(join(ROOT, "node_modules"), join(dir, "node_modules"));
  return dir;
}

const BUILDING = "basemodel: no build in this clone yet (dist/ is missing): building it once with scripts/build.mjs\n";

describe.runIf(hasTool(["git"], "git"))("bin/basemodel.js in a clone that was never built", () => {
  it("builds once, saying so in one line, then validates; the next command does not build", async () => {
    const clone = unbuiltClone();
    const bin = join(clone, "bin/basemodel.js");
    // From a folder of the clone, not its root: the build is the same wherever it runs from.
    const cwd = join(clone, "fixtures");
    const first = await basemodel(["validate", "valid"], { cwd, bin });
    expect(first.stderr).toBe(BUILDING);
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(/^\d+ files, \d+ items: \d+ valid, 0 invalid/m);
    expect(bundleFilesLoaded(join(clone, "dist/cli-bundle")).size).toBeLessThanOrEqual(5);
    const second = await basemodel(["validate", "valid"], { cwd, bin });
    expect(second.stderr).toBe("");
    expect(second.code).toBe(0);
    const withoutTime = (stdout: string) => stdout.replace(/\(\d+ ms\)/, "");
    expect(withoutTime(second.stdout)).toBe(withoutTime(first.stdout));
  }, 900_000);

  it("a build that fails is one more line and exit code 2, the build's errors above it", async () => {
    const clone = unbuiltClone();
    cpSync(join(clone, "fixtures/valid/realistic-segmentation.json"), join(clone, "schema/base-model-item.schema.json"));
    const run = await basemodel(["validate", "fixtures/valid"], { cwd: clone, bin: join(clone, "bin/basemodel.js") });
    expect(run.code).toBe(2);
    expect(run.stdout).toBe("");
    expect(run.stderr.startsWith(BUILDING)).toBe(true);
    expect(run.stderr.endsWith("basemodel: the build failed (above); fix it, then run `npm run build`\n")).toBe(true);
  }, 900_000);

  it("a copy without scripts/ and without its build never builds: one line says what to install, exit code 2", async () => {
    const copy = scratchDir();
    cpSync(join(ROOT, "bin"), join(copy, "bin"), { recursive: true });
    cpSync(join(ROOT, "package.json"), join(copy, "package.json"));
    const run = await basemodel(["validate", "."], { cwd: copy, bin: join(copy, "bin/basemodel.js") });
    expect(run).toEqual({
      code: 2,
      stdout: "",
      stderr:
        `basemodel: this copy has no build (${join(copy, "dist/cli-bundle/main.js")} is missing). npm builds basemodel when it packs it, ` +
        "and does not when it installs it from a git URL: install a tarball made by `npm pack` in a clone instead\n",
    });
  });
});
