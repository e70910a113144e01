/**
 * The one place that maps a `--db` location to its store implementation: a postgres:// or
 * postgresql:// URL is a PostGIS database (filled by osm2pgsql), anything else a SQLite file.
 * Each implementation is loaded only when a location names it, so that its driver (an
 * optional dependency) is needed only by those who use it.
 */
import type { EmbeddedStoreFactory, FeatureStore, Osm2pgsqlStoreFactory } from "./store.js";

export type StoreFactory = EmbeddedStoreFactory | Osm2pgsqlStoreFactory;

/** True for a location that names a PostgreSQL database rather than a file. */
export function isDatabaseUrl(location: string): boolean {
  return /^postgres(ql)?:\/\//i.test(location);
}

/** The location as messages show it: a database URL without its password. */
export function shownLocation(location: string): string {
  if (!isDatabaseUrl(location)) return location;
  const url = new URL(location);
  if (url.password !== "") url.password = "***";
  return url.toString();
}

/** The factory of the store `location` names. */
export async function storeFactory(location: string): Promise<StoreFactory> {
  if (isDatabaseUrl(location)) return (await import("./postgis/factory.js")).postgisStoreFactory;
  return (await import("./sqlite.js")).sqliteStoreFactory;
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
