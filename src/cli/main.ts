import { readFileSync } from "node:fs";
import { Command, CommanderError, InvalidArgumentError, Option } from "commander";
import type { ImportFlags } from "./import.js";
import { LOG_LEVELS } from "../server/http/log.js";
import type { ServeFlags } from "./serve-options.js";
import { corsOrigins } from "./serve-options.js";
import { redisQueueUrl } from "./queue-option.js";
import type { WorkerFlags } from "./worker.js";
import type { ReplicateFlags } from "./replicate.js";
import type { UpdateFlags } from "./update.js";
import { PROFILE_NAMES, RULE_SET_NAMES, RULES_OPTIONS, type RuleSetName } from "../validator/item/rule-sets.js";
import { UsageError } from "./usage-error.js";
import { EXIT_USAGE } from "./io.js";
import { reportFailure } from "./shell.js";
import { runValidate, type ValidateFlags } from "./validate.js";
import { loadConfig } from "./config.js";
import { chooseRules } from "./rule-choices.js";
import { formatNames } from "../validator/report/index.js";
import { packageFile } from "../package-files.js";

const { version } = JSON.parse(readFileSync(packageFile("package.json"), "utf8")) as { version: string };

const EXIT_CODES = `
Exit codes:
  0  every item is valid (warnings allowed, unless --strict)
  1  at least one item is invalid, or a file is not parseable JSON
  2  usage or configuration error, an unreadable path, or no file matched`;

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

/** A parser for a number option of at least `min` (and whole, when `whole`). */
function numberAtLeast(min: number, whole: boolean): (text: string) => number {
  return (text) => {
    const value = Number(text);
    if (text.trim() === "" || !Number.isFinite(value) || value < min || (whole && !Number.isInteger(value))) {
      throw new InvalidArgumentError(`expected ${whole ? "an integer" : "a number"} of at least ${min}`);
    }
    return value;
  };
}

const collect = (value: string, previous: string[] = []) => [...previous, value];

const logLevelOption = (what: string) => new Option("--log-level <level>", `lines written to standard error: ${what}`).choices(LOG_LEVELS).default("info");

/** Resolves when the process is asked to stop (Ctrl-C, SIGTERM). */
const stopSignal = () =>
  new Promise<void>((resolve) => {
    process.once("SIGINT", resolve);
    process.once("SIGTERM", resolve);
  });

const prefixOption = () => new Option("--prefix <prefix>", 'service prefix of the item\'s own properties (default "fair:")');
const schemaUrlOption = () => new Option("--schema-url <url>", "schema identifier items must list in stac_extensions (default: fAIr's v1.0.0)");
const rulesOption = (choices: readonly string[]) =>
  new Option("--rules <set>", "fAIr's rule set: v1.0.0 (the specification's, the default), v1.0.0-current (what fAIr enforces today under that identifier), v1.1.0" + (choices.includes("auto") ? ", or auto (the set each item's stac_extensions names)" : "")).choices(choices);
const configOption = () => new Option("-c, --config <file>", "configuration file (default: nearest basemodel.config.json or package.json \"basemodel\")");

