/**
 * The contract between the HTTP layer and the query layer. Routes turn request bodies into a
 * FeatureQuery; the query layer answers it from any FeatureStore. Nothing here knows about
 * HTTP, SQL or a particular geometry engine.
 */
import { geometryBBox, type BBox, type PolygonalGeometry } from "./geojson.js";
import type { ChangesetFilter, FeatureTable, OsmFeature } from "./features.js";

/** One tag condition: the key with any of `values`, or the key present with any value when `values` is empty. */
export interface TagCondition {
  key: string;
  values: string[];
}

/**
 * Tag conditions joined by OR or AND; no condition means no tag filter. A condition may be a
 * filter itself, a group: raw-data-api's `{"join_or": {...}, "join_and": {...}}` is two groups.
 */
export interface TagFilter {
  conditions: Array<TagCondition | TagFilter>;
  join: "or" | "and";
}

export function isTagGroup(condition: TagCondition | TagFilter): condition is TagFilter {
  return "conditions" in condition;
}

/** True when `tags` meet the filter (an empty filter holds for any tags), as the stores' queries apply it. */
export function matchesTags(tags: Readonly<Record<string, string>>, filter: TagFilter): boolean {
  if (filter.conditions.length === 0) return true;
  const holds = (condition: TagCondition | TagFilter): boolean =>
    isTagGroup(condition) ? matchesTags(tags, condition) : Object.hasOwn(tags, condition.key) && (condition.values.length === 0 || condition.values.includes(tags[condition.key]!));
  return filter.join === "and" ? filter.conditions.every(holds) : filter.conditions.some(holds);
}

/** Every key the filter names, in its groups too. */
export function tagKeys(filter: TagFilter): string[] {
  return [...new Set(filter.conditions.flatMap((condition) => (isTagGroup(condition) ? tagKeys(condition) : [condition.key])))];
}

/**
 * The area a query is restricted to, as plain data: a store tests it in its own query, or
 * prepares its own exact test from it (and frees that when the query ends).
 */
export interface AreaFilter {
  /** The area itself (WGS84); null for everywhere. */
  geometry: PolygonalGeometry | null;
  /** The area's bounding box (the whole world for everywhere). */
  bbox: BBox;
}

/** The area filter of a valid polygon. */
export function areaOf(geometry: PolygonalGeometry): AreaFilter {
  return { geometry, bbox: geometryBBox(geometry) };
}

export type GeometryKind = "point" | "line" | "polygon";

/** The tables that hold each kind of geometry: relations are lines or areas, split by their geometry. */
export const KIND_TABLES: Record<GeometryKind, readonly FeatureTable[]> = {
  point: ["nodes"],
  line: ["ways_line", "relations"],
  polygon: ["ways_poly", "relations"],
};

/** How a feature must lie in the area: meet it (ST_Intersects, the default), or lie within it, crossing no edge (ST_Within). */
export type SpatialRelation = "intersects" | "within";

export interface FeatureQuery {
  tables: readonly FeatureTable[];
  area: AreaFilter;
  /** "intersects" when absent. */
  relation?: SpatialRelation;
  tags?: TagFilter;
  /** Only features whose changeset matches. */
  changesets?: ChangesetFilter;
  /** Only features with this data quality status. */
  status?: string | undefined;
  /** Read each feature's FeatureAnnotations (data quality, changeset metadata). */
  annotated?: boolean;
  /** Only this kind of geometry: "point" (Point), "line" (LineString, MultiLineString), "polygon" (Polygon, MultiPolygon). */
  geometry?: GeometryKind;
  /** Paging over the matches, applied after the exact test. */
  offset: number;
  limit: number;
  /** "id": by table order, then osm_id ascending; "newest": feature timestamp newest first, then osm_id descending. */
  order: "id" | "newest";
}

export interface FoundFeature {
  table: FeatureTable;
  feature: OsmFeature;
}

/** What a query tells once it has handed over its page. */
export interface FeatureQueryResult {
  /** More matches exist after this page. */
  hasMore: boolean;
}
