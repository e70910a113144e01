/**
 * Answers a FeatureQuery from any FeatureStore: each table's store query finds the matches
 * (area, tags, changesets, status) in the requested order, until the page and one more match
 * are found. Nothing is read past that point, and no more than one match per table is held at
 * a time. The page's matches are handed over one by one as they are found, so a caller that
 * writes each out at once holds none of them.
 */
import type { FeatureStore } from "../store/store.js";
import type { FeatureTable, OsmFeature } from "../../model/features.js";
import type { FeatureQuery, FeatureQueryResult, FoundFeature } from "../../model/query.js";

export async function findFeatures(store: FeatureStore, query: FeatureQuery, take: (found: FoundFeature) => void): Promise<FeatureQueryResult> {
  const { offset, limit } = query;
  if (!Number.isSafeInteger(offset) || offset < 0) throw new RangeError(`offset must be an integer of at least 0; found ${offset}`);
  if (!Number.isSafeInteger(limit) || limit < 0) throw new RangeError(`limit must be an integer of at least 0; found ${limit}`);
  let seen = 0;
  // No table gives more than the page and one more: a store may stop its query there.
  const reading = { limit: offset + limit + 1 };
  const all = query.order === "newest" ? newestFirst(store, query, reading) : byId(store, query, reading);
  // Leaving the loop early closes the store's queries (for await calls the iterator's return()).
  for await (const found of all) {
    if (seen === offset + limit) return { hasMore: true };
    if (seen >= offset) take(found);
    seen++;
  }
  return { hasMore: false };
}

/** Table by table in the query's order, each by osm_id. */
async function* byId(store: FeatureStore, query: FeatureQuery, reading: TableReading): AsyncGenerator<FoundFeature> {
  for (const table of distinct(query.tables)) yield* tableMatches(store, query, table, { ...reading, order: "id" });
}

/**
 * All tables at once, newest first: each table's matches arrive newest first from the store,
 * so merging their heads gives the global order without sorting (or holding) the matches.
 */
async function* newestFirst(store: FeatureStore, query: FeatureQuery, reading: TableReading): AsyncGenerator<FoundFeature> {
  const streams = distinct(query.tables).map((table) => tableMatches(store, query, table, { ...reading, order: "newest" }));
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

/** How tableMatches() reads a table. */
export interface TableReading {
  order?: "id" | "newest";
  /** No more than this many matches will be taken. */
  limit?: number;
  /** Called for every row the store reads, matching or not: what an export counts to report its progress. */
  onRead?: () => void;
}

/** The matches of one table, streamed in `reading.order`: the store tests the area (it is handed over as data). */
export async function* tableMatches(
  store: Pick<FeatureStore, "candidates">,
  query: Pick<FeatureQuery, "area" | "relation" | "tags" | "geometry" | "changesets" | "status" | "annotated">,
  table: FeatureTable,
  reading: TableReading = {},
): AsyncGenerator<FoundFeature> {
  const options = {
    relation: query.relation,
    geometry: query.geometry,
    tags: query.tags,
    changesets: query.changesets,
    status: query.status,
    annotated: query.annotated === true,
    ...reading,
  };
  for await (const feature of store.candidates(table, query.area, options)) yield { table, feature };
}

function distinct(tables: readonly FeatureTable[]): FeatureTable[] {
  return [...new Set(tables)];
}
