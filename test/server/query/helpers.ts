import { findFeatures } from "../../../src/server/query/find.js";
import type { FeatureQuery, FoundFeature } from "../../../src/model/query.js";
import type { FeatureStore } from "../../../src/server/store/store.js";

/** A query's page gathered into an array, and whether more matches follow it. */
export async function findPage(store: FeatureStore, query: FeatureQuery): Promise<{ features: FoundFeature[]; hasMore: boolean }> {
  const features: FoundFeature[] = [];
  const { hasMore } = await findFeatures(store, query, (found) => features.push(found));
  return { features, hasMore };
}
