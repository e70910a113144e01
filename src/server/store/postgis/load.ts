/**
 * Loading an OSM file into PostGIS: osm2pgsql (--create --slim --output=flex
 * --extra-attributes) with our style, then our SQL (keys, indexes, our tables) and
 * the import's metadata. The database is checked before osm2pgsql starts, so that a wrong URL
 * or password, or a database without PostGIS, is one line and not osm2pgsql's log.
 */
import { spawn } from "node:child_process";
import type pg from "pg";
import { OSM2PGSQL_STYLE } from "../osm2pgsql-style.js";
import { FEATURE_TABLES, type FeatureTable } from "../../../model/features.js";
import { LoadFailed } from "../../errors.js";
import { type LoadOptions, type LoadSummary } from "../store.js";
import { shownLocation } from "../location.js";
import { connectionError, openPool } from "./connection.js";
import { ISO_TIME } from "./rows.js";
import { DATA_VERSION_SQL, DROP_OWN_TABLES_SQL, POST_IMPORT_SQL } from "./schema.js";

export async function loadWithOsm2pgsql(input: string, url: string, options: LoadOptions): Promise<LoadSummary> {
  const started = performance.now();
  const pool = await openPool(url);
  try {
    await inTransaction(pool, DROP_OWN_TABLES_SQL);
    options.onProgress?.(0.05);
    await runOsm2pgsql("--create", input, url, options.signal);
    options.onProgress?.(0.85);
    // No ANALYZE after it: osm2pgsql analyzed every feature table, and our indexes are on plain columns.
    await inTransaction(pool, POST_IMPORT_SQL);
    options.onProgress?.(0.95);
    const counts = Object.fromEntries(
      await Promise.all(FEATURE_TABLES.map(async (table) => [table, Number((await pool.query<{ n: string }>(`SELECT count(*) AS n FROM ${table}`)).rows[0]!.n)])),
    ) as Record<FeatureTable, number>;
    const replicationTimestamp = options.replicationTimestamp ?? (await newestTimestamp(pool));
    const statistics = { ...options.statistics, counts, replicationTimestamp, seconds: (performance.now() - started) / 1000 };
    const meta: Array<[string, string]> = [["import_statistics", JSON.stringify(statistics)]];
    if (replicationTimestamp !== null) meta.push(["replication_timestamp", replicationTimestamp]);
    for (const [key, value] of meta) {
      await pool.query("INSERT INTO basemodel_meta (key, value) VALUES ($1, $2) ON CONFLICT (key) DO UPDATE SET value = excluded.value", [key, value]);
    }
    await pool.query(DATA_VERSION_SQL);
    options.onProgress?.(1);
    return { counts, replicationTimestamp };
  } catch (error) {
    throw connectionError(url, error);
  } finally {
    await pool.end();
  }
}

async function inTransaction(pool: pg.Pool, statements: readonly string[]): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query("BEGIN");
    for (const statement of statements) await client.query(statement);
    await client.query("COMMIT");
    client.release();
  } catch (error) {
    await client.query("ROLLBACK").catch(() => undefined);
    client.release(error as Error);
    throw error;
  }
}

/**
 * Without a replication timestamp in the file's header: the newest feature's time (the SQLite
 * import takes the newest object's, untagged ones included, which osm2pgsql does not keep).
 */
async function newestTimestamp(pool: pg.Pool): Promise<string | null> {
  const union = FEATURE_TABLES.map((table) => `SELECT max(timestamp) AS newest FROM ${table}`).join(" UNION ALL ");
  const { rows } = await pool.query<{ newest: string | null }>(`SELECT to_char(max(newest), ${ISO_TIME}) AS newest FROM (${union}) tables`);
  return rows[0]!.newest;
}

/** The Debian package that has osm2pgsql (and osm2pgsql-replication). */
const PACKAGE = "osm2pgsql";

/**
 * Runs osm2pgsql on a file (--create) or a change file (--append); its last error line becomes
 * the LoadFailed error. The password travels in the environment, not on the command line.
 */
export function runOsm2pgsql(mode: "--create" | "--append", input: string, url: string, signal?: AbortSignal): Promise<void> {
  const connection = new URL(url);
  const password = decodeURIComponent(connection.password);
  connection.password = "";
  const args = [mode, "--slim", "--output=flex", "--extra-attributes", "--style", OSM2PGSQL_STYLE, "--log-level=warn", "-d", connection.toString(), input];
  return new Promise((resolve, reject) => {
    const child = spawn("osm2pgsql", args, { stdio: ["ignore", "ignore", "pipe"], env: { ...process.env, ...(password !== "" && { PGPASSWORD: password }) }, signal });
    let log = "";
    child.stderr.setEncoding("utf8").on("data", (text: string) => {
      // The end says why it failed; the rest is not kept.
      log = (log + text).slice(-8192);
    });
    child.on("error", (error: NodeJS.ErrnoException) => {
      if (error.code === "ENOENT") reject(new LoadFailed({ why: `osm2pgsql not found: install the Debian package ${PACKAGE} to load into ${shownLocation(url)}` }));
      else if (error.name === "AbortError") reject(new LoadFailed({ why: `the load of ${input} was interrupted` }));
      else reject(error);
    });
    child.on("close", (code) => {
      if (code === 0) resolve();
      else if (code !== null) reject(new LoadFailed({ why: `osm2pgsql could not ${mode === "--create" ? "load" : "apply"} ${input}: ${lastError(log)}` }));
    });
  });
}

function lastError(log: string): string {
  const lines = log.split("\n").map((line) => line.replace(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\s+/, "").trim()).filter((line) => line !== "");
  const error = [...lines].reverse().find((line) => line.startsWith("ERROR"));
  return (error ?? lines.at(-1) ?? "it exited with an error").replace(/^ERROR:\s*/, "");
}
