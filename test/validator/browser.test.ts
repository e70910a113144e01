/**
 * The library as bundlers and browsers take it: `import { validateItem } from "basemodel"`, found
 * through package.json "exports" from another project, bundled by esbuild. For the browser it
 * bundles with none of Node's modules and no shim, and what a page loads before it validates
 * anything stays under a budget; the compiled STAC schemas, rule sets and dataset rules are chunks
 * of their own, fetched when loadFor (or loadStac, loadRuleSet, loadDatasetRules) asks. The same
 * scenario (test/support/browser-scenario.ts: every fixture, with STAC, rule sets, fAIr's CI
 * profile and another prefix) gives the results it gives in Node, in a JavaScript context with no
 * Node at all (no require, no process), in Chromium, and in a bundle for Node. Before loading, an
 * option that needs more says which call loads it. Run `npm run build` first.
 */
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { runInContext, createContext } from "node:vm";
import type { ServerResponse } from "node:http";
import { gzipSync } from "node:zlib";
import { build, type BuildOptions, type Metafile } from "esbuild";
import { chromium } from "playwright-core";
import { describe, expect, it } from "vitest";
import * as basemodel from "../../src/index.js";
import { beforeLoading, validateFixtures, type Fixture } from "../support/browser-scenario.js";
import { afterFile } from "../support/cleanup.js";
import { jsonFiles } from "../support/json-files.js";
import { localServer } from "../support/local-http.js";
import { hasTool } from "../support/requirements.js";

const ROOT = path.resolve(__dirname, "../..");
const SCENARIO = path.join(ROOT, "test/support/browser-scenario.ts");
/** What a page loads before it validates anything: the bundle's entry and every chunk it imports, gzipped. */
const STARTUP_BUDGET = 80 * 1024;

const files: Fixture[] = ["valid", "invalid", "warning", "stac-invalid", "datasets"]
  .flatMap((folder) => jsonFiles(path.join(ROOT, "fixtures", folder)))
  .map((file) => ({ name: path.relative(ROOT, file), text: readFileSync(file, "utf8") }));
/** Every fixture, after a collection of the valid items and dataset items: loadFor reads each feature's needs, before any other load. */
const fixtures: Fixture[] = [
  {
    name: "a FeatureCollection of fixtures/valid and fixtures/datasets",
    text: JSON.stringify({ type: "FeatureCollection", features: files.filter(({ name }) => /^fixtures\/(valid|datasets)\/(?!expected)/.test(name)).map(({ text }) => JSON.parse(text) as unknown) }, null, 2),
  },
  ...files,
];
const readItem = (file: string): unknown => JSON.parse(readFileSync(path.join(ROOT, file), "utf8"));
/** A model item and a dataset item, validated before anything is loaded. */
const FIRST = { model: readItem("fixtures/valid/realistic-segmentation.json"), dataset: readItem("fixtures/datasets/valid.json") };
/** The scenario's results as plain JSON, whatever realm made them. */
const plain = (value: unknown): unknown => JSON.parse(JSON.stringify(value));
const expected = plain(await validateFixtures(basemodel, fixtures));

/**
 * A project of its own that depends on basemodel (node_modules/basemodel is this repository), so
 * that bundlers resolve the package through its "exports" as they would after `npm install`.
 */
