// The PostGIS store beside the SQLite store (issue 20), in one run on the same machine:
//   - import of Monaco and Andorra: `basemodel import --db file.db` vs `--db postgres://...`
//     (osm2pgsql with our style, then our SQL), hyperfine;
//   - /raw/all on Monaco's centre (building, ~400 features): one connection (p99) and 50
//     connections with --processes 2 (req/s), autocannon against `basemodel serve`;
//   - a GeoJSON export of all of Andorra, POST to SUCCESS.
// Targets: osm2pgsql path within 1.2x of basemodel import; p99 <= 25 ms and >= 300 req/s as on
// SQLite; the export within 1.2x of SQLite's.
// Needs BASEMODEL_BENCH_POSTGRES: the URL of a database with PostGIS whose feature tables the
// bench may replace (e.g. one copied from scripts/test-services' template).
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { timeExport } from "./exports.mjs";
import { availability, load, startServe } from "./server.mjs";

const root = new URL("..", import.meta.url).pathname;
const node = process.execPath;
const BIN = join(root, "bin/basemodel.js");
const EXTRACTS = { Monaco: join(root, "fixtures/osm/monaco-2025-01-01.osm.pbf"), Andorra: join(root, "fixtures/osm/andorra-2021-04-14.osm.pbf") };
const CENTRE = [7.4186, 43.7302, 7.4316, 43.7392];
const RUNS = Number(process.env.BENCH_POSTGIS_RUNS ?? 5);

function importBench(dir, database) {
  const rows = [];
  for (const [name, file] of Object.entries(EXTRACTS)) {
    const out = join(dir, `import-${name}.json`);
    const commands = [`${node} ${BIN} import ${file} --db ${join(dir, "bench.db")} --force`, `${node} ${BIN} import ${file} --db ${database}`];
    execFileSync("hyperfine", ["--warmup", "1", "--runs", String(RUNS), "-N", "--export-json", out, ...commands], { stdio: ["ignore", "ignore", "inherit"] });
    const [sqlite, postgis] = JSON.parse(readFileSync(out, "utf8")).results.map((result) => ({ min: result.min * 1000, median: result.median * 1000 }));
    rows.push({ name, sqlite, postgis });
  }
  return rows;
}

async function rawAll(db, dir) {
  const [minX, minY, maxX, maxY] = CENTRE;
  const body = { area: `${minX} ${minY}, ${maxX} ${minY}, ${maxX} ${maxY}, ${minX} ${maxY}, ${minX} ${minY}`, tags: "building" };
  const exportsDir = join(dir, "exports");
  const single = await startServe(db, 1, exportsDir);
  let one;
  try {
    for (let i = 0; i < 20; i++) await (await fetch(`${single.url}/raw/all`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) })).arrayBuffer();
    one = await load(single.url, "/raw/all", body, 1);
  } finally {
    await single.stop();
  }
  const two = await startServe(db, 2, exportsDir);
  try {
    return { one, many: await load(two.url, "/raw/all", body, 50) };
  } finally {
    await two.stop();
  }
}

async function exportBench(db, dir) {
  const times = [];
  for (let i = 0; i < 3; i++) {
    const exportsDir = join(dir, `exports-${i}`);
    mkdirSync(exportsDir);
    const server = await startServe(db, 1, exportsDir);
    try {
      times.push((await timeExport(server.url, "geojson")).ms);
    } finally {
      await server.stop();
    }
  }
  return times;
}

export async function run() {
  const database = process.env.BASEMODEL_BENCH_POSTGRES;
  if (!database) return "BASEMODEL_BENCH_POSTGRES is not set: no PostGIS benchmark (see bench/postgis.mjs).";
  const dir = mkdtempSync(join(tmpdir(), "basemodel-bench-postgis-"));
  try {
    const machine = availability();
    const imports = importBench(dir, database);
    const stores = { SQLite: join(dir, "store.db"), PostGIS: database };
    const raw = {};
    const exported = {};
    for (const [name, file] of [["Monaco", EXTRACTS.Monaco], ["Andorra", EXTRACTS.Andorra]]) {
      execFileSync(node, [BIN, "import", file, "--db", stores.SQLite, "--force"], { stdio: "ignore" });
      execFileSync(node, [BIN, "import", file, "--db", stores.PostGIS], { stdio: "ignore" });
      for (const [store, db] of Object.entries(stores)) {
        const work = mkdtempSync(join(dir, `${store}-`));
        if (name === "Monaco") raw[store] = await rawAll(db, work);
        else exported[store] = await exportBench(db, work);
      }
    }
    const s = (ms) => `${(ms / 1000).toFixed(2)} s`;
    const best = (values) => Math.min(...values);
    const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
    const ratio = (a, b) => `${(a / b).toFixed(2)}x`;
    return [
      `This machine in the same run: a busy loop ran ${(machine.share * 100).toFixed(0)} % of 5 s; its longest stall was ${machine.longest.toFixed(0)} ms.`,
      "",
      "| Import | basemodel import (SQLite) | osm2pgsql + our SQL (PostGIS) | PostGIS / SQLite (fastest) | Target |",
      "|---|---|---|---|---|",
      ...imports.map(({ name, sqlite, postgis }) => `| ${name} | ${s(sqlite.min)} (median ${s(sqlite.median)}) | ${s(postgis.min)} (median ${s(postgis.median)}) | ${ratio(postgis.min, sqlite.min)} | ≤ 1.2x |`),
      "",
      "| POST /raw/all, Monaco centre, building | 1 connection, 10 s | 50 connections, --processes 2, 10 s | Target |",
      "|---|---|---|---|",
      ...Object.entries(raw).map(
        ([store, { one, many }]) =>
          `| ${store} | p50 ${one.latency.p50} ms, p99 ${one.latency.p99} ms | ${many.requests.average.toFixed(0)} req/s, p99 ${many.latency.p99} ms, ${many.errors + many.non2xx} errors | p99 ≤ 25 ms; ≥ 300 req/s |`,
      ),
      "",
      "| GeoJSON export of all of Andorra, POST to SUCCESS (3 runs) | Fastest (median) | Target |",
      "|---|---|---|",
      ...Object.entries(exported).map(([store, times]) => `| ${store} | ${s(best(times))} (${s(median(times))}) | ${store === "PostGIS" ? `≤ 1.2x SQLite: ${ratio(best(times), best(exported.SQLite))}` : ""} |`),
    ].join("\n");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(await run());
