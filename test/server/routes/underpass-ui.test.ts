/**
 * underpass-ui's components, both generations, replayed as they send their requests over real
 * HTTP against the real server: the 2023 UI (cb5fa0a: UnderpassMap, UnderpassFeatureList,
 * UnderpassFeatureStats, UnderpassValidationStats, with the playground demo's props) and the
 * 2024 UI (6f76cf9, its api/models.js bodies). Bodies are JSON.stringify's of the UI's: unset
 * fields are "" (the demo's state) or left out (undefined), the 2024 demo's area is null until
 * its map has moved. Every call must answer 200 with each member the component reads, of the
 * type it reads it as, on the demo town and on Monaco after a mapathon.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { DEMO_TEST_AREA } from "../../../src/server/demo/town.js";
import type { BBox } from "../../../src/model/geojson.js";
import type { RawFeatureCollection, RawListItem } from "../../../src/server/api/index.js";
import { demoStorePath, startServer, type AnswerBody, type RunningServer } from "./helpers.js";
import { MAPATHON_BOX, MAPATHON_CHANGESET, mapathonStorePath, OVERLAP_A, OVERLAP_B, UNSQUARED } from "./mapathon.js";

/** getBBoxString (UnderpassMap/utils.js): the map's corners NE, NW, SW, SE, NE as "lng lat", joined by "," without spaces. */
function bboxString({ minX, minY, maxX, maxY }: BBox): string {
  return [[maxX, maxY], [minX, maxY], [minX, minY], [maxX, minY], [maxX, maxY]].map((corner) => corner.join(" ")).join(",");
}

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;
const isTime = (value: unknown) => value === null || (typeof value === "string" && ISO.test(value) && !Number.isNaN(Date.parse(value)));
const isStatus = (value: unknown) => value === null || typeof value === "string";
const isTags = (value: unknown) => typeof value === "object" && value !== null && !Array.isArray(value) && Object.values(value).every((tag) => typeof tag === "string");

/** What the maps read of a feature: id, geometry.type (the layer), properties.tags (JSON-parsed after MapLibre stringifies it), status, and the time member of their generation. */
function expectMapFeature(feature: RawFeatureCollection["features"][number], time: "created_at" | "closed_at"): void {
  const where = JSON.stringify(feature).slice(0, 200);
  expect(typeof feature.id, where).toBe("number");
  expect(["Polygon", "LineString", "Point", "MultiPolygon", "MultiLineString"], where).toContain(feature.geometry.type);
  expect(isTags(JSON.parse(JSON.stringify(feature.properties.tags))), where).toBe(true);
  expect(isStatus(feature.properties.status), where).toBe(true);
  expect(isTime(feature.properties[time]), where).toBe(true);
}

/** What the lists read of a row (FeatureDetailCard, and the demo's onSelect): type in the osm.org link, id, the time, tags, status, lat and lon. */
function expectListRow(row: RawListItem, time: "created_at" | "closed_at", box: BBox): void {
  const where = JSON.stringify(row).slice(0, 200);
  expect(["way", "node", "relation"], where).toContain(row.type);
  expect(typeof row.id, where).toBe("number");
  expect(isTime(row[time]), where).toBe(true);
  expect(isTags(row.tags), where).toBe(true);
  expect(isStatus(row.status), where).toBe(true);
  // The latitude in lat, the longitude in lon: not swapped as upstream had them (docs/server.md, "Underpass, both generations").
  expect(row.lat, where).toBeGreaterThanOrEqual(box.minY - 0.05);
  expect(row.lat, where).toBeLessThanOrEqual(box.maxY + 0.05);
  expect(row.lon, where).toBeGreaterThanOrEqual(box.minX - 0.05);
  expect(row.lon, where).toBeLessThanOrEqual(box.maxX + 0.05);
}

/** The places each store is tried at: where the map looks, and a box around everything the lists may answer. */
const PLACES = [
  { name: "the demo town", store: demoStorePath, map: DEMO_TEST_AREA, around: { minX: 1.1, minY: 22.9, maxX: 1.3, maxY: 23.1 } },
  { name: "Monaco after a mapathon", store: mapathonStorePath, map: MAPATHON_BOX, around: { minX: 7.38, minY: 43.5, maxX: 7.54, maxY: 43.76 } },
];

