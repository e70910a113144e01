// The reference server's benchmarks, each beside its reference in the same run:
//   - importing Andorra with `basemodel import` vs `osmium export` of the same file (hyperfine);
//   - /raw/all and /latest/snapshot/plain/ on Monaco's centre (~1 km², ~500 buildings), driven
//     by autocannon against `basemodel serve` in its own process: one connection (latency) and
//     50 connections (throughput), the latter also with `--processes` set to this machine's cores.
// Targets (issue 4): import ≤ 3 s; one connection p99 ≤ 25 ms; 50 connections ≥ 300 req/s, no errors.
//
// A/B (issue 29): /raw/all on Monaco's centre at 50 connections, two servers up side by side and
// autocannon runs alternating between them, round after round, each figure beside its reference
// of the same round:
//   node bench/server.mjs --against <commit>   the server of <commit> (built in a temporary
//                                               folder with this checkout's node_modules) vs this
//                                               one, on the same store file
//   node bench/server.mjs --against <commit> --postgres <url>   the same, both servers on PostGIS
//   node bench/server.mjs --postgres <url>     this server on SQLite vs on PostGIS (<url>: a
//                                               database whose feature tables it may replace)
// Options: --processes 1,2 (each value a run of its own), --rounds 8, --seconds 10, or
// --requests 3000 (a fixed number of requests per round instead of a fixed time: on a shared
// machine the CPU per request over the same work is the figure that means something, not the rate).
// CPU per request is the whole server's: its process and, with --processes N, its workers; on
// PostGIS, plus the PostgreSQL backends that serve it.
import { execFileSync, spawn } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { availableParallelism, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { parseArgs } from "node:util";
import autocannon from "autocannon";
import { buildCommit, commitLabels } from "./commit.mjs";
import pg from "pg";

const root = new URL("..", import.meta.url).pathname;
const node = process.execPath;
const BIN = join(root, "bin/basemodel.js");
const ANDORRA = join(root, "fixtures/osm/andorra-2021-04-14.osm.pbf");
const MONACO = join(root, "fixtures/osm/monaco-2025-01-01.osm.pbf");
const OSMIUM_CONFIG = { attributes: { type: true, id: true, version: true, timestamp: true }, linear_tags: false, area_tags: true };
const CENTRE = [7.4186, 43.7302, 7.4316, 43.7392];

export function has(command) {
  try {
    execFileSync(command, ["--version"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

function importBench(dir) {
  const config = join(dir, "osmium.json");
  writeFileSync(config, JSON.stringify(OSMIUM_CONFIG));
  const commands = [`${node} ${BIN} import ${ANDORRA} --db ${join(dir, "andorra.db")} --force`];
  if (has("osmium")) commands.push(`osmium export -c ${config} -f geojsonseq -O -o ${join(dir, "andorra.geojsonseq")} ${ANDORRA}`);
  const out = join(dir, "import.json");
  execFileSync("hyperfine", ["--warmup", "1", "--runs", "5", "-N", "--export-json", out, ...commands], { stdio: ["ignore", "ignore", "inherit"] });
  return JSON.parse(readFileSync(out, "utf8")).results.map((result) => ({ min: result.min * 1000, median: result.median * 1000 }));
}

export async function startServe(db, processes = 1, exportsDir = join(dirname(db), "exports"), bin = BIN, { args: extra = [], env = {}, nodeOptions = [] } = {}) {
  const args = [...nodeOptions, bin, "serve", "--db", db, "--port", "0", "--exports", exportsDir, "--processes", String(processes), ...extra];
  // Standard error is a pipe, as under a service manager: the server logs a line per request
  // there at its default level. Only its end is kept, to say why a server that exits did.
  const child = spawn(node, args, { stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, ...env } });
  let errors = "";
  child.stderr.on("data", (chunk) => (errors = (errors + chunk).slice(-2000)));
  const url = await new Promise((resolve, reject) => {
    let text = "";
    child.stdout.on("data", (chunk) => {
      text += chunk;
      const match = /(http:\/\/[^\s]+)/.exec(text);
      if (match) resolve(match[1]);
    });
    child.on("exit", (code) => reject(new Error(`basemodel serve exited with ${code}: ${errors}`)));
  });
  // Resolves once the process has gone: the next server may then open the same export queue.
  const stop = () => new Promise((stopped) => child.once("exit", stopped).kill("SIGTERM"));
  return { url, pid: child.pid, stop };
}

/**
 * How much of one core this machine gives a busy loop for `ms`: the time it actually ran, and
 * its longest stall (a virtual machine's stolen time shows as stalls). Every latency here sits
 * above that stall, and every throughput under that share.
 */
export function availability(ms = 5000) {
  const started = performance.now();
  let last = started;
  let stalled = 0;
  let longest = 0;
  while (last - started < ms) {
    const now = performance.now();
    // A loop turn takes well under a microsecond: a gap over 1 ms is time the process did not run.
    if (now - last > 1) {
      stalled += now - last;
      longest = Math.max(longest, now - last);
    }
    last = now;
  }
  return { share: 1 - stalled / (last - started), longest };
}

/** The fields of /proc/<pid>/stat after the command's name (state first), or null where there is none. */
function statFields(pid) {
  try {
    return readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
  } catch {
    return null;
  }
}

/** CPU milliseconds (user + system) charged to process `pid` so far, from /proc; null elsewhere. */
export function cpuMs(pid) {
  const fields = statFields(pid);
  // utime and stime, in clock ticks (100 per second on Linux).
  return fields === null ? null : (Number(fields[11]) + Number(fields[12])) * 10;
}

/**
 * CPU milliseconds charged so far to process `pid` and to its children that are alive (the
 * workers of `serve --processes N`: their time reaches the primary's own figures only once they
 * have exited). Read before and after the same work, the difference is what the whole server cost.
 */
export function serverCpuMs(pid) {
  const own = cpuMs(pid);
  if (own === null) return null;
  let children = 0;
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    const fields = statFields(entry);
    if (fields !== null && fields[1] === String(pid)) children += cpuMs(entry) ?? 0;
  }
  return own + children;
}

/**
 * CPU milliseconds charged so far to the PostgreSQL backends of the clients named `application`
 * (a server started with PGAPPNAME set to it): what a server on PostGIS costs beyond its own
 * process. PostgreSQL must run on this machine; a backend that exits between two readings takes
 * its time with it.
 */
async function backendsCpuMs(client, application) {
  const { rows } = await client.query("SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND backend_type = 'client backend' AND application_name = $1", [application]);
  return rows.reduce((sum, { pid }) => sum + (cpuMs(pid) ?? 0), 0);
}

/**
 * The server's CPU time per request over 100 sequential requests: what one request costs,
 * which stalls of a shared machine lengthen (wall clock) but do not inflate as much.
 */
export async function cpuPerRequest(server, path, body) {
  const send = async () => (await fetch(server.url + path, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) })).arrayBuffer();
  for (let i = 0; i < 20; i++) await send();
  const before = cpuMs(server.pid);
  if (before === null) return null;
  for (let i = 0; i < 100; i++) await send();
  return (cpuMs(server.pid) - before) / 100;
}

/** autocannon for `duration` seconds, or for `amount` requests when given (then duration is ignored). */
export function load(url, path, body, connections, duration = 10, amount = undefined) {
  return autocannon({
    url: url + path,
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
    connections,
    ...(amount === undefined ? { duration } : { amount }),
  });
}

/** Monaco's centre, buildings: the /raw/all body of every benchmark here. */
export function rawAllBody() {
  const [minX, minY, maxX, maxY] = CENTRE;
  return { area: `${minX} ${minY}, ${maxX} ${minY}, ${maxX} ${maxY}, ${minX} ${maxY}, ${minX} ${minY}`, tags: "building" };
}

export async function run() {
  const dir = mkdtempSync(join(tmpdir(), "basemodel-bench-server-"));
  try {
    const [ours, osmium] = importBench(dir);
    const monaco = join(dir, "monaco.db");
    execFileSync(node, [BIN, "import", MONACO, "--db", monaco], { stdio: "ignore" });
    const server = await startServe(monaco);
    const routes = [
      ["/raw/all", rawAllBody()],
      ["/latest/snapshot/plain/", { bbox: CENTRE }],
    ];
    const cores = availableParallelism();
    const measured = [];
    const machine = availability();
    try {
      for (const [path, body] of routes) {
        const sample = await fetch(server.url + path, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
        const bytes = (await sample.arrayBuffer()).byteLength;
        const cpu = await cpuPerRequest(server, path, body);
        const single = await load(server.url, path, body, 1);
        const many = await load(server.url, path, body, 50);
        measured.push({ path, body, bytes, cpu, single, many });
      }
    } finally {
      await server.stop();
    }
    // The same 50 connections, answered by one process per core.
    const cluster = await startServe(monaco, cores);
    try {
      for (const row of measured) row.spread = await load(cluster.url, row.path, row.body, 50);
    } finally {
      await cluster.stop();
    }
    const throughput = (result) => `${result.requests.average.toFixed(0)} req/s, p99 ${result.latency.p99} ms, ${result.errors + result.non2xx} errors`;
    const rows = measured.map(
      ({ path, bytes, cpu, single, many, spread }) =>
        `| POST ${path} (${(bytes / 1024).toFixed(0)} KB answer) | ${cpu === null ? "n/a" : `${cpu.toFixed(1)} ms`} | p50 ${single.latency.p50} ms, p99 ${single.latency.p99} ms | ` +
        `${throughput(many)} | ${throughput(spread)} | p99 ≤ 25 ms; ≥ 300 req/s, 0 errors |`,
    );
    const ms = (value) => `${(value.min / 1000).toFixed(2)} s (median ${(value.median / 1000).toFixed(2)} s)`;
    return [
      "| Import of Andorra (andorra-2021-04-14.osm.pbf) | Fastest run (median) | Target |",
      "|---|---|---|",
      `| basemodel import | ${ms(ours)} | ≤ 3 s |`,
      `| osmium export (reference, HOT config) | ${osmium ? ms(osmium) : "osmium not installed"} | |`,
      "",
      `This machine in the same run: a busy loop ran ${(machine.share * 100).toFixed(0)} % of 5 s; its longest stall was ${machine.longest.toFixed(0)} ms.`,
      "",
      `| Route, Monaco centre (~1 km²) | Server CPU per request (100 in a row) | 1 connection, 10 s | 50 connections, 10 s | 50 connections, --processes ${cores} | Target |`,
      "|---|---|---|---|---|---|",
      ...rows,
    ].join("\n");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

/**
 * `rounds` autocannon runs on each of two servers that are up at once, alternating, the order
 * swapped every round so that neither always runs right after the other: their rates per round,
 * and the server's CPU milliseconds per answered request, which a machine shared with other work
 * inflates far less than it cuts the rate (the primary's and its workers' together, with --processes N).
 */
async function alternate([reference, current], path, body, { rounds, seconds, requests }) {
  // Warm-up: 500 requests each at the same load, so that both have compiled their hot paths.
  for (const server of [reference, current]) await load(server.url, path, body, 50, undefined, 500);
  const rows = [];
  for (let round = 0; round < rounds; round++) {
    const order = round % 2 === 0 ? [reference, current] : [current, reference];
    const results = new Map();
    for (const server of order) {
      const before = serverCpuMs(server.pid);
      const databaseBefore = await server.database?.cpuMs();
      const result = await load(server.url, path, body, 50, seconds, requests);
      const after = serverCpuMs(server.pid);
      result.cpuPerRequest = before === null || after === null || result.requests.total === 0 ? null : (after - before) / result.requests.total;
      // A server on PostGIS: its PostgreSQL backends' CPU per request too (see cpuPerRequest's sum).
      if (server.database !== undefined && result.cpuPerRequest !== null) result.databaseCpuPerRequest = ((await server.database.cpuMs()) - databaseBefore) / result.requests.total;
      results.set(server, result);
    }
    rows.push([reference, current].map((server) => results.get(server)));
  }
  return rows;
}

/**
 * The A/B table: each round's two rates and their ratio, then the medians and the ratios' spread;
 * the same for CPU per request where it was measured (a ratio over 1 means the current costs less).
 */
function abTable(labels, rows) {
  const cpu = rows.every((row) => row.every((result) => result.cpuPerRequest !== null));
  const rate = (result) => `${result.requests.average.toFixed(0)} req/s${result.errors + result.non2xx > 0 ? ` (${result.errors + result.non2xx} errors)` : ""}`;
  // Node's CPU, and with PostgreSQL's backends added where the server has them.
  const total = (result) => result.cpuPerRequest + (result.databaseCpuPerRequest ?? 0);
  const cost = (result) => (cpu ? ` | ${total(result).toFixed(2)} ms${result.databaseCpuPerRequest === undefined ? "" : ` (node ${result.cpuPerRequest.toFixed(2)} + PostgreSQL ${result.databaseCpuPerRequest.toFixed(2)})`}` : "");
  const ratios = rows.map(([reference, current]) => current.requests.average / reference.requests.average);
  const cpuRatios = cpu ? rows.map(([reference, current]) => total(reference) / total(current)) : [];
  const spread = (values) => `**${median(values).toFixed(2)}x** (${Math.min(...values).toFixed(2)}-${Math.max(...values).toFixed(2)})`;
  const medianOf = (index) => median(rows.map((row) => row[index].requests.average)).toFixed(0);
  const medianCpu = (index) => (cpu ? ` | ${median(rows.map((row) => total(row[index]))).toFixed(2)} ms` : "");
  const cpuHeads = cpu ? ` | ${labels[0]}: CPU per request | ${labels[1]}: CPU per request | CPU ratio` : "";
  return [
    `| Round | ${labels[0]} (reference) | ${labels[1]} | Ratio${cpuHeads} |`,
    `|---|---|---|---|${cpu ? "---|---|---|" : ""}`,
    ...rows.map(
      ([reference, current], index) =>
        `| ${index + 1} | ${rate(reference)} | ${rate(current)} | ${ratios[index].toFixed(2)}x${cost(reference)}${cost(current)}${cpu ? ` | ${cpuRatios[index].toFixed(2)}x` : ""} |`,
    ),
    `| median | ${medianOf(0)} req/s | ${medianOf(1)} req/s | ${spread(ratios)}${medianCpu(0)}${medianCpu(1)}${cpu ? ` | ${spread(cpuRatios)}` : ""} |`,
  ].join("\n");
}

/**
 * /raw/all at 50 connections, two servers alternating (see the top of this file): against the
 * server of `options.against`, or this server's SQLite store against `options.postgres`.
 */
export async function runAB(options) {
  const dir = mkdtempSync(join(tmpdir(), "basemodel-bench-ab-"));
  try {
    const monaco = join(dir, "monaco.db");
    execFileSync(node, [BIN, "import", MONACO, "--db", monaco], { stdio: "ignore" });
    let contenders;
    if (options.against !== undefined) {
      const { commit, current } = commitLabels(options.against);
      // With --postgres too, both on PostGIS (loaded by this checkout).
      const db = options.postgres ?? monaco;
      if (options.postgres !== undefined) execFileSync(node, [BIN, "import", MONACO, "--db", options.postgres], { stdio: "ignore" });
      contenders = [
        { label: `commit ${commit}`, bin: buildCommit(commit, dir), db },
        { label: current, bin: BIN, db },
      ];
    } else {
      execFileSync(node, [BIN, "import", MONACO, "--db", options.postgres], { stdio: "ignore" });
      contenders = [
        { label: "SQLite", bin: BIN, db: monaco },
        { label: "PostGIS", bin: BIN, db: options.postgres },
      ];
    }
    const machine = availability();
    const sections = [
      `This machine at the start: a busy loop ran ${(machine.share * 100).toFixed(0)} % of 5 s; its longest stall was ${machine.longest.toFixed(0)} ms.`,
    ];
    // Reads the CPU of the PostgreSQL backends, for the server on PostGIS.
    const monitor = options.postgres === undefined ? undefined : new pg.Client({ connectionString: options.postgres });
    await monitor?.connect();
    for (const processes of options.processes) {
      const servers = [];
      try {
        for (const [index, contender] of contenders.entries()) {
          // Its PostgreSQL connections carry its name, for their CPU time to be told apart.
          const application = `basemodel-bench-${index}`;
          const server = await startServe(contender.db, processes, join(dir, `exports-${index}`), contender.bin, { env: { PGAPPNAME: application } });
          if (contender.db === options.postgres) server.database = { cpuMs: () => backendsCpuMs(monitor, application) };
          servers.push(server);
        }
        const rows = await alternate(servers, "/raw/all", rawAllBody(), options);
        sections.push(
          "",
          `POST /raw/all, Monaco's centre, 50 connections, --processes ${processes}, ${options.rounds} rounds of ${options.requests === undefined ? `${options.seconds} s` : `${options.requests} requests`} each, alternating:`,
          "",
          abTable(contenders.map((contender) => contender.label), rows),
        );
      } finally {
        await Promise.all(servers.map((server) => server.stop()));
      }
    }
    await monitor?.end();
    return sections.join("\n");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values } = parseArgs({
    options: {
      against: { type: "string" },
      postgres: { type: "string" },
      processes: { type: "string" },
      rounds: { type: "string", default: "8" },
      seconds: { type: "string", default: "10" },
      requests: { type: "string" },
    },
  });
  if (values.against === undefined && values.postgres === undefined) console.log(await run());
  else {
    const processes = (values.processes ?? (values.against !== undefined ? "1,2" : "2")).split(",").map(Number);
    console.log(await runAB({ against: values.against, postgres: values.postgres, processes, rounds: Number(values.rounds), seconds: Number(values.seconds), requests: values.requests === undefined ? undefined : Number(values.requests) }));
  }
}
