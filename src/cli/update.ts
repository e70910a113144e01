/**
 * `basemodel update`: applies an OSM change file (and its changesets) to a store made by
 * `basemodel import`, checking data quality on what changed. One transaction: a file that
 * fails half-way leaves the store as it was.
 */
import { existsSync, statSync } from "node:fs";
import { basename } from "node:path";
import type { RuleSet } from "../quality/rules.js";
import type { UpdateSummary } from "../update/apply.js";
import { isEnvironmentError } from "./import.js";
import { withOptionalDependencies } from "./optional.js";
import { UsageError } from "./usage-error.js";

export interface UpdateFlags {
  db: string;
  changesets?: string;
  rules?: string;
  /** Commander's --no-quality. */
  quality?: boolean;
}

export interface UpdateIo {
  stdout: { write(text: string): unknown };
  stderr: { write(text: string): unknown };
}

const EXIT_UPDATED = 0;
const EXIT_UPDATE_FAILED = 1;

export async function runUpdate(change: string, flags: UpdateFlags, io: UpdateIo): Promise<number> {
  for (const [path, what] of [
    [change, "the change file"],
    [flags.db, "--db"],
    ...(flags.changesets === undefined ? [] : [[flags.changesets, "--changesets"]]),
    ...(flags.rules === undefined ? [] : [[flags.rules, "--rules"]]),
  ] as Array<[string, string]>) {
    if (!existsSync(path)) throw new UsageError(`${what} ${path} does not exist`);
    if (statSync(path).isDirectory()) throw new UsageError(`${what} ${path} is a folder, not a file`);
  }
  const { updateStore, UpdateError, OsmImportError, loadRuleSet } = await withOptionalDependencies("basemodel update", loadUpdater);
  const skipQuality = flags.quality === false;
  let rules: RuleSet | undefined;
  if (!skipQuality && flags.rules !== undefined) {
    try {
      rules = await loadRuleSet(flags.rules);
    } catch (error) {
      throw new UsageError((error as Error).message);
    }
  }

  const started = performance.now();
  let summary: UpdateSummary;
  try {
    summary = await updateStore(flags.db, change, { changesets: flags.changesets, rules, skipQuality });
  } catch (error) {
    if (error instanceof OsmImportError) {
      io.stderr.write(`basemodel: ${error.message}; ${flags.db} was not changed\n`);
      return EXIT_UPDATE_FAILED;
    }
    if (error instanceof UpdateError) {
      io.stderr.write(`basemodel: cannot apply ${change}: ${error.message}; ${flags.db} was not changed\n`);
      return EXIT_UPDATE_FAILED;
    }
    if (/is not a feature store|is a feature store of schema version/.test((error as Error).message)) throw new UsageError((error as Error).message);
    if (isEnvironmentError(error)) {
      io.stderr.write(`basemodel: cannot update ${flags.db}: ${(error as Error).message}\n`);
      return EXIT_UPDATE_FAILED;
    }
    throw error;
  }
  io.stdout.write(formatSummary(change, flags, summary, (performance.now() - started) / 1000));
  return EXIT_UPDATED;
}

async function loadUpdater() {
  const [update, errors, osmErrors, rules] = await Promise.all([
    import("../update/update-store.js"),
    import("../update/errors.js"),
    import("../osm/errors.js"),
    import("../quality/rules.js"),
    import("better-sqlite3"),
    import("saxes"),
  ]);
  return { updateStore: update.updateStore, UpdateError: errors.UpdateError, OsmImportError: osmErrors.OsmImportError, loadRuleSet: rules.loadRuleSet };
}

const count = (value: number): string => value.toLocaleString("en-US");
const objects = (counts: UpdateSummary["created"]): string =>
  (["node", "way", "relation"] as const).map((type) => `${count(counts[type])} ${type}${counts[type] === 1 ? "" : "s"}`).join(", ");

function formatSummary(change: string, flags: UpdateFlags, summary: UpdateSummary, seconds: number): string {
  const lines = [
    `Applied ${basename(change)} to ${flags.db} in ${seconds.toFixed(1)} s`,
    `  created     ${objects(summary.created)}`,
    `  modified    ${objects(summary.modified)}`,
    `  deleted     ${objects(summary.deleted)}`,
    `  skipped     ${count(summary.skipped)} (the store had that version or a newer one)`,
    `  features    ${count(summary.featuresWritten)} written, ${count(summary.featuresRemoved)} removed`,
    flags.quality === false
      ? "  quality     not checked (--no-quality)"
      : `  quality     ${count(summary.checked)} checked, ${count(summary.withFindings)} with findings (rules: ${flags.rules ?? "the default"})`,
    `  changesets  ${count(summary.changesets)} loaded`,
    `Replication timestamp: ${summary.replicationTimestamp ?? "unchanged (the change file has no timestamps)"}`,
  ];
  return `${lines.join("\n")}\n`;
}
