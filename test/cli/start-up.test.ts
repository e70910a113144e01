/**
 * What a run of validate loads before it has validated anything is its start-up time (bench/cli.mjs
 * measures it): these tests keep out the modules of Node that validating one file never uses.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { basemodel, bundleFilesLoaded, ROOT, scratchDir } from "./helpers.js";

const FILE = "fixtures/valid/realistic-segmentation.json";

/** Node's own modules that a run of the CLI loaded (process.moduleLoadList), written out as it exits. */
async function nodeModulesLoaded(args: string[]): Promise<string[]> {
  const dir = scratchDir();
  const list = join(dir, "loaded.txt");
  const preload = join(dir, "loaded.cjs");
  writeFileSync(preload, `process.on("exit", () => require("node:fs").writeFileSync(${JSON.stringify(list)}, process.moduleLoadList.join("\\n")));`);
  const run = await basemodel(args, { env: { NODE_OPTIONS: `--require ${preload}` } });
  expect(run.stderr).toBe("");
  expect(run.code).toBe(0);
  return readFileSync(list, "utf8")
    .split("\n")
    .filter((line) => line.startsWith("NativeModule "))
    .map((line) => line.slice("NativeModule ".length));
}

describe("validate's start-up", () => {
  it("loads neither child_process (commander's, for executable subcommands) nor tty (chalk's) nor perf_hooks", async () => {
    const loaded = await nodeModulesLoaded(["validate", FILE]);
    expect(loaded).toContain("fs");
    expect(loaded.filter((name) => ["child_process", "tty", "perf_hooks"].includes(name))).toEqual([]);
  });

  it("loads chalk, and with it tty, when it colours", async () => {
    expect(await nodeModulesLoaded(["validate", FILE, "--color"])).toContain("tty");
  });

  it("loads the command line as a handful of modules, not one per set of import() targets that share it", () => {
    const loaded = bundleFilesLoaded(join(ROOT, "dist/cli-bundle"));
    // Session 21: main.js, the chunk of its modules and esbuild's helpers; the build before, 18 files.
    expect(loaded.size).toBeGreaterThanOrEqual(2);
    expect(loaded.size).toBeLessThanOrEqual(5);
  });
});
