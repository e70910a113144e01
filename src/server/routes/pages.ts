/**
 * The server's web pages: GET / (the home page) and each other page of dist/web/pages.json at
 * /<name>, their assets under /assets/, the library the validator page runs (the package's own, at
 * its paths below dist/), and GET /page/settings.json, the limits the home page
 * shows while an area is drawn. The pages are built from web/ by scripts/build-web.mjs and ship
 * in the package; every script, style and icon they load comes from here.
 */
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { extname, join, sep } from "node:path";
import { promisify } from "node:util";
import { gzip } from "node:zlib";
import type { FastifyInstance, FastifyPluginAsync, FastifyReply, FastifyRequest } from "fastify";
import { OUTPUT_TYPES, SNAPSHOT_GEOMETRY_TYPES } from "../api/snapshot.js";
import type { PageSettings } from "../api/page.js";
import { packageFile } from "../../package-files.js";

export interface PagesContext {
  /** The built pages: dist/web/ of the package unless given. */
  root?: string;
  exports: boolean;
  maxAreaKm2: number;
  plainMaxAreaKm2: number;
  accessTokens: boolean;
}

interface BuiltPage {
  name: string;
  /** Where the page is served: "/" or "/<name>". */
  path: string;
  /** Its HTML file, in the root. */
  html: string;
}

/**
 * Only this server: scripts, styles, tiles and data from 'self', MapLibre's worker from 'self'
 * (blob: too, which MapLibre may use to start it). Images may be data: URLs, which MapLibre's
 * stylesheet uses for its controls' icons (nothing is fetched for them).
 */
export const PAGE_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "worker-src 'self' blob:",
  "style-src 'self'",
  "img-src 'self' data: blob:",
  "connect-src 'self'",
  "font-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'self'",
].join("; ");

const gzipped = promisify(gzip);

/** Hashed names (scripts/build-web.mjs): a changed file is a new name, so browsers may keep each for a year. */
const ASSET_CACHE = "public, max-age=31536000, immutable";
/** Names that stay when their content changes: asked again each time, answered 304 while their ETag holds. */
const LIBRARY_CACHE = "no-cache";

/**
 * The validator page runs the package's own library, beside dist/web/ (scripts/build-web.mjs): its
 * browser build and the modules that loads when asked, each at its path below dist/, which is where
 * the page's scripts, in /assets/, name them (../../lib-bundle/index.js leads to /lib-bundle/index.js).
 */
const LIBRARY = ["lib-bundle", "generated", "ajv-runtime.js", "ajv-formats.js"];

const CONTENT_TYPES: Record<string, string> = {
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".svg": "image/svg+xml",
};

interface Asset {
  type: string;
  bytes: Buffer;
  /** Made at the first request that takes gzip, then kept: a third of the bytes on the wire. */
  gzipped?: Promise<Buffer>;
}

/** The pages of `root`, or none when the build has not made them. */
function builtPages(root: string): BuiltPage[] {
  try {
    return JSON.parse(readFileSync(join(root, "pages.json"), "utf8")) as BuiltPage[];
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw error;
  }
}

const asset = (file: string): Asset => ({ type: CONTENT_TYPES[extname(file)] ?? "application/octet-stream", bytes: readFileSync(file) });

/** Every asset, read once: a few MB that do not change while the server runs. */
function readAssets(folder: string): Map<string, Asset> {
  return new Map(readdirSync(folder).map((name) => [name, asset(join(folder, name))]));
}

/**
 * The library's scripts below `folder` (the LIBRARY entries there), by their path from it to their
 * file; none where it has no such files. Only listed: their 6 MB are read when first asked for.
 */
function listLibrary(folder: string): Map<string, string> {
  const scripts = LIBRARY.flatMap((entry) => {
    const path = join(folder, entry);
    if (!existsSync(path)) return [];
    if (!statSync(path).isDirectory()) return [entry];
    return readdirSync(path, { recursive: true, encoding: "utf8" }).map((file) => `${entry}/${file.split(sep).join("/")}`);
  });
  return new Map(scripts.filter((file) => file.endsWith(".js")).map((file) => [file, join(folder, file)]));
}

