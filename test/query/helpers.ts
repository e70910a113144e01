import { findFeatures } from "../../src/query/find.js";
import type { FeatureQuery, FoundFeature } from "../../src/query/types.js";
import type { FeatureStore } from "../../src/store/store.js";

/** A query's page gathered into an array, and whether more matches follow it. */
export async function findPage(store: FeatureStore, query: FeatureQuery): Promise<{ features: FoundFeature[]; hasMore: boolean }> {
  const features: FoundFeature[] = [];
  const { hasMore } = await findFeatures(store, query, (found) => features.push(found));
  return { features, hasMore };
}
