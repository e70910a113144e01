/** How many features a query matches, over all its pages: what the statistics routes answer. */
import type { FeatureStore } from "../store/store.js";
import { tableMatches } from "./find.js";
import type { FeatureQuery } from "../../model/query.js";

export type CountQuery = Omit<FeatureQuery, "offset" | "limit" | "order" | "annotated">;

export async function countFeatures(store: Pick<FeatureStore, "candidates">, query: CountQuery): Promise<number> {
  let count = 0;
  for (const table of new Set(query.tables)) {
    for await (const _match of tableMatches(store, query, table)) count++;
  }
  return count;
}
