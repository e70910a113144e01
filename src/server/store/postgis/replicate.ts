/**
 * Keeping the PostGIS store current from a replication server (OSM's minutely diffs, a
 * Geofabrik extract's, or any folder of state.txt and NNN/NNN/NNN.osc.gz files served over
 * HTTP) with osm2pgsql-replication: it tracks the sequence in its own table, downloads the
 * diffs and merges them into one sorted change per run. Each change is applied by the command
 * the caller names (basemodel update: osm2pgsql --append with our style, then the data quality
 * checks, changesets and replication time), which osm2pgsql-replication runs in osm2pgsql's place.
 *
 * The replication state is set up here, not by `osm2pgsql-replication init`, which finds its
 * start by asking the OSM API when the newest way was made: the start is the last state the
 * server has at or before the store's replication timestamp.
 */
import { spawn } from "node:child_process";
import type pg from "pg";
import { shownLocation } from "../location.js";
import type { ReplicateOptions, ReplicateSummary } from "../store.js";
import { LoadFailed } from "../../errors.js";

/** The Debian package that has osm2pgsql-replication. */
const PACKAGE = "osm2pgsql";
const STATUS_TABLE = "planet_osm_replication_status";
/** Where replication starts when the store has none set up and no server is named: OSM's minutely diffs. */
const OSM_MINUTELY = "https://planet.openstreetmap.org/replication/minute/";

interface State {
  sequence: number;
  /** ISO-8601 UTC. */
  timestamp: string;
}

/** A state file's path below the server's URL: 4567890 is 004/567/890.state.txt. */
function statePath(sequence: number): string {
  const digits = String(sequence).padStart(9, "0");
  return `${digits.slice(0, 3)}/${digits.slice(3, 6)}/${digits.slice(6)}.state.txt`;
}

/** A state (Java properties: `timestamp=2025-01-10T10\:15\:00Z`), or null when the server has none at that path. */
async function fetchState(server: string, path: string): Promise<State | null> {
  const url = new URL(path, server.endsWith("/") ? server : `${server}/`);
  let response: Response;
  try {
    response = await fetch(url, { signal: AbortSignal.timeout(30_000) });
  } catch (error) {
    throw new LoadFailed({ why: `cannot reach the replication server ${server}: ${((error as Error).cause as Error | undefined)?.message ?? (error as Error).message}` });
  }
  if (response.status === 404) return null;
  if (!response.ok) throw new LoadFailed({ why: `the replication server ${server} answered ${response.status} for ${url.pathname}` });
  const values = new Map(
    (await response.text())
      .split("\n")
      .filter((line) => line.includes("=") && !line.startsWith("#"))
      .map((line) => [line.slice(0, line.indexOf("=")).trim(), line.slice(line.indexOf("=") + 1).trim().replace(/\\/g, "")] as const),
  );
  const sequence = Number(values.get("sequenceNumber"));
  const timestamp = values.get("timestamp");
  if (!Number.isSafeInteger(sequence) || timestamp === undefined || Number.isNaN(Date.parse(timestamp))) {
    throw new LoadFailed({ why: `${url} is no replication state (it needs sequenceNumber and timestamp): is ${server} a replication server?` });
  }
  return { sequence, timestamp: new Date(Date.parse(timestamp)).toISOString().replace(/\.000Z$/, "Z") };
}

/** The last sequence whose state is at or before `time`: back in growing steps from the newest, then halving. */
async function sequenceAt(server: string, time: string): Promise<State> {
  const current = await fetchState(server, "state.txt");
  if (current === null) throw new LoadFailed({ why: `${server} has no state.txt: is it a replication server?` });
  if (current.timestamp <= time) return current;
  let newer = current;
  let older: State | null = null;
  for (let step = 1; older === null; step *= 2) {
    const sequence = Math.max(0, newer.sequence - step);
    const state = await fetchState(server, statePath(sequence));
    if (state === null || sequence === 0) {
      if (state !== null && state.timestamp <= time) older = state;
      else throw new LoadFailed({ why: `${server} has no state as old as the store's data (${time}): replicate from a server that goes back that far` });
    } else if (state.timestamp <= time) older = state;
    else newer = state;
  }
  while (newer.sequence - older.sequence > 1) {
    const middle = Math.floor((older.sequence + newer.sequence) / 2);
    const state = await fetchState(server, statePath(middle));
    if (state === null) throw new LoadFailed({ why: `${server} has no state ${middle}, between ${older.sequence} and ${newer.sequence}` });
    if (state.timestamp <= time) older = state;
    else newer = state;
  }
  return older;
}

