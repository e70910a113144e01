/**
 * `basemodel update` without the command line: reads the change file (and changesets), loads
 * the data quality rules, and applies everything to the store in one transaction.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { readOsmChange } from "../osm/change.js";
import { osmChangeXml } from "../osm/change-writer.js";
import { readChangesets } from "../osm/changesets.js";
import { createQualityChecker } from "../quality/check.js";
import { loadQualityRules, type QualityRules } from "../quality/rules.js";
import type { ChangeAction } from "../osm/change.js";
import { storeFactory } from "../store/open.js";
import type { Osm2pgsqlStoreFactory } from "../store/store.js";
import type { OsmType } from "../../model/features.js";
import { applyChange, emptyUpdateSummary, lastVersions, newestTimestamp, TYPE_ORDER, type ApplyOptions, type UpdateSummary } from "./apply.js";
import { checkChanged, checkStore, type CheckSummary } from "./quality.js";

export interface UpdateOptions {
  /** A changeset file (.osm, .osm.gz, .osm.bz2) with the changes' metadata. */
  changesets?: string | undefined;
  /** The data quality rules; the shipped default when absent. */
  qualityRules?: QualityRules | undefined;
  /** Skip the data quality checks. */
  skipQuality?: boolean;
}

export async function updateStore(dbPath: string, changePath: string, options: UpdateOptions = {}): Promise<UpdateSummary> {
  // Everything that can be wrong with the input is found before the store is touched.
  const [change, changesets, rules] = await Promise.all([
    readOsmChange(changePath),
    options.changesets === undefined ? undefined : readChangesets(options.changesets),
    options.skipQuality ? undefined : (options.qualityRules ?? loadQualityRules()),
  ]);
  const checker = rules === undefined ? undefined : await createQualityChecker(rules);
  try {
    const factory = storeFactory(dbPath);
    if (factory.kind === "osm2pgsql") return await appendChange(factory, dbPath, changePath, change.actions, { ...(changesets && { changesets }), ...(checker && { checker }) });
    const store = await factory.open(dbPath);
    try {
      return await applyChange(store, change.actions, { ...(changesets && { changesets }), ...(checker && { checker }) });
    } catch (error) {
      throw factory.failure(dbPath, error) ?? error;
    } finally {
      await store.close();
    }
  } finally {
    checker?.dispose();
  }
}

/**
 * A database store applies the change with its own loader (osm2pgsql), which applies every
 * object of the file: the summary counts what the file names, and skips nothing.
 */
async function appendChange(factory: Osm2pgsqlStoreFactory, location: string, changePath: string, actions: readonly ChangeAction[], options: ApplyOptions): Promise<UpdateSummary> {
  const summary: UpdateSummary = { ...emptyUpdateSummary(), changesets: options.changesets?.length ?? 0 };
  const ordered = inLoaderOrder(actions);
  const objects: Record<OsmType, number[]> = { node: [], way: [], relation: [] };
  for (const { action, entity } of ordered) {
    summary[action === "create" ? "created" : action === "modify" ? "modified" : "deleted"][entity.type]++;
    objects[entity.type].push(entity.id);
  }
  const { checker } = options;
  // osm2pgsql refuses a file out of order ("Input data is not ordered"): it gets a sorted copy.
  const sorted = ordered.length === actions.length && ordered.every((action, index) => action === actions[index]) ? undefined : mkdtempSync(join(tmpdir(), "basemodel-change-"));
  try {
    const file = sorted === undefined ? changePath : join(sorted, basename(changePath).replace(/(\.gz)?$/, "") + ".sorted.osc");
    if (sorted !== undefined) writeFileSync(file, osmChangeXml(ordered));
    const appended = await factory.append(file, location, {
      objects,
      newest: newestTimestamp(actions),
      ...(options.changesets && { changesets: options.changesets }),
      ...(checker && { check: async (rebuilt, findings) => void Object.assign(summary, await checkChanged(findings, checker, rebuilt)) }),
    });
    return { ...summary, ...appended };
  } finally {
    if (sorted !== undefined) rmSync(sorted, { recursive: true, force: true });
  }
}

/** The last version of each object, nodes, then ways, then relations, each by id: the order osm2pgsql reads. */
function inLoaderOrder(actions: readonly ChangeAction[]): ChangeAction[] {
  return lastVersions(actions).sort((a, b) => TYPE_ORDER[a.entity.type] - TYPE_ORDER[b.entity.type] || a.entity.id - b.entity.id);
}

/** Checks every feature of the store against the quality rules (the default when absent). */
export async function checkWholeStore(dbPath: string, rules?: QualityRules): Promise<CheckSummary> {
  const checker = await createQualityChecker(rules ?? (await loadQualityRules()));
  try {
    const factory = storeFactory(dbPath);
    const store = await factory.open(dbPath);
    try {
      return await checkStore(store, checker);
    } catch (error) {
      throw factory.failure(dbPath, error) ?? error;
    } finally {
      await store.close();
    }
  } finally {
    checker.dispose();
  }
}
