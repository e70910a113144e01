import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import Database from "better-sqlite3";
import { sqliteStoreFactory } from "../../../src/server/store/sqlite/store.js";
import { EVERYWHERE } from "../../../src/server/query/everywhere.js";
import type { FeatureStore } from "../../../src/server/store/store.js";
import type { OsmFeature } from "../../../src/model/features.js";
import { monacoStoreCopy } from "../../support/monaco.js";
import { withoutStored } from "./helpers.js";

const directory = mkdtempSync(join(tmpdir(), "basemodel-store-"));
afterAll(() => rmSync(directory, { recursive: true, force: true }));
let counter = 0;
const freshPath = (): string => join(directory, `store-${++counter}.db`);

const feature = (osmId: number, geometry: OsmFeature["geometry"]): OsmFeature => ({
  osmId,
  version: 2,
  changeset: null,
  timestamp: "2025-01-01T00:00:00Z",
  uid: null,
  user: null,
  tags: { name: `feature ${osmId}` },
  geometry,
});

const BENCH = feature(12_466_900_347, { type: "Point", coordinates: [7.42, 43.73] });
const ROAD = feature(4097656, { type: "LineString", coordinates: [[7.41, 43.72], [7.43, 43.74]] });
const FAR_ROAD = feature(5, { type: "LineString", coordinates: [[1.5, 42.5], [1.6, 42.6]] });
const BUILDING = feature(6, { type: "Polygon", coordinates: [[[7.0, 43.0], [7.1, 43.0], [7.1, 43.1], [7.0, 43.0]]] });
const ROUTE = feature(7, { type: "MultiLineString", coordinates: [[[7.4, 43.7], [7.5, 43.8]]] });

