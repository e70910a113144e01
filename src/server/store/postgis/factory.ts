/** The PostGIS store's factory: open() for reading, load() and append() through osm2pgsql. */
import type pg from "pg";
import type { Osm2pgsqlStoreFactory } from "../store.js";
import { shownLocation } from "../location.js";
import { appendWithOsm2pgsql } from "./append.js";
import { openPool } from "./connection.js";
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
    throw new Error(
      version === undefined
        ? `${shownLocation(url)} is not a feature store: load an OSM file into it with \`basemodel import <file> --db ${shownLocation(url)}\``
        : `${shownLocation(url)} is a feature store of schema version ${version}, and this basemodel reads version ${SCHEMA_VERSION}: import the OSM file again`,
    );
  }
  return pool;
}

export const postgisStoreFactory: Osm2pgsqlStoreFactory = {
  kind: "osm2pgsql",
  open: async (url) => new PostgisFeatureStore(await openStorePool(url)),
  load: loadWithOsm2pgsql,
  append: (change, url, options) => withStorePool(url, (pool) => appendWithOsm2pgsql(pool, change, url, options)),
  replicate: (url, options) => withStorePool(url, (pool) => replicateWithOsm2pgsql(pool, url, options)),
};

async function withStorePool<T>(url: string, use: (pool: pg.Pool) => Promise<T>): Promise<T> {
  const pool = await openStorePool(url);
  try {
    return await use(pool);
  } finally {
    await pool.end();
  }
}
