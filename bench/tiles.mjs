// The map's vector tiles (issue 27), on Monaco, each store in one run:
//   - a z15 tile of Monaco's centre beside POST /raw/all of the same box (tags: building), the
//     requests alternating one by one on one connection: the tile made afresh each time (a server
//     with --tile-cache 0), the tile from the server's cache, and /raw/all; p50 and p99 of each;
//   - every tile of Monaco (the box of its buildings) at zooms 12 to 16, as the page fetches them:
//     how many, how many hold something, the largest and the 99th percentile of their sizes; with
//     both stores, the tiles whose feature ids differ between them.
// Targets: the tile's p50 and p99 no more than /raw/all's; no tile over 200 KB.
//   node bench/tiles.mjs                        SQLite
//   node bench/tiles.mjs --postgres <url>        SQLite and PostGIS (<url>: a database with
//                                               PostGIS whose feature tables the bench may replace)
// Options: --requests 1000 (of each kind).
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { VectorTile } from "@mapbox/vector-tile";
import { PbfReader } from "pbf";
import { availability, startServe } from "./server.mjs";

const root = new URL("..", import.meta.url).pathname;
const node = process.execPath;
const BIN = join(root, "bin/basemodel.js");
const MONACO = join(root, "fixtures/osm/monaco-2025-01-01.osm.pbf");
/** Monaco's centre (Monte-Carlo), as the server benchmarks query it. */
const CENTRE = [7.4251, 43.7347];
/** The box of Monaco's buildings: the land the page shows. */
const MONACO_BOX = [7.4089, 43.7248, 7.4396, 43.7525];
const LIMIT_BYTES = 200 * 1024;

function tileAt(lon, lat, z) {
  const size = 2 ** z;
  const radians = (lat * Math.PI) / 180;
  return [Math.floor(((lon + 180) / 360) * size), Math.floor(((1 - Math.log(Math.tan(radians) + 1 / Math.cos(radians)) / Math.PI) / 2) * size)];
}

function tileBox(z, x, y) {
  const size = 2 ** z;
  const lon = (column) => (column / size) * 360 - 180;
  const lat = (row) => (Math.atan(Math.sinh(Math.PI * (1 - (2 * row) / size))) * 180) / Math.PI;
  return [lon(x), lat(y + 1), lon(x + 1), lat(y)];
}

const percentile = (values, share) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(share * sorted.length) - 1)];
};

/** Milliseconds of each request, `count` of each kind, taking turns one by one. */
async function alternate(kinds, count) {
  for (const kind of kinds) for (let i = 0; i < 20; i++) await kind.send();
  const times = kinds.map(() => []);
  for (let i = 0; i < count; i++) {
    // The order turns too, so that no kind always follows the same one.
    for (let k = 0; k < kinds.length; k++) {
      const index = (i + k) % kinds.length;
      const started = performance.now();
      await kinds[index].send();
      times[index].push(performance.now() - started);
    }
  }
  return times.map((values) => ({ p50: percentile(values, 0.5), p99: percentile(values, 0.99) }));
}

async function tileVersusRawAll(fresh, cached, count) {
  const z = 15;
  const [x, y] = tileAt(...CENTRE, z);
  const [minX, minY, maxX, maxY] = tileBox(z, x, y);
  const body = JSON.stringify({ area: `${minX} ${minY}, ${maxX} ${minY}, ${maxX} ${maxY}, ${minX} ${maxY}, ${minX} ${minY}`, tags: "building" });
  const bytes = async (response) => {
    if (!response.ok) throw new Error(`${response.url}: ${response.status}`);
    return (await response.arrayBuffer()).byteLength;
  };
  const kinds = [
    { name: `GET /tiles/${z}/${x}/${y}.mvt, made afresh (--tile-cache 0)`, send: async () => bytes(await fetch(`${fresh.url}/tiles/${z}/${x}/${y}.mvt`)) },
    { name: `GET /tiles/${z}/${x}/${y}.mvt, from the cache`, send: async () => bytes(await fetch(`${cached.url}/tiles/${z}/${x}/${y}.mvt`)) },
    { name: "POST /raw/all, the tile's box, tags building (reference)", send: async () => bytes(await fetch(`${fresh.url}/raw/all`, { method: "POST", headers: { "content-type": "application/json" }, body })) },
  ];
  const sizes = await Promise.all(kinds.map((kind) => kind.send()));
  const measured = await alternate(kinds, count);
  return kinds.map((kind, index) => ({ name: kind.name, bytes: sizes[index], ...measured[index] }));
}

/** Each layer's feature ids, to compare stores. */
function ids(bytes) {
  if (bytes.byteLength === 0) return "";
  const tile = new VectorTile(new PbfReader(bytes));
  return JSON.stringify(Object.entries(tile.layers).map(([name, layer]) => [name, Array.from({ length: layer.length }, (_, i) => layer.feature(i).id).sort((a, b) => a - b)]));
}

