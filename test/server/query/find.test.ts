import Database from "better-sqlite3";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import initGeosJs from "geos-wasm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { prepareArea } from "../../../src/server/geometry/geos.js";
import { EVERYWHERE } from "../../../src/server/query/everywhere.js";
import { findFeatures } from "../../../src/server/query/find.js";
import { areaMatcher } from "../../../src/server/store/area-match.js";
import { findPage } from "./helpers.js";
import { areaOf, type AreaFilter, type FeatureQuery, type TagFilter } from "../../../src/model/query.js";
import type { Geometry, Position } from "../../../src/model/geojson.js";
import { plainFeature } from "../store/helpers.js";
import { sqliteStoreFactory } from "../../../src/server/store/sqlite/store.js";
import { FEATURE_TABLES } from "../../../src/model/features.js";
import type { CandidateOptions, FeatureStore } from "../../../src/server/store/store.js";
import type { FeatureTable, OsmFeature } from "../../../src/model/features.js";

const directory = mkdtempSync(join(tmpdir(), "basemodel-find-"));
const path = join(directory, "store.db");
afterAll(() => rmSync(directory, { recursive: true, force: true }));

const square = (x: number, y: number, size = 0.1): Position[] => [
  [x, y],
  [x + size, y],
  [x + size, y + size],
  [x, y + size],
  [x, y],
];

const feature = (osmId: number, geometry: Geometry, tags: Record<string, string>, timestamp: string | null = "2024-06-01T00:00:00Z"): OsmFeature => ({
  osmId,
  version: 1,
  changeset: null,
  timestamp,
  uid: null,
  user: null,
  tags,
  geometry,
});

// The query area is an L: (0,0)-(2,1) plus (0,1)-(1,2). Its notch, (1,1)-(2,2), is inside the
// bounding box but outside the area, so features there are candidates the exact test must drop.
const DATA: Record<FeatureTable, OsmFeature[]> = {
  nodes: [
    feature(1, { type: "Point", coordinates: [0.5, 0.5] }, { amenity: "bench" }, "2024-01-01T00:00:00Z"),
    feature(2, { type: "Point", coordinates: [0.6, 0.6] }, { amenity: "cafe", name: "A" }, "2025-01-01T00:00:00Z"),
    feature(3, { type: "Point", coordinates: [5, 5] }, { amenity: "bench" }),
    feature(4, { type: "Point", coordinates: [0.7, 1.5] }, { shop: "bakery" }, null),
    feature(5, { type: "Point", coordinates: [1.5, 1.5] }, { amenity: "bench" }), // in the notch
    feature(7, { type: "Point", coordinates: [2, 0.5] }, { amenity: "bench", "100%": "_x" }, "2023-01-01T00:00:00Z"), // on the boundary
  ],
  ways_line: [
    feature(10, { type: "LineString", coordinates: [[-1, 0.5], [3, 0.5]] }, { highway: "residential", name: "B" }, "2025-01-01T00:00:00Z"),
    feature(11, { type: "LineString", coordinates: [[1.2, 1.2], [1.8, 1.9]] }, { highway: "path" }), // in the notch
  ],
  ways_poly: [
    feature(20, { type: "Polygon", coordinates: [square(0.2, 0.2)] }, { building: "yes" }, "2023-06-01T00:00:00Z"),
    feature(21, { type: "Polygon", coordinates: [square(1.5, 0.5)] }, { building: "house" }, "2025-01-01T00:00:00Z"),
    feature(22, { type: "Polygon", coordinates: [square(0.3, 1.3)] }, { building: "yes", amenity: "school" }),
    feature(23, { type: "Polygon", coordinates: [square(1.4, 1.4)] }, { building: "yes" }), // in the notch
  ],
  relations: [
    feature(30, { type: "MultiPolygon", coordinates: [[square(0.8, 0.1)], [square(9, 9)]] }, { type: "multipolygon", building: "yes" }),
    feature(31, { type: "MultiLineString", coordinates: [[[0.1, 0.9], [0.2, 0.95]]] }, { type: "route", route: "bus" }, "2022-01-01T00:00:00Z"),
  ],
};

