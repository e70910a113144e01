/**
 * `basemodel update`: applies an OSM change file (and its changesets) to a store made by
 * `basemodel import`, checking data quality on what changed. One transaction: a file that
 * fails half-way leaves the store as it was.
 */
import { existsSync, statSync } from "node:fs";
import { basename } from "node:path";
import type { QualityRules } from "../server/quality/rules.js";
import { shownLocation } from "../server/store/location.js";
import { storeFactory, type StoreFactory } from "../server/store/open.js";
import type { UpdateSummary } from "../server/fill/apply.js";
import { withOptionalDependencies } from "../server/optional.js";
import { UsageError } from "./usage-error.js";

export interface UpdateFlags {
  db: string;
  changesets?: string;
  /** --quality-rules (or its alias --rules). */
  qualityRules?: string;
  /** Commander's --no-quality. */
  quality?: boolean;
}

export interface UpdateIo {
  stdout: { write(text: string): unknown };
  stderr: { write(text: string): unknown };
}

const EXIT_UPDATED = 0;
const EXIT_UPDATE_FAILED = 1;

/** The packages update and check load beside the store's drivers; the data quality checks also need QUALITY_OPTIONAL. */
const READERS = ["saxes", "pbf"];
const QUALITY_OPTIONAL = ["geos-wasm"];

export async function runUpdate(change: string, flags: UpdateFlags, io: UpdateIo): Promise<number> {
  const factory = storeFactory(flags.db);
  checkFiles([
    [change, "the change file"],
    [storeFile(factory, flags.db), "--db"],
    [flags.changesets, "--changesets"],
    [flags.qualityRules, "--quality-rules"],
  ]);
  const skipQuality = flags.quality === false;
  const packages = [...factory.drivers, ...READERS, ...(skipQuality ? [] : QUALITY_OPTIONAL)];
  const { updateStore, UpdateError, OsmImportError, loadQualityRules } = await withOptionalDependencies("update", packages, loadUpdater);
  const rules = skipQuality ? undefined : await qualityRules(loadQualityRules, flags.qualityRules);

  const started = performance.now();
  let summary: UpdateSummary;
  try {
    summary = await updateStore(flags.db, change, { changesets: flags.changesets, qualityRules: rules, skipQuality });
  } catch (error) {
    const db = shownLocation(flags.db);
    if (error instanceof OsmImportError) {
      io.stderr.write(`basemodel: ${error.message}; ${db} was not changed\n`);
      return EXIT_UPDATE_FAILED;
    }
    if (error instanceof UpdateError) {
      io.stderr.write(`basemodel: cannot apply ${change}: ${error.message}; ${db} was not changed\n`);
      return EXIT_UPDATE_FAILED;
    }
    throw error;
  }
  io.stdout.write(formatSummary(change, flags, summary, (performance.now() - started) / 1000));
  return EXIT_UPDATED;
}

/** `basemodel check`: every feature of the store against the quality rules, replacing earlier findings. */
export async function runCheck(flags: Pick<UpdateFlags, "db" | "qualityRules">, io: UpdateIo): Promise<number> {
  const factory = storeFactory(flags.db);
  checkFiles([
    [storeFile(factory, flags.db), "--db"],
    [flags.qualityRules, "--quality-rules"],
  ]);
  const { checkWholeStore, loadQualityRules } = await withOptionalDependencies("check", [...factory.drivers, ...READERS, ...QUALITY_OPTIONAL], loadUpdater);
  const rules = await qualityRules(loadQualityRules, flags.qualityRules);
  const started = performance.now();
  const summary = await checkWholeStore(flags.db, rules);
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  io.stdout.write(
    `Checked ${count(summary.checked)} features of ${shownLocation(flags.db)} in ${seconds} s: ${count(summary.withFindings)} with findings (rules: ${flags.qualityRules ?? "the default"})\n`,
  );
  return EXIT_UPDATED;
}

/** The store's file, which must exist before anything is read; undefined for a store that is no file (a database). */
const storeFile = (factory: StoreFactory, location: string): string | undefined => (factory.kind === "embedded" ? location : undefined);

/** Every named file must exist and be a file; absent options are skipped. */
export function checkFiles(files: Array<[string | undefined, string]>): void {
  for (const [path, what] of files) {
    if (path === undefined) continue;
    if (!existsSync(path)) throw new UsageError(`${what} ${path} does not exist`);
    if (statSync(path).isDirectory()) throw new UsageError(`${what} ${path} is a folder, not a file`);
  }
}

/** The --quality-rules file, or undefined for the default; a bad file is a usage error naming the member. */
async function qualityRules(load: (path: string) => Promise<QualityRules>, path: string | undefined): Promise<QualityRules | undefined> {
  if (path === undefined) return undefined;
  try {
    return await load(path);
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

async function loadUpdater() {
  const [update, errors, osmErrors, rules] = await Promise.all([
    import("../server/fill/update-store.js"),
    import("../server/fill/update-errors.js"),
    import("../server/osm/errors.js"),
    import("../server/quality/rules.js"),
  ]);
  return { updateStore: update.updateStore, checkWholeStore: update.checkWholeStore, UpdateError: errors.UpdateError, OsmImportError: osmErrors.OsmImportError, loadQualityRules: rules.loadQualityRules };
}

const count = (value: number): string => value.toLocaleString("en-US");
const objects = (counts: UpdateSummary["created"]): string =>
  (["node", "way", "relation"] as const).map((type) => `${count(counts[type])} ${type}${counts[type] === 1 ? "" : "s"}`).join(", ");

function formatSummary(change: string, flags: UpdateFlags, summary: UpdateSummary, seconds: number): string {
  const lines = [
    `Applied ${basename(change)} to ${shownLocation(flags.db)} in ${seconds.toFixed(1)} s`,
    `  created     ${objects(summary.created)}`,
    `  modified    ${objects(summary.modified)}`,
    `  deleted     ${objects(summary.deleted)}`,
    `  skipped     ${count(summary.skipped)} (the store had that version or a newer one)`,
    `  features    ${count(summary.featuresWritten)} written, ${count(summary.featuresRemoved)} removed`,
    flags.quality === false
      ? "  quality     not checked (--no-quality)"
      : `  quality     ${count(summary.checked)} checked, ${count(summary.withFindings)} with findings (rules: ${flags.qualityRules ?? "the default"})`,
    `  changesets  ${count(summary.changesets)} loaded`,
    `Replication timestamp: ${summary.replicationTimestamp ?? "unchanged (the change file has no timestamps)"}`,
  ];
  return `${lines.join("\n")}\n`;
}