/** osm2pgsql-replication's state: the one set up, or (another server named, or none set up) a new one, set up as its init would. */
async function replicationState(pool: pg.Pool, server: string | undefined, location: string): Promise<{ url: string; sequence: number }> {
  const { rows } = await pool.query<{ url: string; sequence: number }>(`SELECT url, sequence FROM ${STATUS_TABLE} WHERE to_regclass('${STATUS_TABLE}') IS NOT NULL`).catch(() => ({ rows: [] }));
  const existing = rows[0];
  if (existing !== undefined && (server === undefined || existing.url === server)) return existing;
  return startReplication(pool, server ?? OSM_MINUTELY, location);
}

/** Sets up the replication from `server`, at the last state at or before the store's replication timestamp. */
async function startReplication(pool: pg.Pool, server: string, location: string): Promise<{ url: string; sequence: number }> {
  const { rows: meta } = await pool.query<{ value: string }>("SELECT value FROM basemodel_meta WHERE key = 'replication_timestamp'");
  const since = meta[0]?.value;
  if (since === undefined) throw new LoadFailed({ why: `${shownLocation(location)} has no replication timestamp to start from: import a file whose header has one` });
  const start = await sequenceAt(server, since);
  await pool.query(`DROP TABLE IF EXISTS ${STATUS_TABLE}`);
  await pool.query(`CREATE TABLE ${STATUS_TABLE} (url TEXT, sequence INTEGER, importdate TIMESTAMP WITH TIME ZONE)`);
  await pool.query(`INSERT INTO ${STATUS_TABLE} VALUES ($1, $2, $3)`, [server, start.sequence, start.timestamp]);
  return { url: server, sequence: start.sequence };
}

export async function replicateWithOsm2pgsql(pool: pg.Pool, location: string, options: ReplicateOptions): Promise<ReplicateSummary> {
  const from = await replicationState(pool, options.server, location);
  const connection = new URL(location);
  const password = decodeURIComponent(connection.password);
  connection.password = "";
  const args = ["update", "-d", connection.toString(), "--osm2pgsql-cmd", options.applyCommand, ...(options.once ? ["--once"] : [])];
  await new Promise<void>((resolve, reject) => {
    const child = spawn("osm2pgsql-replication", args, {
      stdio: ["ignore", "inherit", "pipe"],
      env: { ...process.env, ...options.env, ...(password !== "" && { PGPASSWORD: password }) },
    });
    let log = "";
    child.stderr.setEncoding("utf8").on("data", (text: string) => {
      options.onLog?.(text);
      log = (log + text).slice(-8192);
    });
    child.on("error", (error: NodeJS.ErrnoException) =>
      reject(error.code === "ENOENT" ? new LoadFailed({ why: `osm2pgsql-replication not found: install the Debian package ${PACKAGE}` }) : error),
    );
    child.on("close", (code) => {
      if (code === 0) resolve();
      else reject(new LoadFailed({ why: `osm2pgsql-replication could not update ${shownLocation(location)} from ${from.url}: ${lastLine(log)}` }));
    });
  });
  const { rows } = await pool.query<{ sequence: number }>(`SELECT sequence FROM ${STATUS_TABLE}`);
  return { server: from.url, from: from.sequence, to: rows[0]!.sequence };
}

function lastLine(log: string): string {
  const lines = log
    .split("\n")
    .map((line) => line.replace(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\s+(\[\w+\]:\s*)?/, "").trim())
    .filter((line) => line !== "");
  return lines.find((line) => /^(ERROR|CRITICAL)/.test(line)) ?? lines.at(-1) ?? "it exited with an error";
}
