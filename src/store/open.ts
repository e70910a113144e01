/**
 * The one place that maps a `--db` location to its store implementation. Each implementation
 * is loaded only when a location names it, so that its driver (an optional dependency) is
 * needed only by those who use it.
 */
import type { EmbeddedStoreFactory, FeatureStore } from "./store.js";

export type StoreFactory = EmbeddedStoreFactory;

/** The factory of the store `location` names. */
export async function storeFactory(_location: string): Promise<StoreFactory> {
  return (await import("./sqlite.js")).sqliteStoreFactory;
}

/** Opens the existing store at `location` for reading. */
export async function openStore(location: string): Promise<FeatureStore> {
  return (await storeFactory(location)).open(location);
}
