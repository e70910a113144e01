/**
 * Extension schemas downloaded once into a persistent cache: fetchSchemas (library) and
 * basemodel validate --stac --fetch / --offline (the real CLI), against a real HTTP server on
 * 127.0.0.1 that counts the requests it gets.
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { fetchSchemas, validateItem } from "../../../src/index.js";
import { basemodel, ROOT, scratchDir } from "../../cli/helpers.js";
import { localServer, type Route } from "../../support/local-http.js";


const json =
  (body: () => unknown): Route =>
  (_request, response) =>
    response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(body()));

/** Bytes each endless answer wrote before its client went away. */
const written: Record<string, number> = {};

/** An answer that never ends (or declares 10 GB): what a schema must not be read as, to the end. */
const endless =
  (name: string, declared?: number): Route =>
  (_request, response) => {
    written[name] = 0;
    response.writeHead(200, { "content-type": "application/json", ...(declared === undefined ? {} : { "content-length": String(declared) }) });
    const chunk = Buffer.alloc(64 * 1024, "x");
    const write = () => {
      while (!response.destroyed && response.write(chunk)) written[name]! += chunk.length;
    };
    response.on("drain", write);
    response.write('{"description": "');
    write();
  };

const server = await localServer({
  "/endless/v1.0.0/schema.json": endless("endless"),
  "/declared/v1.0.0/schema.json": endless("declared", 10 * 1024 ** 3),
  // The extension's schema, whose $ref leads to a second document on the same server.
  "/demo/v1.0.0/schema.json": json(() => ({
    $schema: "http://json-schema.org/draft-07/schema#",
    type: "object",
    properties: { properties: { type: "object", properties: { "demo:mode": { $ref: "../../common/v1.0.0/defs.json#/definitions/mode" } } } },
  })),
  "/common/v1.0.0/defs.json": json(() => ({ definitions: { mode: { enum: ["fast", "exact"] } } })),
  "/html/v1.0.0/schema.json": (_request, response) => response.writeHead(200, { "content-type": "text/html" }).end("<!DOCTYPE html><title>Not here</title>"),
});

const DEMO = `${server.url}/demo/v1.0.0/schema.json`;
const COMMON = `${server.url}/common/v1.0.0/defs.json`;
const GONE = `${server.url}/gone/v1.0.0/schema.json`;
const HTML = `${server.url}/html/v1.0.0/schema.json`;

/** The realistic fixture (valid STAC) listing these extensions too, with demo:mode wrong. */
function itemListing(...urls: string[]) {
  const item = JSON.parse(readFileSync(path.join(ROOT, "fixtures/valid/realistic-segmentation.json"), "utf8"));
  item.stac_extensions.push(...urls);
  item.properties["demo:mode"] = "fest";
  return item;
}

const MODE_FINDING = 'properties.demo:mode must be one of "fast", "exact"; found a string ("fest")';

describe("fetchSchemas", () => {
  it("downloads what an item's extensions need into the cache, once: validateItem then checks them offline", async () => {
    const cache = scratchDir();
    const item = itemListing(DEMO);
    expect(await fetchSchemas([item], { schemaCache: cache })).toEqual({ downloaded: [DEMO, COMMON], failed: [] });
    expect(existsSync(path.join(cache, "http", server.url.slice("http://".length).replace(":", "_"), "demo/v1.0.0/schema.json"))).toBe(true);
    const { errors } = validateItem(item, { stac: true, schemaCache: cache });
    expect(errors.map(({ rule, path, message, schema }) => ({ rule, path, message, schema }))).toEqual([{ rule: "stac-extension", path: "/properties/demo:mode", message: MODE_FINDING, schema: DEMO }]);
    // What the cache holds is never asked again.
    expect(await fetchSchemas([item, item], { schemaCache: cache })).toEqual({ downloaded: [], failed: [] });
    expect([server.count("GET", "/demo/v1.0.0/schema.json"), server.count("GET", "/common/v1.0.0/defs.json")]).toEqual([1, 1]);
  });

  it("says why a schema could not be downloaded, and leaves its extension unchecked", async () => {
    const cache = scratchDir();
    const item = itemListing(GONE, HTML);
    expect(await fetchSchemas([item], { schemaCache: cache })).toEqual({
      downloaded: [],
      failed: [
        { url: GONE, reason: "the server answered 404 Not Found" },
        { url: HTML, reason: 'the answer is not JSON (it begins "<!DOCTYPE html><title>Not here</title>")' },
      ],
    });
    const { warnings } = validateItem(item, { stac: true, schemaCache: cache });
    expect(warnings.map((issue) => issue.rule)).toEqual(["stac-extension-unknown", "stac-extension-unknown"]);
  });

  it("reads no more of an answer than a schema can hold: one that never ends, or declares 10 GB, fails at once", async () => {
    const cache = scratchDir();
    const urls = ["endless", "declared"].map((name) => `${server.url}/${name}/v1.0.0/schema.json`);
    const reason = "the answer is larger than 4 MiB, far more than any JSON Schema; it was not read further";
    // Well before the timeout: the command stops reading, the server stops writing.
    const report = await fetchSchemas([itemListing(...urls)], { schemaCache: cache, timeoutMs: 120_000 });
    expect(report.downloaded).toEqual([]);
    expect(report.failed.sort((a, b) => a.url.localeCompare(b.url))).toEqual(urls.sort().map((url) => ({ url, reason })));
    expect(written.endless).toBeLessThan(64 * 1024 * 1024);
    expect(written.declared).toBeLessThan(64 * 1024 * 1024);
  });

  it("checks its options", async () => {
    await expect(fetchSchemas([], { timeoutMs: -1 })).rejects.toThrow(new TypeError("timeoutMs must be a number of milliseconds above 0; found a number (-1)"));
    await expect(fetchSchemas([], { schemaCache: 5 } as object)).rejects.toThrow(new TypeError("schemaCache must be true, false or a folder; found a number (5)"));
  });
});