describe("the SQLite feature store", () => {
  it("stores features per table and finds them by bounding box", async () => {
    const path = freshPath();
    const store = await sqliteStoreFactory.create(path);
    const writer = store.writer();
    await writer.insert("nodes", BENCH);
    await writer.insert("ways_line", ROAD);
    await writer.insert("ways_line", FAR_ROAD);
    await writer.insert("ways_poly", BUILDING);
    await writer.insert("relations", ROUTE);
    await writer.finish({ replicationTimestamp: "2025-01-01T21:21:00Z", statistics: { counts: { nodes: 1 } } });
    await store.close();

    const reopened = await sqliteStoreFactory.open(path);
    const monaco = { minX: 7.4, minY: 43.7, maxX: 7.5, maxY: 43.8 };
    expect(withoutStored(await reopened.queryBBox("nodes", monaco))).toEqual([BENCH]);
    // The road's box overlaps; the far road's does not.
    expect(withoutStored(await reopened.queryBBox("ways_line", monaco))).toEqual([ROAD]);
    expect(withoutStored(await reopened.queryBBox("ways_poly", monaco))).toEqual([]);
    expect(withoutStored(await reopened.queryBBox("relations", monaco))).toEqual([ROUTE]);
    expect(await reopened.readMeta()).toEqual({ replicationTimestamp: "2025-01-01T21:21:00Z", statistics: { counts: { nodes: 1 } } });
    await reopened.close();
  });

  it("hands over tags and geometry as the JSON text it holds, with the geometry's bounding box", async () => {
    const path = freshPath();
    const store = await sqliteStoreFactory.create(path);
    const writer = store.writer();
    await writer.insert("ways_poly", BUILDING);
    await writer.finish({ replicationTimestamp: null, statistics: {} });
    const [found] = await store.queryBBox("ways_poly", { minX: -180, minY: -90, maxX: 180, maxY: 90 });
    const { tagsJson, geometryJson, geometryType, bbox } = found!.stored!;
    expect(JSON.parse(tagsJson)).toEqual(BUILDING.tags);
    expect(JSON.parse(geometryJson)).toEqual(BUILDING.geometry);
    expect(geometryType).toBe("Polygon");
    // Exact, as doubles: not the R*Tree's 32-bit floats.
    expect(bbox).toEqual({ minX: 7.0, minY: 43.0, maxX: 7.1, maxY: 43.1 });
    // Read-only, so that the values can never disagree with the text.
    expect(() => Object.assign(found!, { geometry: ROAD.geometry })).toThrow(TypeError);
    await store.close();
  });

  it("keeps nothing of an aborted load", async () => {
    const store = await sqliteStoreFactory.create(freshPath());
    const writer = store.writer();
    await writer.insert("nodes", BENCH);
    await writer.abort();
    expect(await store.queryBBox("nodes", { minX: -180, minY: -90, maxX: 180, maxY: 90 })).toEqual([]);
    expect(await store.readMeta()).toBeNull();
    await store.close();
  });

  it("refuses to create over an existing file", async () => {
    const path = freshPath();
    writeFileSync(path, "something");
    await expect(sqliteStoreFactory.create(path)).rejects.toThrow(/the file exists/);
  });

  it("refuses to open a missing file, a folder, or a file that is not a store, each with its code", async () => {
    const missing = join(directory, "missing.db");
    await expect(sqliteStoreFactory.open(missing)).rejects.toMatchObject({
      code: "BASEMODEL_STORE_MISSING",
      message: `no store at ${missing}; create one with basemodel import <file.osm.pbf> --db ${missing}`,
    });
    await expect(sqliteStoreFactory.open(directory)).rejects.toMatchObject({ code: "BASEMODEL_STORE_UNREADABLE", message: `cannot read ${directory}: unable to open database file` });
    const notAStore = freshPath();
    writeFileSync(notAStore, "");
    await expect(sqliteStoreFactory.open(notAStore)).rejects.toMatchObject({ code: "BASEMODEL_NOT_A_STORE", message: `${notAStore} is not a feature store` });
    const textFile = freshPath();
    writeFileSync(textFile, "x".repeat(4096));
    await expect(sqliteStoreFactory.open(textFile)).rejects.toMatchObject({ code: "BASEMODEL_NOT_A_STORE" });
  });

  it("says what a failure of SQLite's means for the store: damaged, the environment's, or none of the store's", () => {
    const sqliteError = (code: string) => Object.assign(new Error(`a ${code}`), { code });
    expect(sqliteStoreFactory.failure("x.db", sqliteError("SQLITE_CORRUPT"))).toMatchObject({ code: "BASEMODEL_STORE_DAMAGED", message: "x.db is damaged (a SQLITE_CORRUPT): restore it from a copy, or import the OSM file again" });
    expect(sqliteStoreFactory.failure("x.db", sqliteError("SQLITE_NOTADB"))).toMatchObject({ code: "BASEMODEL_STORE_DAMAGED" });
    // Extended codes mean what their primary code means.
    for (const code of ["SQLITE_FULL", "SQLITE_IOERR_WRITE", "SQLITE_READONLY_DBMOVED", "SQLITE_BUSY", "SQLITE_CANTOPEN"]) {
      expect(sqliteStoreFactory.failure("x.db", sqliteError(code))).toMatchObject({ code: "BASEMODEL_STORE_UNWRITABLE", message: `cannot write x.db: a ${code}` });
    }
    const renameFailed = Object.assign(new Error("EACCES: permission denied, rename"), { code: "EACCES", syscall: "rename" });
    expect(sqliteStoreFactory.failure("x.db", renameFailed)).toMatchObject({ code: "BASEMODEL_STORE_UNWRITABLE", cause: renameFailed });
    expect(sqliteStoreFactory.failure("x.db", sqliteError("SQLITE_ERROR"))).toBeUndefined();
    expect(sqliteStoreFactory.failure("x.db", new TypeError("a bug"))).toBeUndefined();
  });

  it("refuses a store of an older schema version, saying how to rebuild it", async () => {
    const path = freshPath();
    await (await sqliteStoreFactory.create(path)).close();
    const db = new Database(path);
    db.prepare("UPDATE meta SET value = '1' WHERE key = 'schema_version'").run();
    db.close();
    await expect(sqliteStoreFactory.open(path)).rejects.toMatchObject({
      code: "BASEMODEL_STORE_SCHEMA_VERSION",
      message: `${path} is a feature store of schema version 1, and this basemodel reads version 4: import the OSM file again with \`basemodel import\``,
    });
  });
});

describe("a change's reads on the SQLite store, many ids at once", () => {
  it("answers every id of a read larger than one batch, and leaves out those it does not have", async () => {
    const store = await sqliteStoreFactory.open(await monacoStoreCopy());
    const update = store.update();
    try {
      expect((await update.getRaws("node", [])).size).toBe(0);
      // 2,500 ways of Monaco (more than the 1,000 ids a statement takes) and one that is not there.
      const ids = await wayIds(store, 2_500);
      expect(ids).toHaveLength(2_500);
      const raws = await update.getRaws("way", [...ids, 1]);
      expect([...raws.keys()].sort((a, b) => a - b)).toEqual([...ids].sort((a, b) => a - b));
      const features = await update.getFeatures("way", [...ids, 1]);
      expect(features.size).toBe(2_500);
      const usage = await update.waysUsingNodes(raws.get(ids[0]!)!.refs);
      expect([...usage.values()].every((ways) => ways.includes(ids[0]!))).toBe(true);
    } finally {
      await update.rollback();
      await store.close();
    }
  });
});

async function wayIds(store: FeatureStore, count: number): Promise<number[]> {
  const ids: number[] = [];
  for (const table of ["ways_line", "ways_poly"] as const) {
    for await (const feature of store.candidates(table, EVERYWHERE)) {
      if (ids.length === count) return ids;
      ids.push(feature.osmId);
    }
  }
  return ids;
}
