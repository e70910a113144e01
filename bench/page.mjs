// The home page in a real browser (Debian's chromium through playwright-core, as test/web runs it):
//   - the time from asking for the page to an idle map (its container's aria-busy turns false),
//     beside the time /docs (Swagger UI) takes to render every operation, in the same browser,
//     alternating which goes first, each load in a fresh context (nothing cached);
//   - the tiles the page asks for while it is moved over all of Monaco at z12 to z16 (the view
//     set through the address, #zoom/lat/lon, a screen at a time): the largest, beside the median.
// Targets (issue 27): the page idle in no more than /docs' time; no tile over 200 KB.
// Options: --rounds 6; --against <commit>: the home page of <commit> too (its server built in a
// temporary folder with this checkout's node_modules, on the same store file), in the same rounds.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { execFileSync } from "node:child_process";
import { parseArgs } from "node:util";
import { chromium } from "playwright-core";
import { buildCommit, commitLabels } from "./commit.mjs";
import { availability, startServe } from "./server.mjs";

const root = new URL("..", import.meta.url).pathname;
const MONACO = join(root, "fixtures/osm/monaco-2025-01-01.osm.pbf");
// As test/support/browser.ts launches it: software WebGL, none of the browser's own traffic.
const CHROMIUM_ARGS = ["--use-angle=swiftshader", "--enable-unsafe-swiftshader", "--disable-background-networking", "--disable-component-update", "--disable-domain-reliability", "--disable-sync", "--no-first-run"];
const VIEWPORT = { width: 1280, height: 800 };
const PATIENCE = { timeout: 180_000 };
const TILE_LIMIT = 200 * 1024;

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length / 2;
  return Number.isInteger(middle) ? (sorted[middle - 1] + sorted[middle]) / 2 : sorted[Math.floor(middle)];
};

/** Milliseconds from asking for `path` in a fresh context until `ready(page)` resolves. */
async function timed(browser, url, ready) {
  const context = await browser.newContext({ viewport: VIEWPORT });
  const page = await context.newPage();
  const started = performance.now();
  await page.goto(url);
  await ready(page);
  const ms = performance.now() - started;
  await context.close();
  return ms;
}

// Both pages are watched alike, at every animation frame (waitForFunction's polling). Not
// locator.waitFor(), which looks again after 20, 50, 100, 100 and then every 500 ms: a map idle
// just after a look was seen up to half a second late.
const homeIdle = (page) => page.waitForFunction(() => globalThis.document.querySelector("#map[aria-busy=false]") !== null, undefined, PATIENCE);
// Swagger UI has rendered the document: an operation per route.
const docsRendered = (page) => page.waitForFunction(() => globalThis.document.querySelectorAll(".opblock-summary-path").length > 40, undefined, PATIENCE);

/** "26 answered 200, 34 answered 204". */
function statuses(tiles) {
  const counts = new Map();
  for (const { status } of tiles) counts.set(status, (counts.get(status) ?? 0) + 1);
  return [...counts].map(([status, count]) => `${count} answered ${status}`).join(", ");
}

/** Web Mercator tile coordinates of a longitude and latitude at zoom `z`, fractional. */
function tileOf(lon, lat, z) {
  const n = 2 ** z;
  const rad = (lat * Math.PI) / 180;
  return { x: ((lon + 180) / 360) * n, y: ((1 - Math.log(Math.tan(rad) + 1 / Math.cos(rad)) / Math.PI) / 2) * n };
}
function lonLatOf(x, y, z) {
  const n = 2 ** z;
  return { lon: (x / n) * 360 - 180, lat: (Math.atan(Math.sinh(Math.PI * (1 - (2 * y) / n))) * 180) / Math.PI };
}

/** Moves the page over `bounds` at each zoom, a map's width and height at a time; every tile answer's size. */
async function panTiles(browser, url, bounds) {
  const context = await browser.newContext({ viewport: VIEWPORT });
  const page = await context.newPage();
  const tiles = [];
  page.on("response", async (response) => {
    if (!/\/tiles\/\d+\/\d+\/\d+/.test(response.url())) return;
    const body = await response.body().catch(() => Buffer.alloc(0));
    tiles.push({ url: new URL(response.url()).pathname, status: response.status(), bytes: body.length });
  });
  await page.goto(url);
  await homeIdle(page);
  const map = await page.locator("#map").boundingBox();
  const [west, south, east, north] = bounds;
  for (let z = 12; z <= 16; z++) {
    // A screen is map.width / 256 tiles wide at zoom z (MapLibre's tiles are 512 px at z-1: the same ground).
    const across = map.width / 256;
    const down = map.height / 256;
    const from = tileOf(west, north, z);
    const to = tileOf(east, south, z);
    for (let y = from.y + down / 2; y < to.y + down / 2; y += down) {
      for (let x = from.x + across / 2; x < to.x + across / 2; x += across) {
        const { lon, lat } = lonLatOf(x, y, z);
        await page.evaluate((hash) => (globalThis.location.hash = hash), `${z}/${lat.toFixed(6)}/${lon.toFixed(6)}`);
        // The map starts loading tiles after the hash change (none, where it has them all): then it is idle again.
        await page.locator("#map[aria-busy=true]").waitFor({ timeout: 2000 }).catch(() => undefined);
        await homeIdle(page);
      }
    }
  }
  await context.close();
  return tiles;
}

