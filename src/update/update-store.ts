/**
 * `basemodel update` without the command line: reads the change file (and changesets), loads
 * the data quality rules, and applies everything to the store in one transaction.
 */
import { readOsmChange } from "../osm/change.js";
import { readChangesets } from "../osm/changesets.js";
import { createQualityChecker } from "../quality/check.js";
import { loadRuleSet, type RuleSet } from "../quality/rules.js";
import { embeddedStoreFactory, storeFactory } from "../store/open.js";
import { applyChange } from "./apply.js";
import type { UpdateSummary } from "./apply.js";
import { checkStore, type CheckSummary } from "./quality.js";

export interface UpdateOptions {
  /** A changeset file (.osm, .osm.gz, .osm.bz2) with the changes' metadata. */
  changesets?: string | undefined;
  /** The data quality rule set; the shipped default when absent. */
  rules?: RuleSet | undefined;
  /** Skip the data quality checks. */
  skipQuality?: boolean;
}

export async function updateStore(dbPath: string, changePath: string, options: UpdateOptions = {}): Promise<UpdateSummary> {
  // Everything that can be wrong with the input is found before the store is touched.
  const [change, changesets, rules] = await Promise.all([
    readOsmChange(changePath),
    options.changesets === undefined ? undefined : readChangesets(options.changesets),
    options.skipQuality ? undefined : (options.rules ?? loadRuleSet()),
  ]);
  const checker = rules === undefined ? undefined : await createQualityChecker(rules);
  try {
    const factory = await embeddedStoreFactory(dbPath, "basemodel update");
    const store = await factory.open(dbPath);
    try {
      return await applyChange(store, change.actions, { ...(changesets && { changesets }), ...(checker && { checker }) });
    } catch (error) {
      throw factory.damaged(dbPath, error) ?? error;
    } finally {
      await store.close();
    }
  } finally {
    checker?.dispose();
  }
}

/** Checks every feature of the store against the rule set (the default when absent). */
export async function checkWholeStore(dbPath: string, rules?: RuleSet): Promise<CheckSummary> {
  const checker = await createQualityChecker(rules ?? (await loadRuleSet()));
  try {
    const factory = await storeFactory(dbPath);
    const store = await factory.open(dbPath);
    try {
      return await checkStore(store, checker);
    } catch (error) {
      throw (factory.kind === "embedded" && factory.damaged(dbPath, error)) || error;
    } finally {
      await store.close();
    }
  } finally {
    checker.dispose();
  }
}