function project(): string {
  const dir = mkdtempSync(path.join(tmpdir(), "basemodel-bundle-"));
  afterFile(() => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(path.join(dir, "package.json"), JSON.stringify({ name: "uses-basemodel", private: true, type: "module" }));
  mkdirSync(path.join(dir, "node_modules"));
  symlinkSync(ROOT, path.join(dir, "node_modules/basemodel"));
  return dir;
}

/** Bundles `source` (an ES module importing "basemodel") in a project of its own; esbuild's messages and the metafile. */
async function bundle(source: string, options: BuildOptions): Promise<{ dir: string; outdir: string; metafile: Metafile; messages: string[] }> {
  const dir = project();
  writeFileSync(path.join(dir, "entry.js"), source);
  const outdir = path.join(dir, "out");
  const result = await build({ entryPoints: [path.join(dir, "entry.js")], absWorkingDir: dir, bundle: true, outdir, metafile: true, write: true, logLevel: "silent", ...options });
  const messages = [...result.errors, ...result.warnings].map((message) => message.text);
  return { dir, outdir, metafile: result.metafile!, messages };
}

/** The scenario and the library under one global, for a page or a context to call. */
const SCENARIO_ENTRY = `import * as basemodel from "basemodel";
import { beforeLoading, validateFixtures, withoutFiles } from ${JSON.stringify(SCENARIO)};
globalThis.basemodelScenario = {
  beforeLoading: (item) => beforeLoading(basemodel, item),
  validateFixtures: (fixtures) => validateFixtures(basemodel, fixtures),
  withoutFiles: (item) => withoutFiles(basemodel, item),
};
`;

interface Scenario {
  beforeLoading(item: unknown): Record<string, string>;
  validateFixtures(fixtures: Fixture[]): Promise<unknown[]>;
  withoutFiles(item: unknown): Promise<Record<string, string>>;
}

/** Where there are no local files, the options that read or write them say that they need Node. */
function expectNodeOnly(outcomes: Record<string, string>): void {
  expect(outcomes).toEqual({
    schemaMap: "schemaMap needs Node.js: it reads or writes local files",
    schemaCache: "schemaCache needs Node.js: it reads or writes local files",
    fetchSchemas: "schemaCache needs Node.js: it reads or writes local files",
  });
}

type FirstAnswers = Record<keyof typeof FIRST, Record<string, string>>;

/** Both first items, before loading, in a realm whose scenario is given. */
const firstAnswers = (scenario: Pick<Scenario, "beforeLoading">): FirstAnswers => ({ model: scenario.beforeLoading(FIRST.model), dataset: scenario.beforeLoading(FIRST.dataset) });

/** Where nothing loads as it is needed, each option that needs more names the call that loads it; the others answer as in Node. */
function expectLoadCalls(before: FirstAnswers): void {
  const node = firstAnswers({ beforeLoading: (item) => beforeLoading(basemodel, item) });
  const stac = (url: string) => expect.stringContaining(`the compiled STAC schema ${url} is not loaded: call \`await loadStac(items)\` before validating with stac: true`);
  const ruleSet = expect.stringContaining('fAIr\'s rule set v1.0.0-current is not loaded: call `await loadRuleSet("v1.0.0-current")` before validating with it');
  const compiler = expect.stringContaining("compiles the rules with Ajv, which is not loaded: call `await loadCompiler()` first");
  expect(before).toEqual({
    // (rules "auto" picks v1.0.0 for the model item, which needs no load: the item lists its identifier.)
    model: { ...node.model, stac: stac("https://schemas.stacspec.org/v1.1.0/item-spec/json-schema/item.json"), fairCi: ruleSet, prefix: compiler },
    dataset: {
      ...node.dataset,
      stac: stac("https://schemas.stacspec.org/v1.1.0/item-spec/json-schema/item.json"),
      fairCi: ruleSet,
      auto: expect.stringContaining("fAIr's dataset rules are not loaded: call `await loadDatasetRules()` before validating a dataset item with fairChecks: true"),
      prefix: compiler,
    },
  });
}

/** Debian's Chromium, started by playwright-core (which never downloads a browser of its own). */
async function openChromium() {
  const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--use-angle=swiftshader", "--enable-unsafe-swiftshader"] });
  afterFile(() => browser.close());
  return browser.newPage();
}

describe("the browser build", () => {
  it(`bundles for the browser with none of Node's modules, and what a page loads first stays under ${STARTUP_BUDGET / 1024} KB gzipped`, async () => {
    const { outdir, metafile, messages } = await bundle(`import { validateItem } from "basemodel";\nglobalThis.validateItem = validateItem;\n`, {
      platform: "browser",
      format: "esm",
      splitting: true,
      minify: true,
    });
    expect(messages).toEqual([]);
    const outputs = Object.entries(metafile.outputs);
    expect(outputs.flatMap(([, output]) => output.imports.filter((entry) => entry.external).map((entry) => entry.path))).toEqual([]);
    const entry = outputs.find(([, output]) => output.entryPoint === "entry.js")![0];
    const startup = new Set<string>();
    const visit = (file: string): void => {
      if (startup.has(file)) return;
      startup.add(file);
      for (const imported of metafile.outputs[file]!.imports) if (imported.kind === "import-statement") visit(imported.path);
    };
    visit(entry);
    const gzipped = [...startup].reduce((sum, file) => sum + gzipSync(readFileSync(path.join(path.dirname(outdir), file)), { level: 9 }).length, 0);
    console.log(`startup of the browser bundle: ${startup.size} files, ${(gzipped / 1024).toFixed(1)} KB gzipped`);
    expect(gzipped).toBeLessThanOrEqual(STARTUP_BUDGET);
    // The compiled STAC schemas, fAIr's other rule sets and its dataset rules are not among them: they are chunks fetched when asked for.
    const loadedFirst = [...startup].flatMap((file) => Object.keys(metafile.outputs[file]!.inputs));
    expect(loadedFirst.filter((input) => /\/generated\/(stac|rule-sets|datasets)\//.test(input))).toEqual([]);
    expect(outputs.filter(([, output]) => Object.keys(output.inputs).some((input) => input.includes("/generated/stac/explain/"))).length).toBeGreaterThan(10);
  });

  it("gives Node's results in a JavaScript context without Node (no require, no process), once loadFor has loaded what each option set needs", async () => {
    const { outdir, messages } = await bundle(SCENARIO_ENTRY, { platform: "browser", format: "iife" });
    // An IIFE has no import.meta; the library only reads it where Node runs it.
    expect(messages.filter((message) => !message.includes('"import.meta" is not available'))).toEqual([]);
    const context = createContext({ URL, TextDecoder, TextEncoder, console });
    runInContext(readFileSync(path.join(outdir, "entry.js"), "utf8"), context);
    expect(runInContext("[typeof require, typeof process, typeof module]", context)).toEqual(["undefined", "undefined", "undefined"]);
    const scenario = context.basemodelScenario as Scenario;
    expectLoadCalls(plain(firstAnswers(scenario)) as FirstAnswers);
    expect(plain(await scenario.validateFixtures(fixtures))).toEqual(expected);
    expectNodeOnly(plain(await scenario.withoutFiles(FIRST.model)) as Record<string, string>);
  }, 120_000);

  it.runIf(hasTool(["chromium"], "chromium"))("gives Node's results in Chromium, fetching only the chunks it asks for", async () => {
    const { outdir, messages } = await bundle(SCENARIO_ENTRY, { platform: "browser", format: "esm", splitting: true });
    expect(messages).toEqual([]);
    const chunks = readdirSync(outdir);
    const script = (file: string) => (_request: unknown, response: ServerResponse) => response.writeHead(200, { "content-type": "text/javascript" }).end(readFileSync(path.join(outdir, file)));
    const server = await localServer({
      ...Object.fromEntries(chunks.map((file) => [`/${file}`, script(file)])),
      "/": (_request, response) => response.writeHead(200, { "content-type": "text/html" }).end('<!doctype html><meta charset="utf-8"><script type="module" src="./entry.js"></script>'),
    });
    const page = await openChromium();
    const pageErrors: string[] = [];
    page.on("pageerror", (error) => pageErrors.push(String(error.stack ?? error)));
    await page.goto(`${server.url}/`);
    await page.waitForFunction(() => "basemodelScenario" in globalThis);
    const before = await page.evaluate((first) => {
      const { beforeLoading } = (globalThis as unknown as { basemodelScenario: Scenario }).basemodelScenario;
      return { model: beforeLoading(first.model), dataset: beforeLoading(first.dataset) };
    }, FIRST);
    expectLoadCalls(before);
    const results = await page.evaluate((all) => (globalThis as unknown as { basemodelScenario: Scenario }).basemodelScenario.validateFixtures(all), fixtures);
    expect(results).toEqual(expected);
    expectNodeOnly(await page.evaluate((item) => (globalThis as unknown as { basemodelScenario: Scenario }).basemodelScenario.withoutFiles(item), FIRST.model));
    expect(pageErrors).toEqual([]);
    // Only the chunks the fixtures' schemas need were fetched, not every compiled schema.
    const fetched = [...server.requests.keys()].filter((request) => request.startsWith("GET /") && request.endsWith(".js")).length;
    expect(fetched).toBeLessThan(chunks.length);
  }, 180_000);

  it("gives Node's results bundled for Node, where the package's files are not beside the bundle", async () => {
    const { dir, outdir, messages } = await bundle(
      `${SCENARIO_ENTRY}const { readFileSync } = await import("node:fs");
const { first, all } = JSON.parse(readFileSync(process.argv[2], "utf8"));
const scenario = globalThis.basemodelScenario;
const before = { model: scenario.beforeLoading(first.model), dataset: scenario.beforeLoading(first.dataset) };
console.log(JSON.stringify({ before, results: await scenario.validateFixtures(all) }));
`,
      { platform: "node", format: "esm", splitting: true },
    );
    expect(messages).toEqual([]);
    const input = path.join(dir, "fixtures.json");
    writeFileSync(input, JSON.stringify({ first: FIRST, all: fixtures }));
    const { stdout, stderr, code } = await new Promise<{ stdout: string; stderr: string; code: number | null }>((resolve) => {
      const child = spawn(process.execPath, [path.join(outdir, "entry.js"), input], { cwd: dir });
      let stdout = "";
      let stderr = "";
      child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
      child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
      child.on("close", (code) => resolve({ stdout, stderr, code }));
    });
    expect(code, stderr).toBe(0);
    const body = JSON.parse(stdout) as { before: FirstAnswers; results: unknown[] };
    expectLoadCalls(body.before);
    expect(body.results).toEqual(expected);
  }, 120_000);
});

describe("the load calls", () => {
  const text = readFileSync(path.join(ROOT, "fixtures/valid/realistic-segmentation.json"), "utf8");

  it("refuse a rule set that does not exist, naming those that do", async () => {
    await expect(basemodel.loadRuleSet("v2.0.0" as never)).rejects.toThrow(new TypeError('rules must be one of "v1.0.0", "v1.0.0-current", "v1.1.0", "auto"; found a string ("v2.0.0")'));
  });

  it("take any values as items: what is not an item needs the newest core schema only", async () => {
    await expect(basemodel.loadStac([null, 42, "item", { stac_version: 1, stac_extensions: "mlm" }, { stac_extensions: [7, "https://example.com/x.json"] }])).resolves.toBeUndefined();
    await expect(basemodel.loadStac([])).resolves.toBeUndefined();
  });

  it("loadFor refuses what is neither a text nor parsed documents, and the options validateDocumentText refuses", async () => {
    await expect(basemodel.loadFor(42 as never)).rejects.toThrow(new TypeError("documents must be a text (a string or UTF-8 bytes) or an array of parsed documents; found a number (42)"));
    await expect(basemodel.loadFor({ type: "Feature" } as never)).rejects.toThrow(new TypeError("documents must be a text (a string or UTF-8 bytes) or an array of parsed documents; found an object"));
    await expect(basemodel.loadFor(text, { format: "xml" as never })).rejects.toThrow(new TypeError('format must be "json" or "ndjson"; found a string ("xml")'));
    await expect(basemodel.loadFor(text, { rules: "v2.0.0" as never })).rejects.toThrow(/^rules must be one of "v1\.0\.0", .*; found a string \("v2\.0\.0"\)$/);
    await expect(basemodel.loadFor(text, { stac: "yes" as never })).rejects.toThrow(new TypeError("stac must be a boolean; found a string (\"yes\")"));
  });

  it("loadFor takes a text that does not parse, or bytes, or NDJSON: what does not parse needs nothing, and validateDocumentText says why", async () => {
    await expect(basemodel.loadFor("{ not json", { stac: true })).resolves.toBeUndefined();
    expect(basemodel.validateDocumentText("{ not json", { stac: true })[0]!.errors[0]).toMatchObject({ rule: "json-syntax", line: 1 });
    await expect(basemodel.loadFor(new TextEncoder().encode(text), { profile: "fair-ci" })).resolves.toBeUndefined();
    await expect(basemodel.loadFor(`${JSON.stringify(JSON.parse(text))}\n{ broken\n`, { format: "ndjson", stac: true })).resolves.toBeUndefined();
    await expect(basemodel.loadFor([{ type: "FeatureCollection", features: [JSON.parse(text)] }], { stac: true })).resolves.toBeUndefined();
  });
});
