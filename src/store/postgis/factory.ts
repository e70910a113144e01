/** The PostGIS store's factory: open() for reading, load() through osm2pgsql. */
import type { Osm2pgsqlStoreFactory } from "../store.js";
import { shownLocation } from "../open.js";
import { openPool } from "./connection.js";
import { loadWithOsm2pgsql } from "./load.js";
import { SCHEMA_VERSION } from "./schema.js";
import { PostgisFeatureStore } from "./store.js";

export const postgisStoreFactory: Osm2pgsqlStoreFactory = {
  kind: "osm2pgsql",
  async open(url) {
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
    return new PostgisFeatureStore(pool);
  },
  load: loadWithOsm2pgsql,
};