/** Every tile of Monaco at zooms 12 to 16: its size, and its feature ids. */
async function walk(server) {
  const tiles = new Map();
  for (let z = 12; z <= 16; z++) {
    const [west, north] = tileAt(MONACO_BOX[0], MONACO_BOX[3], z);
    const [east, south] = tileAt(MONACO_BOX[2], MONACO_BOX[1], z);
    for (let x = west; x <= east; x++) {
      for (let y = north; y <= south; y++) {
        const response = await fetch(`${server.url}/tiles/${z}/${x}/${y}.mvt`);
        if (response.status !== 200 && response.status !== 204) throw new Error(`tile ${z}/${x}/${y}: ${response.status}`);
        const bytes = new Uint8Array(await response.arrayBuffer());
        tiles.set(`${z}/${x}/${y}`, { z, bytes: bytes.byteLength, ids: ids(bytes) });
      }
    }
  }
  return tiles;
}

function walkRows(label, tiles) {
  return [12, 13, 14, 15, 16, "12-16"].map((zoom) => {
    const chosen = [...tiles].filter(([, tile]) => zoom === "12-16" || tile.z === zoom);
    const sizes = chosen.map(([, tile]) => tile.bytes);
    const [largest, { bytes }] = chosen.reduce((best, entry) => (entry[1].bytes > best[1].bytes ? entry : best));
    const kb = (value) => `${(value / 1024).toFixed(1)} KB`;
    return `| ${label} | ${zoom} | ${chosen.length} | ${sizes.filter((size) => size > 0).length} | ${kb(bytes)} (${largest}) | ${kb(percentile(sizes, 0.99))} | ${bytes < LIMIT_BYTES ? "yes" : "no"} |`;
  });
}

async function run({ postgres, requests }) {
  const dir = mkdtempSync(join(tmpdir(), "basemodel-bench-tiles-"));
  try {
    const stores = [{ label: "SQLite", db: join(dir, "monaco.db") }, ...(postgres === undefined ? [] : [{ label: "PostGIS", db: postgres }])];
    for (const { db } of stores) {
      // With its data quality findings, which every feature of a tile carries.
      execFileSync(node, [BIN, "import", MONACO, "--db", db], { stdio: "ignore" });
      execFileSync(node, [BIN, "check", "--db", db], { stdio: "ignore" });
    }
    const machine = availability();
    const timing = [];
    const walks = [];
    for (const store of stores) {
      const fresh = await startServe(store.db, 1, join(dir, `exports-${store.label}`), BIN, { args: ["--tile-cache", "0"] });
      const cached = await startServe(store.db, 1, join(dir, `exports-${store.label}-cached`));
      try {
        for (const row of await tileVersusRawAll(fresh, cached, requests)) timing.push({ store: store.label, ...row });
        walks.push({ label: store.label, tiles: await walk(cached) });
      } finally {
        await Promise.all([fresh.stop(), cached.stop()]);
      }
    }
    const lines = [
      `This machine at the start: a busy loop ran ${(machine.share * 100).toFixed(0)} % of 5 s; its longest stall was ${machine.longest.toFixed(0)} ms.`,
      "",
      `${requests} requests of each kind on one connection, alternating one by one, each server in its own process (latency as the client sees it):`,
      "",
      "| Store | Request | Answer | p50 | p99 |",
      "|---|---|---|---|---|",
      ...timing.map((row) => `| ${row.store} | ${row.name} | ${(row.bytes / 1024).toFixed(1)} KB | ${row.p50.toFixed(2)} ms | ${row.p99.toFixed(2)} ms |`),
      "",
      `Every tile of Monaco (the box of its buildings, ${MONACO_BOX.join(", ")}), zooms 12 to 16:`,
      "",
      "| Store | Zoom | Tiles | Not empty | Largest | p99 | Under 200 KB |",
      "|---|---|---|---|---|---|---|",
      ...walks.flatMap(({ label, tiles }) => walkRows(label, tiles)),
    ];
    if (walks.length === 2) {
      const [ours, theirs] = walks.map((entry) => entry.tiles);
      const differing = [...ours].filter(([key, tile]) => theirs.get(key).ids !== tile.ids).map(([key]) => key);
      lines.push("", `Tiles whose feature ids differ between SQLite and PostGIS: ${differing.length} of ${ours.size}${differing.length > 0 ? ` (${differing.join(", ")})` : ""}.`);
    }
    return lines.join("\n");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const { values } = parseArgs({ options: { postgres: { type: "string" }, requests: { type: "string", default: "1000" } } });
console.log(await run({ postgres: values.postgres, requests: Number(values.requests) }));
