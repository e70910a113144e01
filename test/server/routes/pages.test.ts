/**
 * The pages' serving, over real HTTP, without a browser (test/web/ drives them in one): the built
 * pages of dist/web/ with their Content-Security-Policy, the hashed assets with long cache
 * headers and their gzip twins, the library the validator page runs (the package's own dist/ files), the settings the home page reads, and a server whose pages are
 * not built.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { get } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import Fastify from "fastify";
import { beforeAll, describe, expect, it } from "vitest";
import { afterFile } from "../../support/cleanup.js";
import { packageFile } from "../../../src/package-files.js";
import { pageSettingsSchema } from "../../../src/server/api/page.js";
import { pageRoutes } from "../../../src/server/routes/pages.js";
import { startExportServer, type ExportServer } from "./exports.js";
import { monacoStorePath, startServer, wireValidator } from "./helpers.js";

const BUILT = packageFile("dist/web/pages.json");

/** An answer's bytes as they come (Node's fetch would unzip them), and its Content-Encoding. */
function rawGet(url: string, acceptEncoding: string): Promise<{ encoding: string | undefined; body: Buffer }> {
  return new Promise((resolve, reject) => {
    get(url, { headers: { "accept-encoding": acceptEncoding } }, (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("end", () => resolve({ encoding: response.headers["content-encoding"], body: Buffer.concat(chunks) }));
    }).on("error", reject);
  });
}

/** The assets a page's HTML names. */
const assetsOf = (html: string) => [...html.matchAll(/(?:src|href)="(assets\/[^"]+)"/g)].map((match) => match[1]!);