function program(): Command {
  const cli = new Command("basemodel")
    .description("Validate fAIr base model items (STAC + MLM + fair:)")
    .version(version, "-v, --version", "print the version")
    .exitOverride();
  // -V as well, the flag before -v: commander takes one short flag per option.
  cli.addOption(new Option("-V").hideHelp()).on("option:V", () => {
    process.stdout.write(`${version}\n`);
    throw new CommanderError(0, "commander.version", version);
  });

  cli
    .command("validate")
    .description("validate base model items in files, folders (*.json, recursively), globs, or - (standard input)")
    .argument(
      "[paths...]",
      "files, folders, globs; - reads standard input. A folder walk (and a glob) skips hidden files and folders (.name), node_modules and .git, and the JSON files it finds that are not STAC at all (counted in the summary); a file named is always checked",
    )
    .addOption(prefixOption())
    .addOption(schemaUrlOption())
    .option("--strict", "count warnings as errors")
    .option("--no-strict", "do not count warnings as errors (overrides the configuration file)")
    .option("--stac", "also check core STAC (by stac_version) and every extension in stac_extensions, offline")
    .option("--no-stac", "do not check core STAC and extensions (overrides the configuration file)")
    .addOption(rulesOption(RULES_OPTIONS))
    .option("--fair-checks", "also check what fAIr's catalogue CI checks beyond its schema: keywords from its vocabulary, fair:hyperparameters_spec covering mlm:hyperparameters, the checkpoint and model assets at http(s) URLs; and fAIr's dataset items, by fAIr's dataset rules")
    .option("--no-fair-checks", "do not run fAIr's CI checks (overrides the configuration file or profile)")
    .addOption(new Option("--profile <name>", "fair-ci: --stac --rules v1.0.0-current --fair-checks, what fAIr's catalogue CI checks today (options given beside it win)").choices(PROFILE_NAMES))
    .option("--schema-map <url=file>", 'with --stac: check the extension whose schema URL is <url> against a local file (repeatable); <url-prefix>/=<folder> maps every URL under the prefix to the same path under the folder', collect)
    .option("--fetch", "with --stac: download the extension schemas that are neither bundled nor mapped, once, into $XDG_CACHE_HOME/basemodel/schemas (default ~/.cache/basemodel/schemas)")
    .option("--offline", "with --stac: use the schemas --fetch downloaded before, and send no request")
    .option("--check-links", "check that every http(s) asset href answers with a status below 400 (HEAD, or a one-byte GET where HEAD is refused); each URL once")
    .option("--link-timeout <seconds>", "with --check-links: how long one request may take (default 10)", numberAtLeast(0.001, false))
    .option("--max-errors <n>", "at most this many issues per item (default 100)", numberAtLeast(1, true))
    .option("-q, --quiet", "print only errors: no valid files, no warnings (text format; the summary still counts them)")
    .addOption(new Option("-f, --format <format>", "output format (default text)").choices(formatNames))
    .addOption(configOption())
    .option("--ignore <glob>", "skip files and folders matching this glob, relative to the folder walked (to the working folder for a glob); repeatable. Hidden ones, node_modules and .git are always skipped", collect, [])
    .option("--color", "colour the text output")
    .option("--no-color", "never colour the text output")
    .option("--stdin-filename <name>", "name shown for standard input; .ndjson/.jsonl reads it as NDJSON")
    .option("-j, --jobs <n>", "threads that validate files: 1 validates in this process alone (default: one per core but one when there are many files)", numberAtLeast(1, true))
    .addHelpText("after", EXIT_CODES)
    .action(async (paths: string[], flags: ValidateFlags) => {
      process.exitCode = await runValidate(paths, flags, {
        cwd: process.cwd(),
        env: process.env,
        stdout: process.stdout,
        stderr: process.stderr,
        stdin: process.stdin,
      });
    });

  cli
    .command("schema")
    .description("print the JSON Schema of a base model item (with --rules, --prefix and --schema-url applied)")
    .addOption(rulesOption(RULE_SET_NAMES))
    .addOption(prefixOption())
    .addOption(schemaUrlOption())
    .addOption(configOption())
    .action(async (flags: { rules?: RuleSetName; prefix?: string; schemaUrl?: string; config?: string }) => {
      // The configuration and rule choices are validate's, loaded already: importing them again
      // would make them chunks of their own, and every run start with more files to read.
      const { createValidator } = await import("../index.js");
      const { config } = loadConfig(process.cwd(), flags.config);
      // "auto" chooses per item: with no item, the default set's schema.
      const { rules } = chooseRules(flags, config);
      let schema;
      try {
        schema = createValidator({ rules: rules === "auto" ? undefined : rules, prefix: flags.prefix ?? config.prefix, schemaUrl: flags.schemaUrl ?? config.schemaUrl } as object).schema();
      } catch (error) {
        throw new UsageError((error as Error).message);
      }
      process.stdout.write(`${JSON.stringify(schema, null, 2)}\n`);
    });

  cli
    .command("rules")
    .description("print the rules table (Markdown), or --json for the rule catalogue")
    .option("--json", "print the rules as JSON")
    .action(async (flags: { json?: boolean }) => {
      const [{ rules }, { rulesMarkdown }] = await Promise.all([import("../diagnostics/rules.js"), import("../validator/item/rules-doc.js")]);
      process.stdout.write(flags.json ? `${JSON.stringify(rules, null, 2)}\n` : rulesMarkdown());
    });

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

  const check = cli
    .command("check")
    .description("check the data quality of every feature of a store (findings of earlier checks are replaced)")
    .requiredOption("--db <path>", "the store to check: a SQLite file or a postgres:// URL");
  withQualityRules(check)
    .action(async (flags: Pick<UpdateFlags, "db" | "qualityRules">) => {
      const { runCheck } = await import("./update.js");
      process.exitCode = await runCheck(flags, { stdout: process.stdout, stderr: process.stderr });
    });

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
      process.exitCode = await runServe(flags, { stdout: process.stdout, stderr: process.stderr, stopped: stopSignal() }, version);
    });

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

  // A usage mistake gets its message and where to read more, not the whole help.
  for (const command of [cli, ...cli.commands]) {
    const name = command === cli ? "basemodel" : `basemodel ${command.name()}`;
    command.showHelpAfterError(`Run ${name} --help for usage.`);
  }
  return cli;
}

/**
 * Runs the CLI; sets process.exitCode rather than exiting, so piped output is never cut short.
 * What a command throws is said by the shell every command shares (shell.ts).
 */
export async function main(argv: string[]): Promise<void> {
  stopQuietlyWhenTheReaderLeaves();
  let running = "basemodel";
  try {
    await program()
      .hook("preAction", (_program, action) => {
        running = action.name();
      })
      .parseAsync(argv);
  } catch (error) {
    // Commander printed its message already; help and --version end with 0, usage mistakes with 2.
    if (error instanceof CommanderError) process.exitCode = error.exitCode === 0 ? 0 : EXIT_USAGE;
    else process.exitCode = reportFailure(running, error, process.stderr);
  }
}

/**
 * A reader that stops early (`basemodel validate . | head`) closes the pipe, and Node, which
 * ignores SIGPIPE, turns the next write into an EPIPE error with a stack trace. A Unix tool stops
 * quietly instead, with the exit code it had so far.
 */
function stopQuietlyWhenTheReaderLeaves(): void {
  for (const stream of [process.stdout, process.stderr]) {
    stream.on("error", (error: NodeJS.ErrnoException) => {
      if (error.code !== "EPIPE") throw error;
      process.exit(process.exitCode ?? 0);
    });
  }
}
