/**
 * The one place that knows which stores there are. Each factory says which locations it takes
 * (a postgres:// or postgresql:// URL: the PostGIS database osm2pgsql fills; any other: a SQLite
 * file) and which drivers it loads; a driver, an optional dependency, is loaded only when a
 * store of its kind is opened.
 */
import { postgisStoreFactory } from "./postgis/factory.js";
import { sqliteStoreFactory } from "./sqlite/store.js";
import type { EmbeddedStoreFactory, FeatureStore, Osm2pgsqlStoreFactory } from "./store.js";

export type StoreFactory = EmbeddedStoreFactory | Osm2pgsqlStoreFactory;

const FACTORIES: readonly StoreFactory[] = [postgisStoreFactory, sqliteStoreFactory];

/** The factory of the store `location` names. */
export function storeFactory(location: string): StoreFactory {
  const factory = FACTORIES.find((candidate) => candidate.takes(location));
  if (factory === undefined) throw new Error(`no store takes the location ${location}`);
  return factory;
}

/**
 * The factory of a store that basemodel's own importer and change application write: a file.
 * `purpose` says in the error what needed one.
 */
export function embeddedStoreFactory(location: string, purpose: string): EmbeddedStoreFactory {
  const factory = storeFactory(location);
  if (factory.kind !== "embedded") throw new Error(`${purpose} needs a file for --db, not a database URL`);
  return factory;
}

/** Opens the existing store at `location` for reading. */
export async function openStore(location: string): Promise<FeatureStore> {
  return storeFactory(location).open(location);
}
