// The validator page's JavaScript, gzipped, as Debian's Chromium loads it from a plain static
// server: what it loads to validate with the base rules, then what --stac adds for one item;
// beside it, as the reference of the same build and browser, the home page's scripts at load.
// The server serves dist/, as a static host of the pages does (the validator page runs the
// library of dist/lib-bundle/ and dist/generated/); each script is gzipped here as the server's
// assets are. `npm run build` first; `node bench/validate-page.mjs`.
import { readFileSync, statSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { createServer } from "node:http";
import { extname, join } from "node:path";
import { gzipSync } from "node:zlib";
import { chromium } from "playwright-core";

const ROOT = new URL("..", import.meta.url).pathname;
const DIST = join(ROOT, "dist");
const TYPES = { ".html": "text/html", ".js": "text/javascript", ".mjs": "text/javascript", ".css": "text/css", ".svg": "image/svg+xml" };
const fixture = (name) => readFileSync(join(ROOT, "fixtures", name), "utf8");

const server = createServer((request, response) => {
  const path = new URL(request.url, "http://host").pathname;
  readFile(join(DIST, path)).then(
    (bytes) => response.writeHead(200, { "content-type": TYPES[extname(path)] ?? "application/octet-stream" }).end(bytes),
    () => response.writeHead(404).end(),
  );
});
await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
const site = `http://127.0.0.1:${server.address().port}/`;
const browser = await chromium.launch({ executablePath: "/usr/bin/chromium" });

/** A page whose scripts (their paths below dist/) are recorded as it asks for them. */
async function watched() {
  const page = await browser.newPage();
  const scripts = new Set();
  page.on("request", (request) => {
    if (/\.m?js$/.test(request.url())) scripts.add(new URL(request.url()).pathname);
  });
  return { page, scripts };
}

function size(paths) {
  const files = paths.map((path) => join(DIST, path));
  const of = (bytes) => files.reduce((sum, file) => sum + bytes(file), 0);
  const gzipped = of((file) => gzipSync(readFileSync(file)).length);
  return `${paths.length} files, ${(gzipped / 1024).toFixed(1)} KB gzipped (${(of((file) => statSync(file).size) / 1024).toFixed(1)} KB)`;
}

/** Waits for the summary to count items (functions given to the page run there, with its globals). */
const validated = (page) => page.waitForFunction('/\\d+ items?: /.test(document.querySelector("[role=status]").textContent)');

const { page, scripts } = await watched();
await page.goto(`${site}web/validate.html`);
await page.getByLabel("Item JSON", { exact: true }).fill(fixture("invalid/enum-mlm-framework-case.json"));
await page.getByRole("button", { name: "Validate", exact: true }).click();
await validated(page);
const base = [...scripts];
console.log(`validator page, base rules (load and one validation): ${size(base)}`);

await page.getByLabel("Item JSON", { exact: true }).fill(fixture("valid/realistic-segmentation.json"));
await page.getByRole("checkbox", { name: /--stac/ }).check();
await page.waitForFunction('document.querySelector("[role=status]").textContent !== "Validating…"');
await validated(page);
console.log(`+ --stac for fixtures/valid/realistic-segmentation.json: ${size([...scripts].filter((name) => !base.includes(name)))}`);

const home = await watched();
await home.page.goto(`${site}web/home.html`);
await home.page.waitForLoadState("networkidle");
console.log(`reference, the home page at load: ${size([...home.scripts])}`);

await browser.close();
server.close();