describe("basemodel validate --stac --fetch / --offline", () => {
  const run = (args: string[], cacheHome: string) => basemodel(["validate", "--stac", "--no-color", ...args], { env: { XDG_CACHE_HOME: cacheHome } });

  it("--fetch downloads an extension schema once into $XDG_CACHE_HOME/basemodel/schemas; later runs, --offline ones too, use the copy", async () => {
    const cacheHome = scratchDir();
    const file = path.join(scratchDir(), "item.json");
    writeFileSync(file, JSON.stringify(itemListing(DEMO), null, 2));
    const before = server.count("GET", "/demo/v1.0.0/schema.json");
    const first = await run(["--fetch", file], cacheHome);
    expect(first.code).toBe(1);
    expect(first.stdout).toContain(`${file}:458:18  error  stac-extension  ${MODE_FINDING}`);
    expect(existsSync(path.join(cacheHome, "basemodel/schemas/http", server.url.slice("http://".length).replace(":", "_"), "demo/v1.0.0/schema.json"))).toBe(true);
    const again = await run(["--fetch", file], cacheHome);
    const offline = await run(["--offline", file], cacheHome);
    expect(server.count("GET", "/demo/v1.0.0/schema.json") - before).toBe(1);
    expect(again.stdout.split("\n").slice(0, -2)).toEqual(first.stdout.split("\n").slice(0, -2));
    expect(offline.stdout.split("\n").slice(0, -2)).toEqual(first.stdout.split("\n").slice(0, -2));
  });

  it("--offline with an empty cache sends no request: the extension is a warning naming its URL and how to check it", async () => {
    const file = path.join(scratchDir(), "item.json");
    const url = `${server.url}/demo/v1.0.0/schema.json?offline`;
    writeFileSync(file, JSON.stringify(itemListing(url), null, 2));
    const offline = await run(["--offline", file], scratchDir());
    expect(offline.code).toBe(0);
    expect(offline.stdout).toContain(
      `warning  stac-extension-unknown  stac_extensions[6] is not checked: this schema is not bundled, nor mapped, nor downloaded; found "${url}" (to check it, give a local copy with --schema-map "${url}=<file>" or download it once with --fetch; in the library, schemaMap or fetchSchemas)`,
    );
    expect(server.count("GET", "/demo/v1.0.0/schema.json?offline")).toBe(0);
  });

  it("--fetch says on standard error why a schema could not be downloaded, once per URL", async () => {
    const folder = scratchDir();
    for (const name of ["a", "b"]) writeFileSync(path.join(folder, `${name}.json`), JSON.stringify(itemListing(GONE)));
    const result = await run(["--fetch", folder], scratchDir());
    expect(result.stderr).toBe(`basemodel: cannot download ${GONE}: the server answered 404 Not Found; the extension is not checked\n`);
    expect(result.stdout.match(/stac-extension-unknown/g)).toHaveLength(2);
  });

  it("--fetch and --offline without --stac are usage errors", async () => {
    const file = path.join(ROOT, "fixtures/valid/minimal.json");
    for (const flag of ["--fetch", "--offline"]) {
      const run = await basemodel(["validate", flag, file]);
      expect([run.code, run.stderr]).toEqual([2, "basemodel: --schema-map, --fetch and --offline choose the extension schemas that --stac checks: add --stac\n"]);
    }
  });
});
