/**
 * Data quality checks against the store, inside an update's transaction: after a change (the
 * rebuilt features and those they were or are now compared with), or of every feature (on
 * request, after an import).
 */
import type { TagFilter } from "../../model/query.js";
import { geometryBBox } from "../../model/geojson.js";
import type { BBox } from "../../model/geojson.js";
import type { CheckableFeatureStore, FindingsUpdate, RebuiltFeature } from "../store/store.js";
import type { QualityFinding, StoredFeature } from "../../model/features.js";

/** What checks a feature: src/server/quality's checker, or anything with its shape. */
export interface FeatureChecker {
  check(found: StoredFeature, nearby: (bbox: BBox) => Iterable<StoredFeature>): QualityFinding[];
  neighbourTags(tags: Record<string, string>): TagFilter | null;
}

export interface CheckSummary {
  /** Features checked, and how many of them have a finding now. */
  checked: number;
  withFindings: number;
}

const WORLD: BBox = { minX: -180, minY: -90, maxX: 180, maxY: 90 };

/**
 * Checks the rebuilt features, and the features they were or are now compared with (whose
 * overlap or duplication may have begun or ended).
 */
export async function checkChanged(update: Pick<FindingsUpdate, "featuresInBBox" | "setFindings">, checker: FeatureChecker, rebuilt: readonly RebuiltFeature[]): Promise<CheckSummary> {
  const toCheck = new Map<string, StoredFeature>();
  const add = (found: StoredFeature) => toCheck.set(`${found.table}/${found.feature.osmId}`, found);
  for (const { before, after } of rebuilt) {
    if (after !== null) add(after);
    for (const found of [before, after]) if (found !== null) (await neighbours(update, checker, found)).forEach(add);
  }
  return checkFeatures(update, checker, toCheck.values());
}

/** Checks every feature of the store, replacing all earlier findings; one transaction. */
export async function checkStore(store: Pick<CheckableFeatureStore, "findings">, checker: FeatureChecker): Promise<CheckSummary> {
  const update = await store.findings();
  try {
    const summary = await checkFeatures(update, checker, await update.featuresInBBox(WORLD));
    await update.commit();
    return summary;
  } catch (error) {
    await update.rollback();
    throw error;
  }
}

async function checkFeatures(update: Pick<FindingsUpdate, "featuresInBBox" | "setFindings">, checker: FeatureChecker, features: Iterable<StoredFeature>): Promise<CheckSummary> {
  const summary: CheckSummary = { checked: 0, withFindings: 0 };
  for (const found of features) {
    const nearby = await neighbours(update, checker, found);
    const findings = checker.check(found, () => nearby);
    await update.setFindings(found, findings);
    summary.checked++;
    if (findings.length > 0) summary.withFindings++;
  }
  return summary;
}

async function neighbours(update: Pick<FindingsUpdate, "featuresInBBox">, checker: FeatureChecker, { feature }: StoredFeature): Promise<StoredFeature[]> {
  const tags = checker.neighbourTags(feature.tags);
  return tags === null ? [] : update.featuresInBBox(geometryBBox(feature.geometry), tags);
}
