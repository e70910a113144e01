// The web pages (web/) into dist/web/, what `basemodel serve` serves (src/server/routes/pages.ts):
//   dist/web/<page>.html          one per folder of web/ with a main.ts (web/shared/ is no page),
//                                 from web/shared/page.html, naming its hashed script, style and
//                                 chunks, with the page's own web/<page>/head.html when it has one
//   dist/web/assets/<name>-<hash>  the pages' scripts and styles (esbuild, minified, shared chunks
//                                 split out), MapLibre's worker, the icon (the server gzips them)
//   dist/web/pages.json            the pages: name, path served at, HTML file
// Hashed names change with their content: the server may tell browsers to keep them for a year.
// Nothing is fetched from elsewhere at run time: every script, style and icon is in assets/, but
// the library the validator page runs, which is the package's own (dist/lib-bundle/, dist/generated/).
import { createHash } from "node:crypto";
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { basename, extname, join, relative } from "node:path";
import { build } from "esbuild";

const require = createRequire(import.meta.url);
const ASSETS = "assets";
/** The page served at the server's root; every other page at /<its folder's name>. */
const HOME = "home";

const hashOf = (bytes) => createHash("sha256").update(bytes).digest("hex").slice(0, 8).toUpperCase();

/** Copies `source` into the assets as <name>-<hash><ext>; returns its path relative to dist/web. */
function copyHashed(source, assets) {
  const bytes = readFileSync(source);
  const extension = extname(source);
  const name = `${basename(source, extension)}-${hashOf(bytes)}${extension}`;
  copyFileSync(source, join(assets, name));
  return `${ASSETS}/${name}`;
}

/** The pages: every folder of web/ with a main.ts but shared/. */
function pageNames(webRoot) {
  return readdirSync(webRoot, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && entry.name !== "shared" && existsSync(join(webRoot, entry.name, "main.ts")))
    .map((entry) => entry.name)
    .sort();
}

const escapeAttribute = (text) => text.replace(/&/g, "&amp;").replace(/"/g, "&quot;");

/**
 * The library (`import … from "basemodel"`, the validator page's) as the package's own build, not
 * a copy: its browser build dist/lib-bundle/ and the compiled schemas of dist/generated/ it loads
 * when asked, which the package then holds once. The address is relative to the script in
 * dist/web/assets/, so a static host serves dist/; `basemodel serve` serves those folders at its
 * root (src/server/routes/pages.ts), where ../../ from /assets/ leads.
 */
const packageLibrary = {
  name: "package-library",
  setup(build) {
    build.onResolve({ filter: /^basemodel$/ }, () => ({ path: "../../lib-bundle/index.js", external: true }));
  },
};

/** Builds web/ of the package at `root` (a file URL) into dist/web/. */
export async function buildWeb(root) {
  const rootPath = new URL(".", root).pathname;
  const webRoot = join(rootPath, "web");
  const out = new URL("dist/web/", root).pathname;
  const assets = join(out, ASSETS);
  rmSync(out, { recursive: true, force: true });
  mkdirSync(assets, { recursive: true });

  // MapLibre GL 6 runs its worker from a module of its own, whose URL the page gives it (setWorkerUrl).
  const worker = copyHashed(require.resolve("maplibre-gl/dist/maplibre-gl-worker.mjs"), assets);
  const icon = copyHashed(join(webRoot, "shared", "icon.svg"), assets);

  const names = pageNames(webRoot);
  const result = await build({
    entryPoints: Object.fromEntries(names.map((name) => [name, join(webRoot, name, "main.ts")])),
    outdir: assets,
    bundle: true,
    splitting: true,
    format: "esm",
    platform: "browser",
    target: ["es2022", "chrome111", "firefox111", "safari16"],
    minify: true,
    entryNames: "[name]-[hash]",
    chunkNames: "chunk-[hash]",
    assetNames: "[name]-[hash]",
    // Relative to the page (assets/…), so that the pages work below any path and from a static host.
    define: { BASEMODEL_MAPLIBRE_WORKER: JSON.stringify(worker) },
    // The licences of MapLibre, terra-draw and the rest stay in the files that carry their code.
    legalComments: "eof",
    metafile: true,
    // The metafile then names every file from the package's root (web/home/main.ts).
    absWorkingDir: rootPath,
    plugins: [packageLibrary],
    logLevel: "warning",
  });

  const template = readFileSync(join(webRoot, "shared", "page.html"), "utf8");
  const outputs = Object.entries(result.metafile.outputs);
  const pages = names.map((name) => {
    const [script, output] = outputs.find(([, entry]) => entry.entryPoint === `web/${name}/main.ts`) ?? [];
    if (script === undefined) throw new Error(`esbuild wrote no script for the page ${name}`);
    const path = (file) => escapeAttribute(relative(out, join(rootPath, file)));
    // The chunks the script imports before it runs: asked for with the script, not after it.
    // (The library's entry too, whose address is relative to the script: see packageLibrary.)
    const preloaded = output.imports.filter((imported) => imported.kind === "import-statement").map((imported) => (imported.external ? escapeAttribute(relative(out, join(assets, imported.path))) : path(imported.path)));
    const chunks = [...new Set(preloaded)].map((href) => `<link rel="modulepreload" href="${href}">`);
    const ownHead = join(webRoot, name, "head.html");
    const head = [
      `<link rel="icon" href="${escapeAttribute(icon)}" type="image/svg+xml">`,
      ...(output.cssBundle ? [`<link rel="stylesheet" href="${path(output.cssBundle)}">`] : []),
      `<script type="module" src="${path(script)}"></script>`,
      ...chunks,
      // A page's own lines, if it has any (what it will ask the server for at once, say).
      ...(existsSync(ownHead) ? [readFileSync(ownHead, "utf8").trim()] : []),
    ].join("\n");
    const html = `${name}.html`;
    writeFileSync(join(out, html), template.replace("<!-- head -->", head));
    return { name, path: name === HOME ? "/" : `/${name}`, html };
  });
  writeFileSync(join(out, "pages.json"), `${JSON.stringify(pages, null, 2)}\n`);

  return pages;
}
