/**
 * The server's web pages: GET / (the home page) and each other page of dist/web/pages.json at
 * /<name>, their assets under /assets/, and GET /page/settings.json, the limits the home page
 * shows while an area is drawn. The pages are built from web/ by scripts/build-web.mjs and ship
 * in the package; every script, style and icon they load comes from here.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
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

/** Hashed names (scripts/build-web.mjs): a changed file is a new name, so browsers may keep each for a year. */
const ASSET_MAX_AGE = "365d";

/** The pages of `root`, or none when the build has not made them. */
function builtPages(root: string): BuiltPage[] {
  try {
    return JSON.parse(readFileSync(join(root, "pages.json"), "utf8")) as BuiltPage[];
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw error;
  }
}

/** The assets under /assets/, each sent gzipped to a browser that takes it (the build wrote the gzip beside it). */
async function registerAssets(app: FastifyInstance, folder: string): Promise<void> {
  const { default: assets } = await import("@fastify/static");
  await app.register(assets, {
    root: folder,
    prefix: "/assets/",
    // @fastify/swagger-ui registers it too: this one adds nothing to the reply.
    decorateReply: false,
    index: false,
    immutable: true,
    maxAge: ASSET_MAX_AGE,
    preCompressed: true,
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
    await registerAssets(app, join(root, "assets"));
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
