/**
 * The quality checker: quality rules applied to one feature at a time, with its neighbours for
 * the overlap and duplicate checks. Store-independent: the caller finds the neighbours.
 */
import { GeosError, loadGeos } from "../geometry/geos.js";
import type { Geos } from "../geometry/geos.js";
import type { FoundFeature, TagFilter } from "../../model/query.js";
import { geometryBBox } from "../../model/geojson.js";
import type { BBox, Geometry, Position } from "../../model/geojson.js";
import type { FeatureTable } from "../../model/features.js";
import { OverlapTest, geometryKey, isPolygonal } from "./overlap.js";
import type { QualityRules, SourceRules } from "./rules.js";
import { worstCorner } from "./squareness.js";
import { matchesAny, tagCheck } from "./tags.js";
import type { TagProblems } from "./tags.js";
import { QUALITY_STATUSES, type QualityStatus } from "../../model/statuses.js";

export { QUALITY_STATUSES, type QualityStatus } from "../../model/statuses.js";

export interface QualityIssue {
  status: QualityStatus;
  /** What is wrong, e.g. "building=houes" for badvalue; docs/quality.md lists them per status. */
  values: string[];
  /** The name of the quality rules source that found it, e.g. "building". */
  source: string;
}

/** Features whose bounding box intersects `bbox`; the feature being checked may be among them. */
export type NearbyFeatures = (bbox: BBox) => Iterable<FoundFeature>;

export interface QualityChecker {
  /** The feature's issues, at most one per status and source, sources in the order of the quality rules. */
  check(found: FoundFeature, nearby: NearbyFeatures): QualityIssue[];
  /**
   * The features `check()` would compare this one with, as a tag filter (null: none): callers
   * fetch only those, and re-check them when this feature changes.
   */
  neighbourTags(tags: Record<string, string>): TagFilter | null;
  /** Frees the checker's GEOS memory; it cannot be used afterwards. */
  dispose(): void;
}

interface CompiledSource {
  rules: SourceRules;
  tags: (tags: Record<string, string>) => TagProblems;
}

/** A checker for `rules`; GEOS (geos-wasm) is loaded only when a source checks validity or overlap. */
export async function createQualityChecker(rules: QualityRules): Promise<QualityChecker> {
  const geos = rules.sources.some((source) => source.valid || source.overlapping) ? await loadGeos() : null;
  return new Checker(
    rules.sources.map((source) => ({ rules: source, tags: tagCheck(source) })),
    geos,
  );
}

const OSM_TYPES: Record<FeatureTable, string> = { nodes: "node", ways_line: "way", ways_poly: "way", relations: "relation" };

class Checker implements QualityChecker {
  private overlap: OverlapTest | null;
  private disposed = false;

  constructor(
    private readonly sources: CompiledSource[],
    private readonly geos: Geos | null,
  ) {
    this.overlap = geos && sources.some(({ rules }) => rules.overlapping) ? new OverlapTest(geos) : null;
  }

  check(found: FoundFeature, nearby: NearbyFeatures): QualityIssue[] {
    if (this.disposed) throw new Error("This quality checker was disposed of");
    const { tags, geometry } = found.feature;
    const facts = new FeatureFacts(found, nearby, this.geos);
    const issues: QualityIssue[] = [];
    for (const source of this.sources) {
      if (!matchesAny(source.rules.match, tags)) continue;
      const problems = this.sourceProblems(source, geometry, facts);
      for (const status of QUALITY_STATUSES) {
        const values = problems[status];
        if (values.length > 0) issues.push({ status, values: [...new Set(values)], source: source.rules.source });
      }
    }
    return issues;
  }

  neighbourTags(tags: Record<string, string>): TagFilter | null {
    const terms = this.sources.filter(({ rules }) => (rules.duplicate || rules.overlapping) && matchesAny(rules.match, tags)).flatMap(({ rules }) => rules.match);
    if (terms.length === 0) return null;
    return { join: "or", conditions: terms.map(({ key, value }) => ({ key, values: value === null ? [] : [value] })) };
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.overlap?.dispose();
    this.overlap = null;
  }

