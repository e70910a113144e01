/**
 * The demo's data quality findings: the real checker with the default quality rules, run over every
 * feature, so that the statuses the server answers are the ones an update would record. A
 * writer cannot read back what it wrote, so neighbours come from the features in memory; the
 * town is small enough to scan them all for each feature.
 */
import { createQualityChecker } from "../quality/check.js";
import { loadQualityRules } from "../quality/rules.js";
import { bboxesIntersect, geometryBBox } from "../../model/geojson.js";
import type { BBox } from "../../model/geojson.js";
import type { QualityFinding, StoredFeature } from "../../model/features.js";

export interface DemoFindings {
  found: StoredFeature;
  findings: QualityFinding[];
}

/** The features with at least one finding, in the order given. */
export async function demoFindings(features: readonly StoredFeature[]): Promise<DemoFindings[]> {
  const checker = await createQualityChecker(await loadQualityRules());
  try {
    const boxes = features.map(({ feature }) => geometryBBox(feature.geometry));
    const nearby = (bbox: BBox) => features.filter((_, index) => bboxesIntersect(boxes[index]!, bbox));
    return features.map((found) => ({ found, findings: checker.check(found, nearby) })).filter(({ findings }) => findings.length > 0);
  } finally {
    checker.dispose();
  }
}
