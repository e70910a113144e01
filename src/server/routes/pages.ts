/**
 * The server's web pages: GET / (the home page) and each other page of dist/web/pages.json at
 * /<name>, their assets under /assets/, and GET /page/settings.json, the limits the home page
 * shows while an area is drawn. The pages are built from web/ by scripts/build-web.mjs and ship
 * in the package; every script, style and icon they load comes from here.
 */
import { readdirSync, readFileSync } from "node:fs";
import { extname, join } from "node:path";
import { promisify } from "node:util";
import { gzip } from "node:zlib";
import type { FastifyInstance, FastifyPluginAsync } from "fastify";
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

/** Every asset, read once: a few MB that do not change while the server runs. */
function readAssets(folder: string): Map<string, Asset> {
  return new Map(readdirSync(folder).map((name) => [name, { type: CONTENT_TYPES[extname(name)] ?? "application/octet-stream", bytes: readFileSync(join(folder, name)) }]));
}

/** Whether an Accept-Encoding header takes gzip (with a quality above 0). */
function takesGzip(header: string | undefined): boolean {
  return (header ?? "").split(",").some((coding) => {
    const [name, ...parameters] = coding.trim().split(";");
    return name?.trim().toLowerCase() === "gzip" && !parameters.some((parameter) => /^\s*q\s*=\s*0(\.0*)?\s*$/.test(parameter));
  });
}

/** GET /assets/<name>: from memory, with a year's cache, gzipped to clients that take it. */
function serveAssets(app: FastifyInstance, assets: Map<string, Asset>): void {
  app.get<{ Params: { name: string } }>("/assets/:name", { schema: { hide: true } }, async (request, reply) => {
    const asset = assets.get(request.params.name);
    if (asset === undefined) return reply.callNotFound();
    reply.type(asset.type).header("cache-control", ASSET_CACHE).header("vary", "accept-encoding");
    if (!takesGzip(request.headers["accept-encoding"])) return reply.send(asset.bytes);
    asset.gzipped ??= gzipped(asset.bytes);
    return reply.header("content-encoding", "gzip").send(await asset.gzipped);
  });
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
