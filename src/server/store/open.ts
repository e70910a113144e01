/**
 * The one place that maps a `--db` location to its store implementation: a postgres:// or
 * postgresql:// URL is a PostGIS database (filled by osm2pgsql), anything else a SQLite file.
 * Each implementation is loaded only when a location names it, so that its driver (an
 * optional dependency) is needed only by those who use it.
 */
import type { EmbeddedStoreFactory, FeatureStore, Osm2pgsqlStoreFactory } from "./store.js";
import { isDatabaseUrl } from "./location.js";

export type StoreFactory = EmbeddedStoreFactory | Osm2pgsqlStoreFactory;

/** The factory of the store `location` names. */
export async function storeFactory(location: string): Promise<StoreFactory> {
  if (isDatabaseUrl(location)) return (await import("./postgis/factory.js")).postgisStoreFactory;
  return (await import("./sqlite/store.js")).sqliteStoreFactory;
}

/**
 * The factory of a store that basemodel's own importer and change application write: a file.
 * `purpose` says in the error what needed one.
 */
export async function embeddedStoreFactory(location: string, purpose: string): Promise<EmbeddedStoreFactory> {
  const factory = await storeFactory(location);
  if (factory.kind !== "embedded") throw new Error(`${purpose} needs a file for --db, not a database URL`);
  return factory;
}

/** Opens the existing store at `location` for reading. */
export async function openStore(location: string): Promise<FeatureStore> {
  return (await storeFactory(location)).open(location);
}
