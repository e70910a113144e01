/**
 * The package as `npm pack` makes it (the file list of `npm pack --dry-run`, after `npm run
 * build`): no script npm runs when it is installed, every module its entry points reach inside it
 * (package.json "exports" and "bin", followed through every import and import() as a bundler
 * follows them), and no package imported that it does not declare. Its size stays far below the
 * 22.5 MB it was when each compiled STAC schema held its own copy of every schema it refers to.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { builtinModules } from "node:module";
import path from "node:path";
import { build, type Plugin } from "esbuild";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(__dirname, "..");
const manifest = JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")) as {
  scripts: Record<string, string>;
  exports: Record<string, unknown>;
  bin: Record<string, string>;
  dependencies: Record<string, string>;
  peerDependencies: Record<string, string>;
};
/**
 * In npm's megabytes (10^6 bytes), as `npm pack` prints them: 11.8 MB, about 10 of it the library,
 * CLI and server (5.8 MB the compiled STAC schemas, which the validator page loads from the
 * library's own dist/generated/ rather than holding a copy), 1.8 MB the pages. See BENCHMARKS.md
 * (session 18).
 */
const UNPACKED_BUDGET = 12.5e6;

interface Packed {
  size: number;
  unpackedSize: number;
  files: Array<{ path: string }>;
}

const packed = (JSON.parse(execFileSync("npm", ["pack", "--dry-run", "--json", "--ignore-scripts"], { cwd: ROOT, encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] })) as Packed[])[0]!;
const files = new Set(packed.files.map((file) => file.path));

/** Every JavaScript file package.json names as an entry point: each export condition's target, and each command. */
function entryPoints(): string[] {
  const targets: string[] = [];
  const collect = (value: unknown): void => {
    if (typeof value === "string") targets.push(value);
    else if (value !== null && typeof value === "object") Object.values(value).forEach(collect);
  };
  collect(manifest.exports);
  collect(manifest.bin);
  return [...new Set(targets.filter((target) => target.endsWith(".js")).map((target) => path.normalize(target)))];
}

/** The package a bare import names ("ajv" for "ajv/dist/runtime/equal.js", "@fastify/static"). */
const packageOf = (specifier: string) => specifier.split("/").slice(0, specifier.startsWith("@") ? 2 : 1).join("/");

describe("the package npm pack makes", () => {
  it("has no script npm runs when it is installed: the tarball is built when packed (prepack)", () => {
    expect(Object.keys(manifest.scripts).filter((name) => ["preinstall", "install", "postinstall", "prepare"].includes(name))).toEqual([]);
    expect(manifest.scripts.prepack).toBe("npm run build");
  });

  it.each(entryPoints())("holds every module %s reaches, and imports no package it does not declare", async (entry) => {
    const imported = new Set<string>();
    const bare: Plugin = {
      name: "bare-imports",
      setup(build) {
        build.onResolve({ filter: /^[^./]/ }, ({ path: specifier }) => {
          const name = specifier.replace(/^node:/, "");
          if (!builtinModules.includes(packageOf(name))) imported.add(packageOf(specifier));
          return { path: specifier, external: true };
        });
      },
    };
    const { metafile } = await build({ entryPoints: [path.join(ROOT, entry)], absWorkingDir: ROOT, bundle: true, write: false, splitting: true, format: "esm", platform: "node", outdir: "out", metafile: true, logLevel: "silent", plugins: [bare] });
    const reached = Object.keys(metafile.inputs);
    expect(reached.filter((file) => !files.has(file))).toEqual([]);
    const declared = new Set([...Object.keys(manifest.dependencies), ...Object.keys(manifest.peerDependencies)]);
    expect([...imported].filter((name) => !declared.has(name))).toEqual([]);
  });

  it(`stays below ${UNPACKED_BUDGET / 1e6} MB unpacked`, () => {
    console.log(`npm pack: ${(packed.size / 1e6).toFixed(1)} MB packed, ${(packed.unpackedSize / 1e6).toFixed(1)} MB unpacked, ${packed.files.length} files`);
    expect(packed.unpackedSize).toBeLessThanOrEqual(UNPACKED_BUDGET);
  });
});

describe("the project's install", () => {
  // npm reads package.json "engines" of every package it installs and warns (EBADENGINE) where
  // this Node.js is outside one; CI runs the oldest Node.js basemodel supports, so there this
  // shows that nothing the lockfile holds asks for a newer one. A dry run installs nothing and
  // needs no network: the lockfile says what would be installed.
  it("prints no EBADENGINE: npm ci --dry-run on this Node.js", () => {
    const folder = mkdtempSync(path.join(tmpdir(), "basemodel-engines-"));
    try {
      for (const file of ["package.json", "package-lock.json"]) copyFileSync(path.join(ROOT, file), path.join(folder, file));
      const run = spawnSync("npm", ["ci", "--dry-run", "--offline", "--ignore-scripts", "--no-audit", "--no-fund"], { cwd: folder, encoding: "utf8" });
      expect(run.status, run.stderr).toBe(0);
      expect(run.stdout).toMatch(/added \d+ packages/);
      expect(run.stderr.split("\n").filter((line) => line.includes("EBADENGINE"))).toEqual([]);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
