/**
 * The package's main entry, as `import "basemodel"` finds it (package.json exports), in a child
 * process: importing it reads the bundle's files only (not the dozens of dist/ modules) and
 * loads neither Node's http module nor the code of fetchSchemas, which is loaded when called;
 * --stac still works synchronously from it. Run `npm run build` first.
 */
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(__dirname, "../..");
const { exports } = JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")) as { exports: { ".": { default: string } } };
const MAIN = path.join(ROOT, exports["."].default);

/** Logs every file: URL the process resolves, on stderr, from Node's loader thread. */
const RESOLVE_LOGGER = `export async function resolve(specifier, context, next) {
  const result = await next(specifier, context);
  if (result.url.startsWith("file:")) console.error("resolved " + result.url);
  return result;
}`;

/** Runs `body` (an ES module body) after importing the main entry as `basemodel`; its stdout, and the project files resolved before and after `body`. */
function run(body: string): { stdout: string; before: string[]; after: string[] } {
  const script = `
    import { register } from "node:module";
    register("data:text/javascript," + encodeURIComponent(${JSON.stringify(RESOLVE_LOGGER)}));
    const basemodel = await import(${JSON.stringify(pathToFileURL(MAIN).href)});
    console.error("imported");
    const http = process.moduleLoadList.includes("NativeModule http");
    ${body}
    console.log(JSON.stringify({ http }));
  `;
  const child = spawnSync(process.execPath, ["--input-type=module", "-e", script], { cwd: ROOT, encoding: "utf8" });
  expect(child.status, child.stderr).toBe(0);
  const files = (lines: string) => [...lines.matchAll(/^resolved file:\/\/(.*)$/gm)].map((match) => path.relative(ROOT, match[1]!)).filter((file) => !file.startsWith(".."));
  const [before, after] = child.stderr.split("imported\n") as [string, string];
  return { stdout: child.stdout, before: files(before), after: files(after ?? "") };
}

describe("the package's main entry", () => {
  it("reads the bundle's own files only, and loads neither node:http nor fetchSchemas' code", () => {
    const { stdout, before } = run("");
    expect(before.every((file) => file.startsWith("dist/lib-bundle/")), before.join("\n")).toBe(true);
    expect(before.length).toBeLessThanOrEqual(3);
    expect(before.some((file) => file.includes("fetch"))).toBe(false);
    expect(JSON.parse(stdout.trim().split("\n").at(-1)!)).toEqual({ http: false });
  });

  it("validates with --stac synchronously, and loads fetchSchemas' code when it is called", () => {
    const { stdout, after } = run(`
      const { readFileSync } = await import("node:fs");
      const text = readFileSync("fixtures/stac-invalid/mlm-bands-without-raster-bands.json", "utf8");
      const { errors } = basemodel.validateItemText(text, { stac: true });
      console.log(JSON.stringify(errors.map((issue) => [issue.rule, issue.line])));
      console.log(JSON.stringify(await basemodel.fetchSchemas([JSON.parse(text)], {})));
    `);
    const [errors, report] = stdout.trim().split("\n").map((line) => JSON.parse(line));
    expect(errors).toEqual([["mlm-bands", 487]]);
    expect(report).toEqual({ downloaded: [], failed: [] });
    expect(after.some((file) => /^dist\/lib-bundle\/fetch-.*\.js$/.test(file)), after.join("\n")).toBe(true);
  });
});
