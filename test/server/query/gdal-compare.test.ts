/**
 * Our exact area filter on the real Monaco extract against GDAL's (SpatiaLite's ST_Intersects
 * over the same features exported to GeoJSON): per table, the sets of matched osm_ids must be
 * equal. GDAL (gdal-bin, with SpatiaLite) must be installed; CI installs it.
 */
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PolygonalGeometry } from "../../../src/model/geojson.js";
import { importOsm } from "../../../src/server/fill/import.js";
import { findPage } from "./helpers.js";
import { areaOf, type AreaFilter, type TagFilter } from "../../../src/model/query.js";
import type { Position } from "../../../src/model/geojson.js";
import { sqliteStoreFactory } from "../../../src/server/store/sqlite/store.js";
import { FEATURE_TABLES } from "../../../src/model/features.js";
import type { FeatureStore } from "../../../src/server/store/store.js";
import type { FeatureTable } from "../../../src/model/features.js";
import { MONACO, temporaryDirectory } from "../osm/helpers.js";
import { gdalIds, hasGdal, writeFeaturesFile } from "./gdal-oracle.js";


const rectangle = (minX: number, minY: number, maxX: number, maxY: number): Position[] => [
  [minX, minY],
  [maxX, minY],
  [maxX, maxY],
  [minX, maxY],
  [minX, minY],
];

function star(x: number, y: number, points: number, outer: number, inner: number): Position[] {
  const ring: Position[] = [];
  for (let i = 0; i < points * 2; i++) {
    const angle = (Math.PI * i) / points;
    const radius = i % 2 === 0 ? outer : inner;
    ring.push([x + radius * Math.cos(angle), y + radius * Math.sin(angle) * 0.72]);
  }
  ring.push(ring[0]!);
  return ring;
}

const AREAS: Record<string, PolygonalGeometry> = {
  "small square in the centre": { type: "Polygon", coordinates: [rectangle(7.418, 43.73, 7.423, 43.735)] },
  "concave L": {
    type: "Polygon",
    coordinates: [[[7.41, 43.725], [7.43, 43.725], [7.43, 43.732], [7.42, 43.732], [7.42, 43.74], [7.41, 43.74], [7.41, 43.725]]],
  },
  "polygon with a hole": { type: "Polygon", coordinates: [rectangle(7.412, 43.728, 7.432, 43.742), rectangle(7.418, 43.732, 7.426, 43.738)] },
  "multipolygon": { type: "MultiPolygon", coordinates: [[rectangle(7.405, 43.726, 7.409, 43.73)], [rectangle(7.424, 43.738, 7.428, 43.742)]] },
  "star (40 vertices, concave)": { type: "Polygon", coordinates: [star(7.422, 43.735, 20, 0.008, 0.003)] },
  "nothing covered": { type: "Polygon", coordinates: [rectangle(7.3, 43.6, 7.31, 43.61)] },
};

/** Per table, the osm_ids findFeatures matches, checking there are no duplicates. */
async function ourIds(store: FeatureStore, area: AreaFilter, tags?: TagFilter): Promise<Record<FeatureTable, number[]>> {
  const ids = {} as Record<FeatureTable, number[]>;
  for (const table of FEATURE_TABLES) {
    const result = await findPage(store, { tables: [table], area, ...(tags && { tags }), offset: 0, limit: 1_000_000, order: "id" });
    ids[table] = result.features.map(({ feature }) => feature.osmId);
    expect(new Set(ids[table]).size, `${table}: duplicates`).toBe(ids[table].length);
    ids[table].sort((a, b) => a - b);
  }
  return ids;
}

const count = (ids: Record<FeatureTable, number[]>): number => FEATURE_TABLES.reduce((sum, table) => sum + ids[table].length, 0);

describe.skipIf(!hasGdal)("exact area filter vs GDAL on the Monaco extract", () => {
  let store: FeatureStore;
  let file: string;
  const totals = {} as Record<FeatureTable, number>;

  beforeAll(async () => {
    const directory = temporaryDirectory();
    const dbPath = join(directory, "monaco.db");
    await importOsm(MONACO, dbPath);
    store = await sqliteStoreFactory.open(dbPath);
    file = join(directory, "features.geojson");
    Object.assign(totals, await writeFeaturesFile(store, file));
  });
  afterAll(async () => {
    await store?.close();
  });

  it("has a real extract to compare on", () => {
    for (const table of FEATURE_TABLES) expect(totals[table], table).toBeGreaterThan(50);
  });

  for (const [name, geometry] of Object.entries(AREAS)) {
    it(`matches the same features per table: ${name}`, async () => {
      const ours = await ourIds(store, areaOf(geometry));
      expect(ours).toEqual(await gdalIds(file, geometry));
      if (name === "nothing covered") expect(count(ours)).toBe(0);
      else expect(count(ours)).toBeGreaterThan(20);
    });
  }

  it("drops bounding-box candidates that the exact test rules out (the comparison is not trivially bbox-only)", async () => {
    const area = areaOf(AREAS["concave L"]!);
    let candidates = 0;
    for (const table of FEATURE_TABLES) candidates += (await store.queryBBox(table, area.bbox)).length;
    expect(count(await ourIds(store, area))).toBeLessThan(candidates * 0.9);
  });

  it("matches GDAL with a tag filter too (building present, or amenity=restaurant|cafe)", async () => {
    const geometry = AREAS["polygon with a hole"]!;
    const area = areaOf(geometry);
    const filters: Array<{ tags: TagFilter; where: string }> = [
      { tags: { join: "or", conditions: [{ key: "building", values: [] }] }, where: " AND json_extract(tags, '$.building') IS NOT NULL" },
      {
        tags: { join: "or", conditions: [{ key: "amenity", values: ["restaurant", "cafe"] }] },
        where: " AND json_extract(tags, '$.amenity') IN ('restaurant', 'cafe')",
      },
    ];
    for (const { tags, where } of filters) {
      const ours = await ourIds(store, area, tags);
      expect(ours, where).toEqual(await gdalIds(file, geometry, where));
      expect(count(ours)).toBeGreaterThan(0);
    }
  });
});