  private sourceProblems({ rules, tags }: CompiledSource, geometry: Geometry, facts: FeatureFacts): Record<QualityStatus, string[]> {
    const badgeom: string[] = [];
    if (rules.valid) {
      const invalidity = facts.invalidity();
      if (invalidity) badgeom.push(invalidity);
    }
    if (rules.squareness && isPolygonal(geometry)) {
      const corner = worstCorner(geometry, rules.squareness.threshold);
      if (corner) badgeom.push(`not square: ${corner.angle.toFixed(1)}° corner at ${formatPoint(corner.position)}`);
    }
    const others = rules.duplicate || rules.overlapping ? facts.neighbours().filter(({ feature }) => matchesAny(rules.match, feature.tags)) : [];
    const duplicates = rules.duplicate ? others.filter(({ feature }) => facts.isDuplicate(feature.geometry)) : [];
    const overlapping =
      this.overlap && rules.overlapping && isPolygonal(geometry) ? this.overlap.overlapping(geometry, others.filter((other) => !duplicates.includes(other))) : [];
    return { badgeom, overlapping: references(overlapping), duplicate: references(duplicates), ...tags(facts.found.feature.tags) };
  }
}

/** What several sources may ask about the same feature, worked out once. */
class FeatureFacts {
  private cachedInvalidity: string | null | undefined;
  private cachedNeighbours: FoundFeature[] | undefined;
  private cachedKey: string | undefined;
  private cachedBBox: BBox | undefined;

  constructor(
    readonly found: FoundFeature,
    private readonly nearby: NearbyFeatures,
    private readonly geos: Geos | null,
  ) {}

  /** Why GEOS finds the geometry invalid, or null. */
  invalidity(): string | null {
    if (this.cachedInvalidity === undefined) {
      // createQualityChecker loads GEOS whenever a source checks validity.
      const geos = this.geos!;
      try {
        const invalidity = geos.with(this.found.feature.geometry, (pointer) => geos.invalidity(pointer));
        const where = invalidity && Number.isFinite(invalidity.x) ? ` at ${formatPoint([invalidity.x, invalidity.y])}` : "";
        this.cachedInvalidity = invalidity && `invalid: ${invalidity.reason}${where}`;
      } catch (error) {
        // A geometry GEOS cannot even build (an unclosed ring) is invalid too.
        if (!(error instanceof GeosError)) throw error;
        this.cachedInvalidity = `invalid: ${error.message}`;
      }
    }
    return this.cachedInvalidity;
  }

  /** The nearby features, without the feature itself. */
  neighbours(): FoundFeature[] {
    const { table, feature } = this.found;
    this.cachedNeighbours ??= [...this.nearby(this.bbox())].filter(
      (other) => other.table !== table || other.feature.osmId !== feature.osmId,
    );
    return this.cachedNeighbours;
  }

  /** True when `geometry` has the same positions as the feature's, whatever their order. */
  isDuplicate(geometry: Geometry): boolean {
    // Equal bounding boxes first: far cheaper than the canonical texts, and rarely true.
    const box = geometryBBox(geometry);
    const own = this.bbox();
    if (box.minX !== own.minX || box.minY !== own.minY || box.maxX !== own.maxX || box.maxY !== own.maxY) return false;
    this.cachedKey ??= geometryKey(this.found.feature.geometry);
    return geometryKey(geometry) === this.cachedKey;
  }

  private bbox(): BBox {
    this.cachedBBox ??= geometryBBox(this.found.feature.geometry);
    return this.cachedBBox;
  }
}

/** "way/42" for each feature, sorted by type then id, so the values do not depend on the store's order. */
function references(features: FoundFeature[]): string[] {
  return features
    .map(({ table, feature }) => ({ type: OSM_TYPES[table], id: feature.osmId }))
    .sort((a, b) => a.type.localeCompare(b.type) || a.id - b.id)
    .map(({ type, id }) => `${type}/${id}`);
}

/** "lon lat" with at most 7 decimals (about 1 cm). */
function formatPoint([x, y]: Position): string {
  return `${Number(x.toFixed(7))} ${Number(y.toFixed(7))}`;
}
