// Exports on BullMQ workers (issue 20): eight concurrent GeoJSON exports of all of Andorra, put
// on a Redis queue by `basemodel serve --queue` and run by one `basemodel worker` vs two (each
// --concurrency 1, so that two workers use two cores). Time from the first POST to the last
// SUCCESS. Target: two workers finish in <= 0.6x the time of one.
// Needs a Redis: BASEMODEL_BENCH_REDIS (default redis://127.0.0.1:56379, as scripts/test-services
// starts it); the bench uses its database 13 and empties it. BENCH_WORKERS_RUNS (3) runs of each.
// On SQLite, and on PostGIS too when BASEMODEL_BENCH_POSTGRES names a database with PostGIS whose
// feature tables the bench may replace (as bench/postgis.mjs).
import { execFileSync, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";

const root = new URL("..", import.meta.url).pathname;
const BIN = join(root, "bin/basemodel.js");
const ANDORRA = join(root, "fixtures/osm/andorra-2021-04-14.osm.pbf");
/** The extract's bounds (osmium fileinfo), as the export polygon. */
const AREA = { type: "Polygon", coordinates: [[[1.4, 42.4], [1.8, 42.4], [1.8, 42.7], [1.4, 42.7], [1.4, 42.4]]] };
const QUEUE = `${process.env.BASEMODEL_BENCH_REDIS ?? "redis://127.0.0.1:56379"}/13`;
const EXPORTS = 8;
const RUNS = Number(process.env.BENCH_WORKERS_RUNS ?? 3);

/** Starts a long-running command; resolves once its standard output matches `ready`. */
function start(args, ready) {
  const child = spawn(process.execPath, [BIN, ...args], { stdio: ["ignore", "pipe", "ignore"] });
  return new Promise((resolve, reject) => {
    let text = "";
    child.stdout.on("data", (chunk) => {
      text += chunk;
      const match = ready.exec(text);
      if (match) resolve({ child, match, exited: new Promise((done) => child.on("exit", done)) });
    });
    child.on("exit", (code) => reject(new Error(`basemodel ${args[0]} exited with ${code}`)));
  });
}

async function stop(process) {
  process.child.kill("SIGTERM");
  await process.exited;
}

async function emptyQueue() {
  const { Redis } = await import("ioredis");
  const redis = new Redis(QUEUE);
  await redis.flushdb();
  await redis.quit();
}

/** Eight exports posted at once; ms from the first POST to the last SUCCESS (polling every 20 ms). */
async function eightExports(url) {
  const started = performance.now();
  const tasks = await Promise.all(
    Array.from({ length: EXPORTS }, async () => (await (await fetch(`${url}/latest/snapshot/`, { method: "POST", body: JSON.stringify({ geometry: AREA }) })).json()).trackLink),
  );
  await Promise.all(
    tasks.map(async (trackLink) => {
      for (;;) {
        const status = await (await fetch(`${url}/latest${trackLink}`)).json();
        if (status.status === "SUCCESS") return;
        if (status.status === "FAILURE") throw new Error(status.result.error);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    }),
  );
  return performance.now() - started;
}

/** Best and median ms of eight exports with one worker and with two, on the store at `db`. */
async function compare(db, exportsDir) {
  await emptyQueue();
  const server = await start(["serve", "--db", db, "--port", "0", "--exports", exportsDir, "--queue", QUEUE, "--log-level", "warn"], /(http:\/\/[^\s]+)/);
  const url = server.match[1];
  const times = { 1: [], 2: [] };
  try {
    // Interleaved, so that the machine's other load falls on both alike.
    for (let run = 0; run < RUNS; run++) {
      for (const count of [1, 2]) {
        const workers = await Promise.all(
          Array.from({ length: count }, () => start(["worker", "--queue", QUEUE, "--db", db, "--exports", exportsDir, "--concurrency", "1", "--log-level", "warn"], /^basemodel worker: /m)),
        );
        times[count].push(await eightExports(url));
        await Promise.all(workers.map(stop));
      }
    }
  } finally {
    await stop(server);
    await emptyQueue();
  }
  return times;
}

const best = (values) => Math.min(...values);
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const seconds = (ms) => `${(ms / 1000).toFixed(2)} s`;

const scratch = mkdtempSync(join(tmpdir(), "basemodel-bench-workers-"));
try {
  const stores = { SQLite: join(scratch, "andorra.db") };
  if (process.env.BASEMODEL_BENCH_POSTGRES) stores.PostGIS = process.env.BASEMODEL_BENCH_POSTGRES;
  console.log(`| Store | one worker | two workers | two / one |  (${EXPORTS} Andorra GeoJSON exports at once, best (median) of ${RUNS})`);
  console.log("|---|---|---|---|");
  for (const [name, db] of Object.entries(stores)) {
    execFileSync(process.execPath, [BIN, "import", ANDORRA, "--db", db], { stdio: "ignore" });
    const times = await compare(db, join(scratch, `exports-${name}`));
    const ratio = (pick) => (pick(times[2]) / pick(times[1])).toFixed(2);
    console.log(`| ${name} | ${seconds(best(times[1]))} (${seconds(median(times[1]))}) | ${seconds(best(times[2]))} (${seconds(median(times[2]))}) | ${ratio(best)} (${ratio(median)}) |`);
  }
  console.log(`load average at the end: ${loadavg().map((n) => n.toFixed(1)).join(" ")}`);
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