let store: FeatureStore;
const area: AreaFilter = areaOf({ type: "Polygon", coordinates: [[[0, 0], [2, 0], [2, 1], [1, 1], [1, 2], [0, 2], [0, 0]]] });

beforeAll(async () => {
  const created = await sqliteStoreFactory.create(path);
  const writer = created.writer();
  for (const table of FEATURE_TABLES) for (const row of DATA[table]) await writer.insert(table, row);
  await writer.finish({ replicationTimestamp: null, statistics: {} });
  await created.close();
  store = await sqliteStoreFactory.open(path);
});
afterAll(async () => {
  await store.close();
});

const query = (overrides: Partial<FeatureQuery> = {}): FeatureQuery => ({
  tables: FEATURE_TABLES,
  area,
  offset: 0,
  limit: 100,
  order: "id",
  ...overrides,
});
const ids = async (overrides: Partial<FeatureQuery> = {}): Promise<number[]> =>
  (await findPage(store, query(overrides))).features.map(({ feature }) => feature.osmId);
const tags = (join: "and" | "or", ...conditions: Array<[string, ...string[]]>): TagFilter => ({
  join,
  conditions: conditions.map(([key, ...values]) => ({ key, values })),
});

describe("findFeatures", () => {
  it("finds what intersects the area exactly, table by table, by id", async () => {
    const result = await findPage(store, query());
    expect(result.hasMore).toBe(false);
    expect(result.features.map(({ table, feature }) => `${table}/${feature.osmId}`)).toEqual([
      "nodes/1",
      "nodes/2",
      "nodes/4",
      "nodes/7",
      "ways_line/10",
      "ways_poly/20",
      "ways_poly/21",
      "ways_poly/22",
      "relations/30",
      "relations/31",
    ]);
    expect(plainFeature(result.features[0]!.feature)).toEqual(DATA.nodes[0]);
    expect(await ids({ tables: ["relations", "nodes"] })).toEqual([30, 31, 1, 2, 4, 7]);
    expect(await ids({ tables: ["nodes", "nodes"] })).toEqual([1, 2, 4, 7]);
  });

  it("hands the area to the store as data, and the store applies the exact test, the relation and the geometry kind", async () => {
    expect(area).toEqual({ geometry: { type: "Polygon", coordinates: [[[0, 0], [2, 0], [2, 1], [1, 1], [1, 2], [0, 2], [0, 0]]] }, bbox: { minX: 0, minY: 0, maxX: 2, maxY: 2 } });
    const osmIds = async (table: FeatureTable, options: CandidateOptions = {}): Promise<number[]> => {
      const found: number[] = [];
      for await (const feature of store.candidates(table, area, options)) found.push(feature.osmId);
      return found;
    };
    expect(await osmIds("ways_poly")).toEqual([20, 21, 22]);
    // Node 7 lies on the area's edge: it intersects the area but is not within it.
    expect(await osmIds("nodes", { relation: "within" })).toEqual([1, 2, 4]);
    expect(await osmIds("relations", { geometry: "line" })).toEqual([31]);
    expect(await osmIds("relations", { geometry: "point" })).toEqual([]);
    // Progress counts the rows the store reads: the bounding-box candidates, notch included.
    let read = 0;
    expect(await osmIds("ways_poly", { onRead: () => read++ })).toEqual([20, 21, 22]);
    expect(read).toBe(await store.countCandidates("ways_poly", area));
    expect(read).toBe(4);
  });

  it("skips the exact test for a box inside the area, and never reads the geometry of such a feature", async () => {
    const inside = { ...DATA.ways_poly[0]!, stored: { tagsJson: "{}", geometryJson: "{}", geometryType: "Polygon" as const, bbox: { minX: 0.2, minY: 0.2, maxX: 0.3, maxY: 0.3 } } };
    Object.defineProperty(inside, "geometry", {
      get: () => {
        throw new Error("the geometry of a feature inside the area was read");
      },
    });
    // On the edge of the L: the box crosses into the notch, so the exact test decides (and keeps it).
    const edge = { ...DATA.ways_poly[1]!, stored: { ...inside.stored, bbox: { minX: 1.5, minY: 0.5, maxX: 1.6, maxY: 1.6 } } };
    // In the notch, with a box reaching into the area: only the exact test can drop it.
    const notch = { ...DATA.ways_poly[3]!, stored: { ...inside.stored, bbox: { minX: 0.5, minY: 0.5, maxX: 1.5, maxY: 1.5 } } };
    const prepared = await prepareArea(area);
    try {
      const matches = areaMatcher(prepared, "intersects");
      expect([inside, edge, notch].filter(matches).map((found) => found.osmId)).toEqual([20, 21]);
    } finally {
      prepared.dispose();
    }
  });

  it("takes the area as plain data: a structured clone or a JSON round trip of it answers the same", async () => {
    const osmIds = async (table: FeatureTable, given: AreaFilter, options: CandidateOptions = {}): Promise<number[]> => {
      const found: number[] = [];
      for await (const feature of store.candidates(table, given, options)) found.push(feature.osmId);
      return found;
    };
    const copies = [structuredClone(area), JSON.parse(JSON.stringify(area)) as AreaFilter];
    for (const table of FEATURE_TABLES) {
      for (const relation of ["intersects", "within"] as const) {
        const expected = await osmIds(table, area, { relation });
        for (const copy of copies) expect(await osmIds(table, copy, { relation }), `${table} ${relation}`).toEqual(expected);
      }
    }
    expect(await osmIds("nodes", JSON.parse(JSON.stringify(area)))).toEqual([1, 2, 4, 7]);
    expect(await findPage(store, query({ area: structuredClone(area) }))).toEqual(await findPage(store, query()));
  });

  it("prepares the area once per query and frees it when the query ends: read to the end, stopped early, or failed", async () => {
    const geos = await initGeosJs();
    const prepared = vi.spyOn(geos, "GEOSPrepare");
    const freed = vi.spyOn(geos, "GEOSPreparedGeom_destroy");
    const counts = () => [prepared.mock.calls.length, freed.mock.calls.length];
    try {
      for await (const _ of store.candidates("nodes", area));
      expect(counts()).toEqual([1, 1]);
      for await (const _ of store.candidates("nodes", area)) break;
      expect(counts()).toEqual([2, 2]);
      const failing = async () => {
        for await (const _ of store.candidates("nodes", area, { onRead: () => { throw new Error("the reader failed"); } }));
      };
      await expect(failing()).rejects.toThrow("the reader failed");
      expect(counts()).toEqual([3, 3]);
      // A page of the newest matches reads every table at once and stops them all after one match.
      await findPage(store, query({ order: "newest", limit: 1 }));
      expect(counts()).toEqual([3 + FEATURE_TABLES.length, 3 + FEATURE_TABLES.length]);
      // Everywhere needs no GEOS at all.
      for await (const _ of store.candidates("nodes", EVERYWHERE)) break;
      expect(counts()).toEqual([3 + FEATURE_TABLES.length, 3 + FEATURE_TABLES.length]);
    } finally {
      prepared.mockRestore();
      freed.mockRestore();
    }
  });

  it("filters by tags: key present, key=value, several values, AND, OR", async () => {
    expect(await ids({ tags: tags("or", ["amenity"]) })).toEqual([1, 2, 7, 22]);
    expect(await ids({ tags: tags("or", ["amenity", "bench"]) })).toEqual([1, 7]);
    expect(await ids({ tags: tags("or", ["amenity", "bench", "cafe"]) })).toEqual([1, 2, 7]);
    expect(await ids({ tags: tags("or", ["shop"], ["highway"]) })).toEqual([4, 10]);
    expect(await ids({ tags: tags("and", ["building", "yes"], ["amenity"]) })).toEqual([22]);
    expect(await ids({ tags: tags("and", ["building", "yes", "house"], ["type", "multipolygon"]) })).toEqual([30]);
    expect(await ids({ tags: tags("and") })).toHaveLength(10);
    // Values are compared whole and case-sensitively.
    expect(await ids({ tags: tags("or", ["amenity", "Bench"], ["amenity", "ben"]) })).toEqual([]);
  });

  it("filters by groups of conditions, each joined its own way (raw-data-api's join_or and join_and)", async () => {
    const group = (join: "and" | "or", ...filters: TagFilter[]): TagFilter => ({ join, conditions: filters });
    // (building OR shop) AND amenity
    expect(await ids({ tags: group("and", tags("or", ["building"], ["shop"]), tags("and", ["amenity"])) })).toEqual([22]);
    // amenity=bench OR (building=yes AND type=multipolygon)
    expect(await ids({ tags: group("or", tags("or", ["amenity", "bench"]), tags("and", ["building", "yes"], ["type", "multipolygon"])) })).toEqual([1, 7, 30]);
    // A group nests conditions and groups alike; an empty group holds for every feature.
    expect(await ids({ tags: { join: "and", conditions: [{ key: "building", values: ["yes"] }, tags("or")] } })).toEqual([20, 22, 30]);
    // A table whose features lack a key that every branch needs is not read (and finds nothing).
    expect(await ids({ tables: ["ways_line"], tags: group("and", tags("or", ["highway"]), tags("or", ["building"])) })).toEqual([]);
  });

  it("finds what lies within the area (ST_Within): not what crosses its edge, nor what only touches it", async () => {
    // 10 crosses the L's edge, 30 has a part far away, 7 lies on the boundary.
    expect(await ids({ relation: "within" })).toEqual([1, 2, 4, 20, 21, 22, 31]);
    expect(await ids({ relation: "intersects" })).toEqual(await ids());
  });

  it("keeps only the geometry kind asked for", async () => {
    expect(await ids({ geometry: "polygon" })).toEqual([20, 21, 22, 30]);
    expect(await ids({ geometry: "line" })).toEqual([10, 31]);
    expect(await ids({ geometry: "point" })).toEqual([1, 2, 4, 7]);
  });

  it("orders newest first, then by id descending, without a timestamp last", async () => {
    // 2025: 21, 10, 2 (ids descending); 2024-06: 30, 22; 2024-01: 1; 2023-06: 20; 2023-01: 7; 2022: 31; none: 4.
    expect(await ids({ order: "newest" })).toEqual([21, 10, 2, 30, 22, 1, 20, 7, 31, 4]);
    expect(await ids({ order: "newest", tables: ["nodes"] })).toEqual([2, 1, 7, 4]);
  });

  it("pages, and says whether more matches follow", async () => {
    for (const order of ["id", "newest"] as const) {
      const all = await ids({ order });
      for (const limit of [1, 3, 4, 10, 11]) {
        for (let offset = 0; offset <= all.length + 1; offset++) {
          const page = await findPage(store, query({ order, offset, limit }));
          expect(page.features.map(({ feature }) => feature.osmId)).toEqual(all.slice(offset, offset + limit));
          expect(page.hasMore).toBe(offset + limit < all.length);
        }
      }
      expect(await findPage(store, query({ order, limit: 0 }))).toEqual({ features: [], hasMore: true });
      expect(await findPage(store, query({ order, limit: 0, offset: 10 }))).toEqual({ features: [], hasMore: false });
    }
    await expect(findPage(store, query({ offset: -1 }))).rejects.toThrow(RangeError);
    await expect(findPage(store, query({ limit: 1.5 }))).rejects.toThrow(RangeError);
  });

  it("stops reading candidates once the page and one more are found (order id)", async () => {
    let read = 0;
    const counting: FeatureStore = {
      queryBBox: (table, bbox) => store.queryBBox(table, bbox),
      featuresWithId: (osmId) => store.featuresWithId(osmId),
      readMeta: () => store.readMeta(),
      close: () => store.close(),
      countCandidates: (...args) => store.countCandidates(...args),
      snapshot: () => store.snapshot(),
      qualityFindings: (...args) => store.qualityFindings(...args),
      findingValues: (...args) => store.findingValues(...args),
      findingValueCounts: (...args) => store.findingValueCounts(...args),
      tile: (...args) => store.tile(...args),
      extent: () => store.extent(),
      dataVersion: () => store.dataVersion(),
      candidates: (...args) =>
        (async function* () {
          for await (const found of store.candidates(...args)) {
            read++;
            yield found;
          }
        })(),
    };
    // Each match is handed over as soon as it is read, not when the page is complete.
    const readAtTake: number[] = [];
    expect(await findFeatures(counting, query({ limit: 2 }), () => readAtTake.push(read))).toEqual({ hasMore: true });
    expect(readAtTake).toEqual([1, 2]);
    expect(read).toBe(3);
    read = 0;
    // newest: one head per table, then one candidate per match taken.
    await findPage(counting, query({ order: "newest", limit: 1 }));
    expect(read).toBeLessThanOrEqual(FEATURE_TABLES.length + 2);
  });

  it("answers interleaved queries of the same shape (a statement still being read is not reused)", async () => {
    const first = store.candidates("nodes", area, { tags: tags("or", ["amenity"]) })[Symbol.asyncIterator]();
    const second = store.candidates("nodes", area, { tags: tags("or", ["amenity"]) })[Symbol.asyncIterator]();
    expect((await first.next()).value?.osmId).toBe(1);
    expect((await second.next()).value?.osmId).toBe(1);
    expect((await first.next()).value?.osmId).toBe(2);
    await first.return?.();
    await second.return?.();
    expect(await ids({ order: "newest" })).toHaveLength(10);
  });

  it("refuses a table that is not a feature table", async () => {
    const iterator = store.candidates("nodes; DROP TABLE nodes" as FeatureTable, area)[Symbol.asyncIterator]();
    await expect(iterator.next()).rejects.toThrow(/Unknown feature table/);
  });

  it("treats hostile tag keys and values as plain text", async () => {
    const counts = (): Record<string, number> => {
      const db = new Database(path, { readonly: true });
      try {
        const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").pluck().all() as string[];
        return Object.fromEntries(tables.map((name) => [name, db.prepare(`SELECT count(*) FROM "${name}"`).pluck().get() as number]));
      } finally {
        db.close();
      }
    };
    const before = counts();
    expect(before.nodes).toBe(6);
    const hostile = ["building'; DROP TABLE nodes; --", '" OR 1=1 --', "' OR '1'='1", "%", "_", "*", "\u0000", "building\u0000", "$.building", '"building"', "); DELETE FROM ways_poly; --"];
    for (const text of hostile) {
      expect(await ids({ tags: tags("or", [text]) }), `key ${JSON.stringify(text)}`).toEqual([]);
      expect(await ids({ tags: tags("or", [text, text]) }), `key and value ${JSON.stringify(text)}`).toEqual([]);
      expect(await ids({ tags: tags("or", ["building", text]) }), `value ${JSON.stringify(text)}`).toEqual([]);
      expect(await ids({ tags: tags("and", ["amenity"], [text]), order: "newest" })).toEqual([]);
    }
    // Keys and values match whole, not as LIKE patterns: "%" above matched nothing, this does.
    expect(await ids({ tags: tags("or", ["100%", "_x"]) })).toEqual([7]);
    expect(counts()).toEqual(before);
  });
});
