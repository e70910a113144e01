/**
 * `basemodel import`: builds a feature store from an OpenStreetMap file.
 *
 * main.ts loads this module only when the command runs, and this module loads the importer
 * (pbf, saxes, the store's driver) only after the arguments are checked: usage mistakes are
 * answered at once, and a missing optional dependency is named with the command to install it.
 */
import { existsSync, statSync } from "node:fs";
import { basename, dirname, resolve } from "node:path";
import type { ProblemKind } from "../server/osm/assemble.js";
import type { ImportSummary } from "../server/fill/import.js";
import { shownLocation } from "../server/store/location.js";
import { storeFactory } from "../server/store/open.js";
import { withOptionalDependencies } from "../server/optional.js";
import { progressBar } from "./progress.js";
import { UsageError } from "./usage-error.js";

export interface ImportFlags {
  db: string;
  force?: boolean;
}

export interface ImportIo {
  stdout: { write(text: string): unknown };
  stderr: { write(text: string): unknown; isTTY?: boolean };
}

const EXIT_IMPORTED = 0;
const EXIT_IMPORT_FAILED = 1;
/** As shells report a process ended by SIGINT. */
const EXIT_INTERRUPTED = 130;

const PROBLEM_LABELS: Record<ProblemKind, string> = {
  way_missing_nodes: "ways missing nodes (built from the nodes present)",
  way_without_geometry: "tagged ways with too few nodes (skipped)",
  relation_missing_members: "relations missing member ways (built from the members present)",
  relation_unclosed_ring: "area relations whose rings do not close (skipped)",
  relation_degenerate_ring: "rings of fewer than 4 positions (dropped)",
  relation_inner_outside_outer: "inner rings outside every outer ring (dropped)",
  relation_without_geometry: "relations without any geometry (skipped)",
};

/** Imports `input` into a new store at `flags.db`; returns the exit code, throws what the shell says (shell.ts). */
export async function runImport(input: string, flags: ImportFlags, io: ImportIo): Promise<number> {
  checkInput(input);
  const factory = storeFactory(flags.db);
  // A file is created (--force replaces one); a database's feature tables are replaced.
  const file = factory.kind === "embedded";
  if (file) checkTarget(flags.db, flags.force === true, input);
  // All are looked for before any work: the store loads its driver only after the first pass
  // over the file, too late to tell the user what is missing.
  const { importOsm, OsmImportError } = await withOptionalDependencies("import", [...READERS, ...factory.drivers], () => import("../server/fill/import.js"));

  const bar = progressBar(io.stderr, `importing ${basename(input)}`);
  // Ctrl-C stops the import between blocks, so that its temporary file is removed.
  const interrupt = new AbortController();
  const stop = () => interrupt.abort();
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
  let summary: ImportSummary;
  try {
    // The importer writes a temporary file and renames it over flags.db only when complete,
    // which is what makes --force safe: a failed import leaves the old store untouched.
    summary = await importOsm(input, flags.db, { onProgress: bar.update, signal: interrupt.signal });
  } catch (error) {
    bar.clear();
    if (interrupt.signal.aborted) {
      // osm2pgsql replaces a database's tables as it goes; a file is renamed into place only when complete.
      const left = file ? `${flags.db} was not changed` : `${shownLocation(flags.db)} holds a partial load: import again`;
      io.stderr.write(`basemodel: import of ${input} interrupted; ${left}\n`);
      return EXIT_INTERRUPTED;
    }
    if (error instanceof OsmImportError) {
      io.stderr.write(`basemodel: ${error.message}\n`);
      return EXIT_IMPORT_FAILED;
    }
    throw error;
  } finally {
    process.off("SIGINT", stop);
    process.off("SIGTERM", stop);
  }
  bar.clear();
  io.stdout.write(formatSummary(input, shownLocation(flags.db), summary));
  return EXIT_IMPORTED;
}

function checkInput(input: string): void {
  if (!existsSync(input)) throw new UsageError(`${input} does not exist`);
  if (statSync(input).isDirectory()) throw new UsageError(`${input} is a folder; give an .osm.pbf, .osm or .osm.gz file`);
}

function checkTarget(db: string, force: boolean, input: string): void {
  if (resolve(db) === resolve(input)) throw new UsageError(`--db ${db} is the input file`);
  const folder = dirname(resolve(db));
  if (!existsSync(folder)) throw new UsageError(`cannot create ${db}: the folder ${dirname(db)} does not exist`);
  if (!existsSync(db)) return;
  if (statSync(db).isDirectory()) throw new UsageError(`--db ${db} is a folder; give the path of the SQLite file to create`);
  if (!force) throw new UsageError(`${db} exists already; add --force to replace it (it is replaced only if the import succeeds)`);
}

/** The OSM file readers the import loads besides the store's drivers. */
const READERS = ["pbf", "saxes"];

const count = (value: number): string => value.toLocaleString("en-US");

function formatSummary(input: string, db: string, summary: ImportSummary): string {
  const tables = Object.entries(summary.counts) as Array<[string, number]>;
  const total = tables.reduce((sum, [, value]) => sum + value, 0);
  const width = Math.max(...[...tables.map(([, value]) => value), total].map((value) => count(value).length));
  const lines = [`Imported ${input} into ${db} in ${summary.seconds.toFixed(1)} s`];
  for (const [table, value] of [...tables, ["total", total] as [string, number]]) lines.push(`  ${table.padEnd(10)} ${count(value).padStart(width)}`);
  lines.push(`Replication timestamp: ${summary.replicationTimestamp ?? "unknown (the file does not say)"}`);

  const problems = (Object.entries(summary.problems ?? {}) as Array<[ProblemKind, number]>).filter(([, value]) => value > 0);
  if (summary.problems === null) lines.push("Problems: not counted (osm2pgsql assembled the features)");
  else if (problems.length === 0) lines.push("Problems: none");
  else {
    lines.push("Problems (counted, not fatal; see docs/import.md):");
    const problemWidth = Math.max(...problems.map(([, value]) => count(value).length));
    for (const [kind, value] of problems) lines.push(`  ${count(value).padStart(problemWidth)}  ${PROBLEM_LABELS[kind]}`);
  }
  return `${lines.join("\n")}\n`;
}