/** The box of every building of the store: "all of Monaco" (its extract reaches far out to sea with a boundary or two). */
async function buildingBounds(url) {
  const response = await fetch(`${url}/raw/polygonsList`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ tags: "building", pageSize: 5000 }) });
  const rows = await response.json();
  const lons = rows.map((row) => row.lon);
  const lats = rows.map((row) => row.lat);
  return [Math.min(...lons), Math.min(...lats), Math.max(...lons), Math.max(...lats)];
}

export async function run(argv = []) {
  const { values } = parseArgs({ args: argv, options: { rounds: { type: "string", default: "6" }, against: { type: "string" } } });
  const rounds = Number(values.rounds);
  const dir = mkdtempSync(join(tmpdir(), "basemodel-bench-page-"));
  const db = join(dir, "monaco.db");
  execFileSync(process.execPath, [join(root, "bin/basemodel.js"), "import", MONACO, "--db", db], { stdio: "ignore" });
  const labels = values.against === undefined ? undefined : commitLabels(values.against, ["src", "scripts", "web"]);
  const againstBin = labels === undefined ? undefined : buildCommit(labels.commit, dir);
  const servers = [{ server: await startServe(db), of: "" }];
  if (againstBin !== undefined) servers.push({ server: await startServe(db, 1, join(dir, "exports-against"), againstBin), of: ` of ${labels.commit}` });
  const [{ server }] = servers;
  const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", headless: true, args: CHROMIUM_ARGS });
  const lines = [];
  try {
    const machine = availability(3000);
    lines.push(`Machine: a busy loop got ${(machine.share * 100).toFixed(0)} % of a core (longest stall ${machine.longest.toFixed(0)} ms).`, "");
    if (labels !== undefined) lines.push(`"Home page" is ${labels.current}'s; "home page of ${labels.commit}" is that commit's, served beside it from the same store.`, "");
    // A first load of each, not counted: a server reads its files and compiles its routes once.
    for (const { server: each } of servers) await timed(browser, `${each.url}/`, homeIdle);
    await timed(browser, `${server.url}/docs`, docsRendered);
    // The page as it opens (at the TileJSON's center), and opened at a view of Monaco's centre at
    // z15, where it draws the most (a link to a view, #zoom/lat/lon, opens there).
    const pages = servers.flatMap(({ server: each, of }) => [
      [`home page${of}`, `${each.url}/`],
      [`home page${of} at #15/43.7347/7.4251`, `${each.url}/#15/43.7347/7.4251`],
    ]);
    const times = Object.fromEntries([["docs", []], ...pages.map(([name]) => [name, []])]);
    lines.push(`| Round | ${pages.map(([name]) => `${name[0].toUpperCase()}${name.slice(1)} to an idle map`).join(" | ")} | /docs rendered | Ratios |`, `|${"---|".repeat(pages.length + 3)}`);
    for (let round = 0; round < rounds; round++) {
      // Which goes first turns round by round.
      const order = [...pages.map(([name, url]) => [name, url, homeIdle]), ["docs", `${server.url}/docs`, docsRendered]];
      for (let turn = 0; turn < round % order.length; turn++) order.push(order.shift());
      const ms = {};
      for (const [name, url, ready] of order) ms[name] = await timed(browser, url, ready);
      for (const name of Object.keys(times)) times[name].push(ms[name]);
      lines.push(`| ${round + 1} | ${pages.map(([name]) => `${ms[name].toFixed(0)} ms`).join(" | ")} | ${ms.docs.toFixed(0)} ms | ${pages.map(([name]) => `${(ms[name] / ms.docs).toFixed(2)}x`).join(", ")} |`);
    }
    lines.push("");
    for (const [name] of pages) {
      const ratios = times[name].map((ms, index) => ms / times.docs[index]);
      lines.push(`Median, ${name}: ${median(times[name]).toFixed(0)} ms beside /docs ${median(times.docs).toFixed(0)} ms; ratio ${median(ratios).toFixed(2)}x (${Math.min(...ratios).toFixed(2)}-${Math.max(...ratios).toFixed(2)}); target ≤ 1.0x.`);
    }
    lines.push("");

    if ((await fetch(`${server.url}/tiles.json`)).status !== 200) {
      lines.push("Tiles: the server has no /tiles.json; not measured.");
    } else {
      const bounds = await buildingBounds(server.url);
      const tiles = await panTiles(browser, `${server.url}/`, bounds);
      const answered = tiles.filter((tile) => tile.status === 200);
      const largest = answered.reduce((big, tile) => (tile.bytes > (big?.bytes ?? -1) ? tile : big), undefined);
      const sizes = answered.map((tile) => tile.bytes);
      lines.push(
        `Tiles asked for while moving over all of Monaco (its buildings' box, ${bounds.map((value) => value.toFixed(4)).join(", ")}) at z12-z16: ${tiles.length} (${statuses(tiles)}); ` +
          `largest ${largest ? `${(largest.bytes / 1024).toFixed(1)} KB (${largest.url})` : "none"}, median ${sizes.length ? (median(sizes) / 1024).toFixed(1) : 0} KB, total ${(sizes.reduce((sum, bytes) => sum + bytes, 0) / 1024).toFixed(0)} KB; ` +
          `over ${TILE_LIMIT / 1024} KB: ${answered.filter((tile) => tile.bytes > TILE_LIMIT).length}.`,
      );
    }
  } finally {
    await browser.close();
    for (const { server: each } of servers) await each.stop();
    rmSync(dir, { recursive: true, force: true });
  }
  return lines.join("\n");
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(await run(process.argv.slice(2)));