describe("the web pages and their assets", () => {
  let server: ExportServer;
  beforeAll(async () => {
    expect(() => readFileSync(BUILT), "run npm run build: it builds web/ into dist/web/").not.toThrow();
    server = await startExportServer({ exports: { maxAreaKm2: 2_500 }, server: { plainMaxAreaKm2: 3 } });
  });

  it("GET / is the home page: HTML that loads only this server's hashed assets, under a CSP of 'self'", async () => {
    const response = await fetch(`${server.url}/`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(response.headers.get("cache-control")).toBe("no-cache");
    const policy = new Map(
      response.headers
        .get("content-security-policy")!
        .split(";")
        .map((directive) => directive.trim().split(/\s+/))
        .map(([name, ...values]) => [name!, values]),
    );
    expect(policy.get("default-src")).toEqual(["'self'"]);
    expect(policy.get("script-src")).toEqual(["'self'"]);
    expect(policy.get("connect-src")).toEqual(["'self'"]);
    expect(policy.get("style-src")).toEqual(["'self'"]);
    const html = await response.text();
    const assets = assetsOf(html);
    // The page's own, then the chunks it shares with the other pages (preloaded).
    const named = assets.map((asset) => asset.replace(/-[0-9A-Z]{8}\./, "-HASH."));
    expect(named.slice(0, 3)).toEqual(["assets/icon-HASH.svg", "assets/home-HASH.css", "assets/home-HASH.js"]);
    for (const chunk of named.slice(3)) expect(chunk).toBe("assets/chunk-HASH.js");
    expect(html).not.toMatch(/(?:src|href)="(?:https?:)?\/\//);
    // The API's docs stay one link away.
    expect(html).toContain('href="docs"');
  });

  it("serves each asset with a year's cache, and gzipped to a client that takes gzip (only to one)", async () => {
    const html = await (await fetch(`${server.url}/`)).text();
    const script = assetsOf(html).find((asset) => asset.endsWith(".js"))!;
    const plain = await fetch(`${server.url}/${script}`, { headers: { "accept-encoding": "identity" } });
    expect(plain.status).toBe(200);
    expect(plain.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect(plain.headers.get("content-type")).toMatch(/^(application|text)\/javascript/);
    const bytes = Buffer.from(await plain.arrayBuffer());
    const zipped = await rawGet(`${server.url}/${script}`, "gzip, deflate");
    expect(zipped.encoding).toBe("gzip");
    expect(zipped.body.length).toBeLessThan(bytes.length / 2);
    expect(gunzipSync(zipped.body).equals(bytes)).toBe(true);
    // gzip refused (q=0): the bytes as they are.
    const refused = await rawGet(`${server.url}/${script}`, "gzip;q=0, identity");
    expect(refused.encoding).toBeUndefined();
    expect(refused.body.equals(bytes)).toBe(true);
  });

  it("the script names MapLibre's worker, which is served as a JavaScript module", async () => {
    const html = await (await fetch(`${server.url}/`)).text();
    const script = await (await fetch(`${server.url}/${assetsOf(html).find((asset) => asset.endsWith(".js"))!}`)).text();
    const [worker] = script.match(/assets\/maplibre-gl-worker-[0-9A-Z]{8}\.mjs/) ?? [];
    expect(worker).toBeDefined();
    const response = await fetch(`${server.url}/${worker}`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^(application|text)\/javascript/);
  });

  it("serves the library the validator page's script names, the package's own dist/ files, with their ETag: 304 while unchanged", async () => {
    const html = await (await fetch(`${server.url}/validate`)).text();
    const script = await (await fetch(`${server.url}/${assetsOf(html).find((asset) => asset.endsWith(".js"))!}`)).text();
    const [, named] = /from"(\.\.\/\.\.\/lib-bundle\/index\.js)"/.exec(script) ?? [];
    expect(named).toBeDefined();
    const address = new URL(named!, `${server.url}/assets/`).href;
    expect(address).toBe(`${server.url}/lib-bundle/index.js`);
    const response = await fetch(address);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^(application|text)\/javascript/);
    expect(response.headers.get("cache-control")).toBe("no-cache");
    expect(Buffer.from(await response.arrayBuffer()).equals(readFileSync(packageFile("dist/lib-bundle/index.js")))).toBe(true);
    const etag = response.headers.get("etag")!;
    expect(etag).toMatch(/^"[\w-]+"$/);
    const again = await fetch(address, { headers: { "if-none-match": etag } });
    expect(again.status).toBe(304);
    // What it loads when asked: the compiled schemas and their runtime, which imports no package.
    for (const path of ["/generated/modules.js", "/generated/stac/verdict/schemas.stacspec.org/v1.1.0/item-spec/json-schema/item.js", "/ajv-runtime.js", "/ajv-formats.js"]) {
      const module = await fetch(`${server.url}${path}`);
      expect(module.status, path).toBe(200);
      expect(await module.text(), path).not.toMatch(/^import [^;]*from ?"[^.]/m);
    }
    // Nothing else of dist/: no declarations, no server code.
    for (const path of ["/generated/modules.d.ts", "/server/app.js", "/lib-bundle/nothing.js"]) expect((await fetch(`${server.url}${path}`)).status, path).toBe(404);
  });

  it("a file that is not there is a 404, not a redirect to its slash twin (the same route)", async () => {
    for (const path of ["/assets/home-00000000.js", "/docs/static/nothing.js"]) {
      const response = await fetch(`${server.url}${path}`, { redirect: "manual" });
      expect(response.status, path).toBe(404);
      expect(((await response.json()) as { detail: string }).detail, path).toBe(`nothing at ${path}`);
    }
  });

  it("GET /page/settings.json gives the page the server's limits and formats", async () => {
    const { status, body } = await server.get("/page/settings.json");
    expect(status).toBe(200);
    expect(wireValidator("PageSettings")(body)).toBe(true);
    expect(body).toEqual({
      exports: true,
      maxAreaKm2: 2_500,
      plainMaxAreaKm2: 3,
      outputTypes: ["geojson", "shp", "fgb", "gpkg", "kml", "csv", "parquet"],
      geometryTypes: ["point", "line", "polygon", "all_geometry"],
      accessTokens: false,
    });
  });

  it("without exports, the settings say so, with the default limits", async () => {
    const plain = await startServer(await monacoStorePath(), { users: [{ token: "t0ken", osmId: 1, username: "admin", role: "admin", imgUrl: null }] });
    const { body } = await plain.get("/page/settings.json");
    expect(body).toMatchObject({ exports: false, maxAreaKm2: 100_000, plainMaxAreaKm2: 6, accessTokens: true });
  });
});

describe("pages beside the home page", () => {
  it("each page of pages.json is served at its path, under the same policy", async () => {
    const root = mkdtempSync(join(tmpdir(), "basemodel-pages-"));
    afterFile(() => rmSync(root, { recursive: true, force: true }));
    mkdirSync(join(root, "assets"));
    writeFileSync(join(root, "home.html"), "<!doctype html><title>home</title>");
    writeFileSync(join(root, "validate.html"), "<!doctype html><title>validate</title>");
    writeFileSync(join(root, "pages.json"), JSON.stringify([{ name: "home", path: "/", html: "home.html" }, { name: "validate", path: "/validate", html: "validate.html" }]));
    const app = Fastify();
    app.addSchema(pageSettingsSchema);
    await app.register(pageRoutes, { root, exports: false, maxAreaKm2: 1, plainMaxAreaKm2: 1, accessTokens: false });
    const url = await app.listen({ port: 0, host: "127.0.0.1" });
    afterFile(() => app.close());
    for (const [path, title] of [
      ["/", "home"],
      ["/validate", "validate"],
    ]) {
      const response = await fetch(`${url}${path}`);
      expect(response.status, path).toBe(200);
      expect(await response.text(), path).toContain(`<title>${title}</title>`);
      expect(response.headers.get("content-security-policy"), path).toContain("default-src 'self'");
    }
  });
});

describe("a server whose pages are not built", () => {
  it("answers / with a 503 that says to build them, and has no /assets/", async () => {
    const empty = mkdtempSync(join(tmpdir(), "basemodel-no-pages-"));
    afterFile(() => rmSync(empty, { recursive: true, force: true }));
    const app = Fastify();
    app.addSchema(pageSettingsSchema);
    await app.register(pageRoutes, { root: empty, exports: false, maxAreaKm2: 1, plainMaxAreaKm2: 1, accessTokens: false });
    const url = await app.listen({ port: 0, host: "127.0.0.1" });
    afterFile(() => app.close());
    const home = await fetch(`${url}/`);
    expect(home.status).toBe(503);
    expect(((await home.json()) as { detail: string }).detail).toContain("run npm run build");
    expect((await fetch(`${url}/assets/home.js`)).status).toBe(404);
  });
});
