/**
 * The server's commands of `basemodel`: import, update, replicate, check, serve and worker, each
 * declared on the root command when asked for (main.ts). Each command's module is imported when
 * it runs: declaring them loads no server code.
 */
import { Command, InvalidArgumentError, Option } from "commander";
import type { ImportFlags } from "./import.js";
import { LOG_LEVELS } from "../server/http/log.js";
import type { ServeFlags } from "./serve-options.js";
import { corsOrigins } from "./serve-options.js";
import { redisQueueUrl } from "./queue-option.js";
import type { WorkerFlags } from "./worker.js";
import type { ReplicateFlags } from "./replicate.js";
import type { UpdateFlags } from "./update.js";
import { numberAtLeast } from "./number-option.js";
import { packageVersion } from "./package-version.js";

const IMPORT_EXIT_CODES = `
Exit codes:
  0  imported
  1  the import failed (a bad or truncated file, or the store could not be written)
  2  usage error: no --db, --db exists (without --force), a missing input file or folder,
     or a missing optional dependency`;

const REPLICATE_EXIT_CODES = `
Exit codes:
  0  the store is up to date with the server (or --once applied one batch)
  1  stopped: the server or the database cannot be reached, or a change could not be applied
     (the changes applied before it stay; the next run goes on from there)
  2  usage error: --db not a PostGIS store of basemodel's, a bad --server or --quality-rules`;

const UPDATE_EXIT_CODES = `
Exit codes:
  0  applied (also when the store had every change already)
  1  not applied, the store unchanged: a malformed or truncated file, a change the store
     cannot take (an object it does not have, a way on unknown nodes), or a store that
     could not be written
  2  usage error: a missing file, --db not a feature store or a damaged one, a bad --quality-rules file, or a
     missing optional dependency`;

/**
 * --quality-rules <file>, and --rules <file>: its name before the data quality rules and fAIr's
 * rule sets (validate --rules) were told apart, kept so that scripts written then still work.
 * Given both, the last one wins, as with any option given twice.
 */
function withQualityRules(command: Command): Command {
  return command
    .option("--quality-rules <file>", "data quality rules, JSON or YAML (default: rules/quality.default.json; see docs/quality.md)")
    .option("--rules <file>", "alias of --quality-rules")
    .on("option:rules", (file: string) => command.setOptionValue("qualityRules", file));
}

function port(text: string): number {
  const value = Number(text);
  if (!Number.isInteger(value) || value < 0 || value > 65535) throw new InvalidArgumentError("expected a port number from 0 to 65535");
  return value;
}

const logLevelOption = (what: string) => new Option("--log-level <level>", `lines written to standard error: ${what}`).choices(LOG_LEVELS).default("info");

/** Resolves when the process is asked to stop (Ctrl-C, SIGTERM). */
const stopSignal = () =>
  new Promise<void>((resolve) => {
    process.once("SIGINT", resolve);
    process.once("SIGTERM", resolve);
  });

function declareImport(cli: Command): void {
  cli
    .command("import")
    .description("build a feature store (one SQLite file, or a PostGIS database loaded by osm2pgsql) from an OpenStreetMap .osm.pbf, .osm or .osm.gz file")
    .argument("<file>", "the OSM file")
    .requiredOption("--db <path>", "the SQLite file to create, or the postgres:// URL of a PostGIS database to load (its feature tables are replaced)")
    .option("--force", "replace an existing --db, only once the import has succeeded")
    .addHelpText("after", IMPORT_EXIT_CODES)
    .action(async (file: string, flags: ImportFlags) => {
      // Loaded here, not at the top: validate must never load importer or SQLite code.
      const { runImport } = await import("./import.js");
      process.exitCode = await runImport(file, flags, { stdout: process.stdout, stderr: process.stderr });
    });
}

function declareUpdate(cli: Command): void {
  const update = cli
    .command("update")
    .description("apply an OSM change file (.osc, .osc.gz) to a store made by basemodel import, with its changesets, checking data quality")
    .argument("<change>", "the OSM change file")
    .requiredOption("--db <path>", "the store to update: a SQLite file, or a postgres:// URL (through osm2pgsql --append)")
    .option("--changesets <file>", "changeset metadata (.osm, .osm.gz, .osm.bz2): hashtags, editor, dates");
  withQualityRules(update)
    .option("--no-quality", "skip the data quality checks")
    .addHelpText("after", UPDATE_EXIT_CODES)
    .action(async (change: string, flags: UpdateFlags) => {
      const { runUpdate } = await import("./update.js");
      process.exitCode = await runUpdate(change, flags, { stdout: process.stdout, stderr: process.stderr });
    });
}