/** Whether an Accept-Encoding header takes gzip (with a quality above 0). */
function takesGzip(header: string | undefined): boolean {
  return (header ?? "").split(",").some((coding) => {
    const [name, ...parameters] = coding.trim().split(";");
    return name?.trim().toLowerCase() === "gzip" && !parameters.some((parameter) => /^\s*q\s*=\s*0(\.0*)?\s*$/.test(parameter));
  });
}

/** An asset from memory, gzipped to clients that take it. */
async function sendAsset(request: FastifyRequest, reply: FastifyReply, asset: Asset | undefined, cache: string): Promise<FastifyReply> {
  if (asset === undefined) {
    reply.callNotFound();
    return reply;
  }
  reply.type(asset.type).header("cache-control", cache).header("vary", "accept-encoding");
  if (!takesGzip(request.headers["accept-encoding"])) return reply.send(asset.bytes);
  asset.gzipped ??= gzipped(asset.bytes);
  return reply.header("content-encoding", "gzip").send(await asset.gzipped);
}

/** GET /assets/<name>, with a year's cache. */
function serveAssets(app: FastifyInstance, assets: Map<string, Asset>): void {
  app.get<{ Params: { name: string } }>("/assets/:name", { schema: { hide: true } }, (request, reply) => sendAsset(request, reply, assets.get(request.params.name), ASSET_CACHE));
}

/** GET /<path> of each library script, asked again each time with its ETag (a hash of its bytes): 304 while unchanged. */
function serveLibrary(app: FastifyInstance, files: Map<string, string>): void {
  const read = new Map<string, { asset: Asset; etag: string }>();
  const script = (path: string) => {
    const file = files.get(path);
    if (file === undefined) return undefined;
    let known = read.get(path);
    if (known === undefined) {
      const found = asset(file);
      known = { asset: found, etag: `"${createHash("sha256").update(found.bytes).digest("base64url").slice(0, 22)}"` };
      read.set(path, known);
    }
    return known;
  };
  for (const entry of LIBRARY) {
    app.get<{ Params: { "*"?: string } }>(extname(entry) === "" ? `/${entry}/*` : `/${entry}`, { schema: { hide: true } }, (request, reply) => {
      const found = script(request.params["*"] === undefined ? entry : `${entry}/${request.params["*"]}`);
      if (found !== undefined) reply.header("etag", found.etag);
      if (found !== undefined && request.headers["if-none-match"] === found.etag) return reply.code(304).header("cache-control", LIBRARY_CACHE).send();
      return sendAsset(request, reply, found?.asset, LIBRARY_CACHE);
    });
  }
}

export const pageRoutes: FastifyPluginAsync<PagesContext> = async (app, context) => {
  const root = context.root ?? packageFile("dist/web");
  const pages = builtPages(root);
  for (const page of pages) {
    // Read once: the files of a package do not change while it runs.
    const html = readFileSync(join(root, page.html));
    app.get(page.path, { schema: { hide: true } }, (_request, reply) =>
      reply.type("text/html; charset=utf-8").header("cache-control", "no-cache").header("content-security-policy", PAGE_CSP).send(html),
    );
  }
  if (pages.length === 0) {
    app.get("/", { schema: { hide: true } }, (_request, reply) =>
      reply.code(503).send({ detail: `the web pages are not built (no ${join(root, "pages.json")}): run npm run build; the API works without them, its docs at /docs` }),
    );
  } else {
    serveAssets(app, readAssets(join(root, "assets")));
    serveLibrary(app, listLibrary(join(root, "..")));
  }

  const settings: PageSettings = {
    exports: context.exports,
    maxAreaKm2: context.maxAreaKm2,
    plainMaxAreaKm2: context.plainMaxAreaKm2,
    outputTypes: [...OUTPUT_TYPES],
    geometryTypes: [...SNAPSHOT_GEOMETRY_TYPES],
    accessTokens: context.accessTokens,
  };
  app.get(
    "/page/settings.json",
    { schema: { tags: ["pages"], summary: "This server's limits and export formats, for its home page", response: { 200: { $ref: "PageSettings#" } } } },
    async () => settings,
  );
};
