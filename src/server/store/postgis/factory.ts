/** The PostGIS store's factory: open() for reading, load() and append() through osm2pgsql. */
import type pg from "pg";
import { NotAStore, StoreSchemaVersion } from "../../errors.js";
import type { Osm2pgsqlStoreFactory } from "../store.js";
import { isDatabaseUrl, shownLocation } from "../location.js";
import { appendWithOsm2pgsql } from "./append.js";
import { connectionError, DRIVERS, openPool } from "./connection.js";
import { loadWithOsm2pgsql } from "./load.js";
import { SCHEMA_VERSION } from "./schema.js";
import { replicateWithOsm2pgsql } from "./replicate.js";
import { PostgisFeatureStore } from "./store.js";

/** A pool on a database that `basemodel import` filled, with our schema's version; anything else is refused in one line. */
async function openStorePool(url: string): Promise<pg.Pool> {
  const pool = await openPool(url);
  let version: string | undefined;
  try {
    const { rows } = await pool.query<{ value: string }>(
      "SELECT value FROM basemodel_meta WHERE key = 'schema_version' AND to_regclass('basemodel_meta') IS NOT NULL",
    );
    version = rows[0]?.value;
  } catch {
    // No basemodel_meta table: not a store of ours (answered below).
  }
  if (version !== SCHEMA_VERSION) {
    await pool.end();
    const location = shownLocation(url);
    throw version === undefined
      ? new NotAStore({ location, hint: `load an OSM file into it with \`basemodel import <file> --db ${location}\`` })
      : new StoreSchemaVersion({ location, found: version, reads: SCHEMA_VERSION });
  }
  return pool;
}

export const postgisStoreFactory: Osm2pgsqlStoreFactory = {
  kind: "osm2pgsql",
  takes: isDatabaseUrl,
  drivers: DRIVERS,
  failure: connectionError,
  open: async (url) => new PostgisFeatureStore(await openStorePool(url)),
  load: loadWithOsm2pgsql,
  append: (change, url, options) => withStorePool(url, (pool) => appendWithOsm2pgsql(pool, change, url, options)),
  replicate: (url, options) => withStorePool(url, (pool) => replicateWithOsm2pgsql(pool, url, options)),
};

/** Runs `use` on a pool of the store; whatever stops it is one of the typed errors (see connectionError). */
async function withStorePool<T>(url: string, use: (pool: pg.Pool) => Promise<T>): Promise<T> {
  const pool = await openStorePool(url);
  try {
    return await use(pool);
  } catch (error) {
    throw connectionError(url, error);
  } finally {
    await pool.end();
  }
}