describe.each(PLACES)("underpass-ui on $name", ({ store, map, around }) => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer(await store());
  });

  async function call(path: string, body: object): Promise<AnswerBody> {
    const answer = await server.post(path, body);
    expect(answer.status, `${path} ${JSON.stringify(body)}: ${answer.text.slice(0, 300)}`).toBe(200);
    return answer.body;
  }

  describe("2023", () => {
    it("UnderpassMap: POST /raw/all with the map's bounds, empty hashtag and dates, page 0", async () => {
      const body = { area: bboxString(map), tags: "building", hashtag: "", dateFrom: "", dateTo: "", page: 0 };
      const { features }: RawFeatureCollection = await call("/raw/all", body);
      expect(features.filter((feature) => feature.geometry.type === "Polygon").length).toBeGreaterThan(0);
      for (const feature of features) expectMapFeature(feature, "created_at");
      // The map colours the unsquared buildings.
      expect(features.some((feature) => feature.properties.status === "badgeom")).toBe(true);
    });

    it("UnderpassFeatureList: POST /raw/allList with each radio button's status, orderBy created_at, no page, then the next page on scroll", async () => {
      for (const status of ["badgeom", "", "badvalue"]) {
        const body = { tags: "building", hashtag: "", status, orderBy: "created_at" };
        const rows: RawListItem[] = await call("/raw/allList", body);
        expect(rows.length, status).toBeGreaterThan(0);
        for (const row of rows) expectListRow(row, "created_at", around);
        // Newest first: the first row is the one the demo centres the map on.
        const stamps = rows.map((row) => row.timestamp);
        expect(stamps).toEqual([...stamps].sort().reverse());
        const next = await call("/raw/allList", { ...body, page: 1 });
        expect(Array.isArray(next)).toBe(true);
      }
    });

    it("UnderpassFeatureStats and UnderpassValidationStats: POST /stats/count, {count} and {count, total}", async () => {
      const buildings = await call("/raw/all", { tags: "building", pageSize: 5000 });
      expect(buildings.hasMore).toBe(false);
      expect(await call("/stats/count", { tags: "building", hashtag: "" })).toEqual({ count: buildings.features.length });
      const unsquared = await call("/raw/all", { tags: "building", status: "badgeom", pageSize: 5000 });
      const validation = await call("/stats/count", { tags: "building", hashtag: "", status: "badgeom" });
      expect(validation).toEqual({ count: unsquared.features.length, total: buildings.features.length });
      expect(validation.count).toBeGreaterThan(0);
    });
  });

  describe("2024", () => {
    const routes = { polygons: "polygons", lines: "lines", nodes: "nodes", all: "features" } as const;

    it("UnderpassMap: POST /raw-validation/{polygons,lines,nodes,features} with the map's bounds", async () => {
      for (const [featureType, endpoint] of Object.entries(routes)) {
        for (const body of [{ area: bboxString(map), tags: "building", hashtag: "" }, { area: bboxString(map), tags: "building", hashtag: "", status: "badgeom" }]) {
          const data = await call(`/raw-validation/${endpoint}`, body);
          expect(Array.isArray(data.features), featureType).toBe(true);
          for (const feature of data.features) expectMapFeature(feature, "closed_at");
          if (featureType === "polygons" || featureType === "all") expect(data.features.length, `${featureType} ${JSON.stringify(body)}`).toBeGreaterThan(0);
        }
      }
    });

    it("UnderpassFeatureList: POST /raw-validation/{list,polygons/list,...} with area null, then the map's bounds; page 0, then 1", async () => {
      const lists = { polygons: "polygons/list", lines: "lines/list", nodes: "nodes/list", all: "list" } as const;
      for (const [featureType, endpoint] of Object.entries(lists)) {
        for (const status of ["", "badgeom", "overlapping", "badvalue"]) {
          for (const area of [null, bboxString(map)]) {
            const body = { area, tags: "building", hashtag: "", status, page: 0 };
            const rows = await call(`/raw-validation/${endpoint}`, body);
            for (const row of rows) expectListRow(row, "closed_at", around);
            if (featureType !== "lines" && featureType !== "nodes") expect(rows.length, `${endpoint} ${JSON.stringify(body)}`).toBeGreaterThan(0);
            expect(Array.isArray(await call(`/raw-validation/${endpoint}`, { ...body, page: 1 }))).toBe(true);
          }
        }
      }
    });

    it("UnderpassFeatureStats: POST /stats/{polygons,lines,nodes,features}; UnderpassValidationStats: POST /raw-validation/stats[/kind]", async () => {
      for (const [featureType, endpoint] of Object.entries(routes)) {
        for (const area of [null, bboxString(map)]) {
          const { count } = await call(`/stats/${endpoint}`, { area, tags: "building", hashtag: "" });
          expect(Number.isInteger(count), featureType).toBe(true);
          const validation = await call(featureType === "all" ? "/raw-validation/stats" : `/raw-validation/stats/${featureType}`, { area, tags: "building", hashtag: "", status: "badgeom" });
          expect(validation.total).toBe(count);
          expect(validation.count).toBeLessThanOrEqual(validation.total);
          if (featureType === "polygons") expect(validation.count).toBeGreaterThan(0);
        }
      }
    });
  });
});

describe("underpass-ui on the mapathon: what the components show", () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer(await mapathonStorePath());
  });

  it("the 2023 list's first row, where the demo centres its map, is the mapathon's unsquared building, at its real place", async () => {
    const { body } = await server.post("/raw/allList", { tags: "building", hashtag: "", status: "badgeom", orderBy: "created_at" });
    expect(body[0]).toMatchObject({ type: "way", id: UNSQUARED, status: "badgeom", created_at: MAPATHON_CHANGESET.created_at });
    const { lat, lon } = body[0];
    expect(lon >= MAPATHON_BOX.minX && lon <= MAPATHON_BOX.maxX && lat >= MAPATHON_BOX.minY && lat <= MAPATHON_BOX.maxY).toBe(true);
  });

  it("the validation stats of a project: 1 unsquared of its 5 buildings (2023), 2 overlapping (2024)", async () => {
    expect((await server.post("/stats/count", { tags: "building", hashtag: MAPATHON_CHANGESET.hashtags[0], status: "badgeom" })).body).toEqual({ count: 1, total: 5 });
    const overlapping = await server.post("/raw-validation/stats/polygons", { area: bboxString(MAPATHON_BOX), tags: "building", hashtag: MAPATHON_CHANGESET.hashtags[1], status: "overlapping" });
    expect(overlapping.body).toEqual({ count: 2, total: 5 });
    const { body } = await server.post("/raw-validation/polygons/list", { area: bboxString(MAPATHON_BOX), tags: "building", hashtag: "", status: "overlapping", page: 0 });
    expect(body.map((row: { id: number }) => row.id).sort()).toEqual([OVERLAP_A, OVERLAP_B]);
    for (const row of body) expect(row).toMatchObject({ closed_at: MAPATHON_CHANGESET.closed_at, changeset: MAPATHON_CHANGESET.changeset });
  });
});
