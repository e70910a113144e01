/**
 * Answers a FeatureQuery from any FeatureStore: the store narrows by bounding box and tags
 * (its indexes), then each candidate gets the exact area test, in the requested order, until
 * the page and one more match are found. Nothing is read past that point, and no more than
 * one candidate per table is held at a time. The page's matches are handed over one by one
 * as they are found, so a caller that writes each out at once holds none of them.
 */
import type { BBox, Geometry } from "../store/geojson.js";
import { geometryTypeOf } from "../store/store.js";
import type { FeatureStore, FeatureTable, OsmFeature } from "../store/store.js";
import type { FeatureQuery, FeatureQueryResult, FoundFeature, GeometryKind } from "./types.js";

const KINDS: Record<GeometryKind, ReadonlySet<Geometry["type"]>> = {
  point: new Set(["Point"]),
  line: new Set(["LineString", "MultiLineString"]),
  polygon: new Set(["Polygon", "MultiPolygon"]),
};

export async function findFeatures(store: FeatureStore, query: FeatureQuery, take: (found: FoundFeature) => void): Promise<FeatureQueryResult> {
  const { offset, limit } = query;
  if (!Number.isSafeInteger(offset) || offset < 0) throw new RangeError(`offset must be a whole number >= 0, found ${offset}`);
  if (!Number.isSafeInteger(limit) || limit < 0) throw new RangeError(`limit must be a whole number >= 0, found ${limit}`);
  let seen = 0;
  const all = query.order === "newest" ? newestFirst(store, query) : byId(store, query);
  // Leaving the loop early closes the store's queries (for await calls the iterator's return()).
  for await (const found of all) {
    if (seen === offset + limit) return { hasMore: true };
    if (seen >= offset) take(found);
    seen++;
  }
  return { hasMore: false };
}

/** Table by table in the query's order, each by osm_id. */
async function* byId(store: FeatureStore, query: FeatureQuery): AsyncGenerator<FoundFeature> {
  for (const table of distinct(query.tables)) yield* tableMatches(store, query, table, "id");
}

/**
 * All tables at once, newest first: each table's matches arrive newest first from the store,
 * so merging their heads gives the global order without sorting (or holding) the matches.
 */
async function* newestFirst(store: FeatureStore, query: FeatureQuery): AsyncGenerator<FoundFeature> {
  const streams = distinct(query.tables).map((table) => tableMatches(store, query, table, "newest"));
  try {
    const heads = await Promise.all(streams.map((stream) => stream.next()));
    for (;;) {
      let pick = -1;
      heads.forEach((head, index) => {
        if (head.done) return;
        const current = heads[pick];
        // Ties go to the earlier table: `>` keeps the first of equals.
        if (pick === -1 || (current && !current.done && newer(head.value.feature, current.value.feature) > 0)) pick = index;
      });
      if (pick === -1) return;
      yield (heads[pick] as IteratorYieldResult<FoundFeature>).value;
      heads[pick] = await streams[pick]!.next();
    }
  } finally {
    await Promise.all(streams.map((stream) => stream.return(undefined)));
  }
}

/** Positive when `a` comes first in the "newest" order: the store's order, restated. */
function newer(a: OsmFeature, b: OsmFeature): number {
  if (a.timestamp !== b.timestamp) {
    // No timestamp sorts last, as SQL's NULL does in a descending order.
    if (a.timestamp === null) return -1;
    if (b.timestamp === null) return 1;
    return a.timestamp > b.timestamp ? 1 : -1;
  }
  return a.osmId - b.osmId;
}

/**
 * The matches of one table, streamed in `order`. `onCandidate` is called for every candidate
 * read, matching or not: what an export counts to report its progress.
 */
export async function* tableMatches(
  store: Pick<FeatureStore, "candidates">,
  query: Pick<FeatureQuery, "area" | "relation" | "tags" | "geometry" | "changesets" | "status" | "annotated">,
  table: FeatureTable,
  order: "id" | "newest" = "id",
  onCandidate?: () => void,
): AsyncGenerator<FoundFeature> {
  const accepts = geometryTest(query);
  const { area } = query;
  const [boxInside, exact] =
    query.relation === "within"
      ? [(bbox: BBox) => area.interiorContainsBox(bbox), (geometry: Geometry) => area.within(geometry)]
      : [(bbox: BBox) => area.containsBox(bbox), (geometry: Geometry) => area.intersects(geometry)];
  const options = { tags: query.tags, changesets: query.changesets, status: query.status, annotated: query.annotated === true, order };
  for await (const feature of store.candidates(table, area.bbox, options)) {
    onCandidate?.();
    // Cheapest first: the type, then a box wholly inside the area; only features on the
    // area's edge need the exact test (and their geometry parsed for it).
    const bbox = feature.stored?.bbox;
    if (accepts(feature) && ((bbox !== undefined && boxInside(bbox)) || exact(feature.geometry))) yield { table, feature };
  }
}

function geometryTest(query: Pick<FeatureQuery, "geometry">): (feature: OsmFeature) => boolean {
  if (query.geometry === undefined) return () => true;
  const kind = KINDS[query.geometry];
  return (feature) => kind.has(geometryTypeOf(feature));
}

function distinct(tables: readonly FeatureTable[]): FeatureTable[] {
  return [...new Set(tables)];
}