function declareReplicate(cli: Command): void {
  const replicate = cli
    .command("replicate")
    .description("keep a PostGIS store current from a replication server (osm2pgsql-replication), checking each change's data quality")
    .requiredOption("--db <url>", "the PostGIS store (postgres://...) that basemodel import filled")
    .option("--server <url>", "replication server: the folder with state.txt (default: the one set up before, else OSM's minutely diffs)")
    .option("--once", "apply one batch of changes and stop, instead of everything the server has");
  withQualityRules(replicate)
    .option("--no-quality", "skip the data quality checks")
    .addHelpText("after", REPLICATE_EXIT_CODES)
    .action(async (flags: ReplicateFlags) => {
      const { runReplicate } = await import("./replicate.js");
      process.exitCode = await runReplicate(flags, { stdout: process.stdout, stderr: process.stderr });
    });
}

function declareCheck(cli: Command): void {
  const check = cli
    .command("check")
    .description("check the data quality of every feature of a store (findings of earlier checks are replaced)")
    .requiredOption("--db <path>", "the store to check: a SQLite file or a postgres:// URL");
  withQualityRules(check)
    .action(async (flags: Pick<UpdateFlags, "db" | "qualityRules">) => {
      const { runCheck } = await import("./update.js");
      process.exitCode = await runCheck(flags, { stdout: process.stdout, stderr: process.stderr });
    });
}

function declareServe(cli: Command): void {
  cli
    .command("serve")
    .description("start the reference server (raw data export API under /latest and /v1, feature query API under /raw; docs at /docs)")
    .option("--db <path>", "a store made by basemodel import (default: a generated demo town)")
    .option("--port <port>", "TCP port; 0 picks a free one", port, 8000)
    .option("--host <host>", "address to listen on", "127.0.0.1")
    .option("--exports <dir>", "folder for export zips and the export task queue", "./exports")
    .option("--public-url <url>", "the server's address as clients see it, for download URLs (default: the host each request was sent to)")
    .option("--workers <n>", "exports run at the same time", numberAtLeast(1, true), 2)
    .option("--processes <n>", "processes answering HTTP requests on the port, to use more cores; exports run in the main one", numberAtLeast(1, true), 1)
    .option("--max-area <km2>", "largest export area in km²", numberAtLeast(0, false), 100_000)
    .option("--plain-max-area <km2>", "largest area in km² of a /snapshot/plain/ request with a geometry", numberAtLeast(0, false), 6)
    .option("--tile-cache <MiB>", "vector tiles kept in memory by each process (0: none)", numberAtLeast(0, false), 64)
    .option("--users <file>", "users who may send an access-token, JSON: [{token, osm_id, username, role: admin|staff|guest}] (default: none, every route open)")
    .option("--cors <origins>", "origins whose web pages may call the server: *, none, or origins separated by commas (http://localhost:5000,https://fair.hotosm.org)", corsOrigins, "*")
    .option("--strict-requests", "refuse request members the API does not name (422), instead of ignoring them as the real services do")
    .option("--export-max-age <hours>", "delete export zips and forget their tasks this many hours after they finish", numberAtLeast(0, false), 24)
    .option("--queue <url>", "put exports on the Redis queue at this address (redis://host:port) for basemodel worker to run, and run none here", redisQueueUrl)
    .addOption(logLevelOption("a line per request and per export at info, failures at warn and error"))
    .action(async (flags: ServeFlags) => {
      // Loaded here, not at the top: validate must never load fastify, SQLite or geometry code.
      const { runServe } = await import("./serve.js");
      process.exitCode = await runServe(flags, { stdout: process.stdout, stderr: process.stderr, stopped: stopSignal() }, packageVersion());
    });
}

function declareWorker(cli: Command): void {
  cli
    .command("worker")
    .description("run the exports that basemodel serve --queue puts on a Redis queue; SIGTERM or Ctrl-C puts running ones back on the queue")
    .requiredOption("--queue <url>", "the Redis queue's address, as serve --queue names it (redis://host:port)", redisQueueUrl)
    .requiredOption("--db <path>", "the store to export from: a SQLite file or a postgres:// URL")
    .requiredOption("--exports <dir>", "the folder the servers publish exports from (shared by every machine that runs workers or servers)")
    .option("--concurrency <n>", "exports run at the same time", numberAtLeast(1, true), 2)
    .addOption(logLevelOption("a line per export step at info, failures at warn and error"))
    .action(async (flags: WorkerFlags) => {
      const { runWorker } = await import("./worker.js");
      process.exitCode = await runWorker(flags, { stdout: process.stdout, stderr: process.stderr, stopped: stopSignal() });
    });
}

/** Each command by its name, in the order the root's help lists them. */
export const SERVER_COMMANDS: ReadonlyMap<string, (cli: Command) => void> = new Map([
  ["import", declareImport],
  ["update", declareUpdate],
  ["replicate", declareReplicate],
  ["check", declareCheck],
  ["serve", declareServe],
  ["worker", declareWorker],
]);
