/**
 * Underpass's routes beside the 2023 ones, with the bodies its Python REST API takes
 * (hotosm/underpass python/restapi/models.py: area, tags, hashtag, dateFrom, dateTo,
 * featureType, status, orderBy, page), over real HTTP on Monaco after a mapathon: /raw/features,
 * /raw/list, /raw/{kind}/list, /raw-validation/*, /stats/count and /stats/{kind}. Empty strings
 * are no filter on every route; the 2024 routes read dates as the changeset's closing time.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { MONACO_CENTRE, ringOf, startServer, wireValidator, type AnswerBody, type RunningServer } from "./helpers.js";
import { BAD_VALUE, MAPATHON, MAPATHON_AREA, MAPATHON_CHANGESET, MAPATHON_STATUS, mapathonStorePath, OVERLAP_A, OVERLAP_B, SQUARE, UNSQUARED } from "./mapathon.js";

type Feature = { id: number; geometry: { type: string }; properties: { type: string; status: string | null; closed_at: string | null; created_at: string | null } };
type Row = { type: string; geotype: string; id: number; lat: number; lon: number; timestamp: string | null; changeset: number | null; status: string | null; closed_at: string | null };

const KINDS = ["polygons", "lines", "nodes"] as const;
const GEO_ROUTES = ["/raw/features", ...KINDS.map((kind) => `/raw-validation/${kind}`), "/raw-validation/features"];
const LIST_ROUTES = ["/raw/list", ...KINDS.map((kind) => `/raw/${kind}/list`), "/raw-validation/list", ...KINDS.map((kind) => `/raw-validation/${kind}/list`)];
const COUNT_ROUTES = ["/stats/count", "/stats/features", ...KINDS.map((kind) => `/stats/${kind}`), "/raw-validation/stats", ...KINDS.map((kind) => `/raw-validation/stats/${kind}`)];
const ROUTES_2023 = [...["polygons", "lines", "nodes", "all"].flatMap((kind) => [`/raw/${kind}`, `/raw/${kind}List`])];
const MAPATHON_HASHTAG = MAPATHON_CHANGESET.hashtags[0]!;
const sorted = (items: ReadonlyArray<{ id: number }>): number[] => items.map((item) => item.id).sort((a, b) => a - b);

describe("Underpass's 2024 routes and /stats, on Monaco after a mapathon", () => {
  let server: RunningServer;
  const validCollection = wireValidator("RawFeatureCollection");
  const validList = wireValidator("RawList");
  const validFeatureCount = wireValidator("FeatureCount");
  const validValidationCount = wireValidator("ValidationCount");

  beforeAll(async () => {
    server = await startServer(await mapathonStorePath());
  });

  async function post(route: string, body: object): Promise<AnswerBody> {
    const answer = await server.post(route, body);
    expect(answer.status, `${route} ${JSON.stringify(body)}: ${answer.text.slice(0, 300)}`).toBe(200);
    if (route.includes("/stats")) expect(route.startsWith("/raw-validation") ? validValidationCount(answer.body) : validFeatureCount(answer.body)).toBe(true);
    else expect(route.endsWith("ist") ? validList(answer.body) : validCollection(answer.body)).toBe(true);
    return answer.body;
  }

  /** The ids a geo or list route answers, sorted. */
  async function ids(route: string, body: object): Promise<number[]> {
    const answer = await post(route, { pageSize: 5000, ...body });
    return sorted(Array.isArray(answer) ? answer : answer.features);
  }

  it("/raw-validation/{polygons,features,list,...} with upstream's body: the features with the status, each with its status, changeset and closing time", async () => {
    const upstream = { area: MAPATHON_AREA, tags: "building", hashtag: MAPATHON_HASHTAG, dateFrom: "2025-01-10T00:00:00", dateTo: "2025-01-10T23:59:59" };
    for (const [status, expected] of [["overlapping", [OVERLAP_A, OVERLAP_B]], ["badgeom", [UNSQUARED]], ["badvalue", [BAD_VALUE]], ["duplicate", []]] as const) {
      for (const route of ["/raw-validation/polygons", "/raw-validation/features"]) {
        const { features } = await post(route, { ...upstream, status });
        expect(sorted(features), `${route} ${status}`).toEqual(expected);
        for (const { id, properties } of features as Feature[]) {
          expect(properties).toMatchObject({ type: "Polygon", status: MAPATHON_STATUS[id], closed_at: MAPATHON_CHANGESET.closed_at, created_at: MAPATHON_CHANGESET.created_at });
        }
      }
      for (const route of ["/raw-validation/list", "/raw-validation/polygons/list"]) {
        const rows: Row[] = await post(route, { ...upstream, status, orderBy: "id", page: 0 });
        expect(sorted(rows), `${route} ${status}`).toEqual(expected);
        for (const row of rows) expect(row).toMatchObject({ type: "way", geotype: "Polygon", changeset: MAPATHON_CHANGESET.changeset, closed_at: MAPATHON_CHANGESET.closed_at, status: MAPATHON_STATUS[row.id] });
      }
      for (const route of ["/raw-validation/lines", "/raw-validation/nodes", "/raw-validation/lines/list", "/raw-validation/nodes/list"]) {
        expect(await ids(route, { ...upstream, status }), route).toEqual([]);
      }
    }
  });

  it("list rows: lat is the latitude and lon the longitude (upstream swapped them)", async () => {
    const rows: Row[] = await post("/raw/list", { hashtag: MAPATHON_HASHTAG });
    expect(sorted(rows)).toEqual(MAPATHON);
    for (const row of rows) {
      expect(row.lat, String(row.id)).toBeGreaterThan(43.739);
      expect(row.lat, String(row.id)).toBeLessThan(43.741);
      expect(row.lon, String(row.id)).toBeGreaterThan(7.439);
      expect(row.lon, String(row.id)).toBeLessThan(7.442);
    }
  });

  it("/raw/features and /raw/list take featureType: polygon, line or node; empty or absent is every kind", async () => {
    const body = { area: ringOf(MONACO_CENTRE), tags: "amenity,highway" };
    for (const [featureType, route] of [["polygon", "polygons"], ["line", "lines"], ["node", "nodes"], ["", "all"], [undefined, "all"]] as const) {
      const expected = await ids(`/raw/${route}`, body);
      expect(expected.length, route).toBeGreaterThan(0);
      for (const prefix of ["/raw", "/raw-validation"]) {
        expect(await ids(`${prefix}/features`, { ...body, featureType }), `${prefix}/features ${featureType}`).toEqual(expected);
        expect(await ids(`${prefix}/list`, { ...body, featureType }), `${prefix}/list ${featureType}`).toEqual(expected);
      }
      if (route !== "all") expect(await ids(`/raw/${route}/list`, body)).toEqual(expected);
    }
  });

  it("dateFrom and dateTo: the changeset's creation on the 2023 routes, its closing on the 2024 ones", async () => {
    // Created at 10:02:11, closed at 10:15:30.
    const [created, closed] = [{ dateFrom: "2025-01-10T10:00:00", dateTo: "2025-01-10T10:10:00" }, { dateFrom: "2025-01-10T10:15:00", dateTo: "2025-01-10T10:15:30" }];
    for (const route of ["/raw/all", "/raw/allList"]) {
      expect(await ids(route, created), route).toEqual(MAPATHON);
      expect(await ids(route, closed), route).toEqual([]);
    }
    for (const route of [...GEO_ROUTES, ...LIST_ROUTES].filter((route) => !/lines|nodes/.test(route))) {
      expect(await ids(route, created), route).toEqual([]);
      expect(await ids(route, closed), route).toEqual(MAPATHON);
      expect(await ids(route, { dateFrom: "2025-01-10T10:15:31" }), route).toEqual([]);
      expect(await ids(route, { dateTo: "2025-01-10", hashtag: MAPATHON_HASHTAG }), route).toEqual(MAPATHON);
    }
    expect(await post("/stats/count", created)).toEqual({ count: MAPATHON.length });
    expect(await post("/stats/features", created)).toEqual({ count: 0 });
    expect(await post("/stats/polygons", closed)).toEqual({ count: MAPATHON.length });
  });

  it("counts: {count}, with a status {count, total}; /raw-validation/stats always {count, total}", async () => {
    const mapathon = { hashtag: MAPATHON_HASHTAG };
    for (const route of ["/stats/count", "/stats/features", "/stats/polygons"]) {
      expect(await post(route, mapathon), route).toEqual({ count: 5 });
      expect(await post(route, { ...mapathon, status: "" }), route).toEqual({ count: 5 });
      expect(await post(route, { ...mapathon, status: "overlapping" }), route).toEqual({ count: 2, total: 5 });
      expect(await post(route, { ...mapathon, tags: "building=residential", status: "badgeom" }), route).toEqual({ count: 0, total: 2 });
    }
    for (const route of ["/stats/lines", "/stats/nodes"]) expect(await post(route, mapathon), route).toEqual({ count: 0 });
    for (const route of ["/raw-validation/stats", "/raw-validation/stats/polygons"]) {
      expect(await post(route, { ...mapathon, status: "badgeom" }), route).toEqual({ count: 1, total: 5 });
      expect(await post(route, { ...mapathon, status: "badvalue", tags: "building" }), route).toEqual({ count: 1, total: 5 });
      // No status: every feature passes the status filter.
      expect(await post(route, mapathon), route).toEqual({ count: 5, total: 5 });
      expect(await post(route, { ...mapathon, status: "" }), route).toEqual({ count: 5, total: 5 });
    }
    expect(await post("/raw-validation/stats/nodes", { ...mapathon, status: "badgeom" })).toEqual({ count: 0, total: 0 });
  });

  it("a count is the number of features the GeoJSON routes answer, over all their pages", async () => {
    const area = ringOf(MONACO_CENTRE);
    for (const [count, route] of [["/stats/features", "/raw/features"], ["/stats/polygons", "/raw-validation/polygons"], ["/stats/lines", "/raw-validation/lines"], ["/stats/nodes", "/raw-validation/nodes"]] as const) {
      const { features, hasMore } = await post(route, { area, pageSize: 5000 });
      expect(hasMore).toBe(false);
      expect(features.length).toBeGreaterThan(0);
      expect(await post(count, { area }), count).toEqual({ count: features.length });
    }
    const all = await post("/raw/all", { area, pageSize: 5000 });
    expect(await post("/stats/count", { area })).toEqual({ count: all.features.length });
  });

  it("orderBy: timestamp, created_at, closed_at and closedAt are newest first; id is by kind, then id", async () => {
    const body = { area: ringOf(MONACO_CENTRE), tags: "amenity" };
    for (const route of ["/raw/allList", "/raw/list", "/raw-validation/list"]) {
      const newest: Row[] = await post(route, body);
      expect(newest.length).toBeGreaterThan(10);
      const stamps = newest.map((row) => row.timestamp ?? "");
      expect(stamps).toEqual([...stamps].sort().reverse());
      for (const orderBy of ["timestamp", "created_at", "closed_at", "closedAt"]) expect(await post(route, { ...body, orderBy }), `${route} ${orderBy}`).toEqual(newest);
      const byId: Row[] = await post(route, { ...body, orderBy: "id" });
      const rank = (row: Row) => (row.type === "way" ? (row.geotype === "Polygon" ? 0 : 1) : row.type === "node" ? 2 : 3);
      expect(byId.map((row) => row.id)).toEqual([...newest].sort((a, b) => rank(a) - rank(b) || a.id - b.id).map((row) => row.id));
    }
  });

  it("an empty string is no filter, on every route: area, tags, hashtag, dateFrom, dateTo, status and featureType; so is a null area", async () => {
    const empty = { area: "", tags: "", hashtag: "", dateFrom: "", dateTo: "", status: "", featureType: "" };
    for (const route of [...ROUTES_2023, ...GEO_ROUTES, ...LIST_ROUTES, ...COUNT_ROUTES]) {
      const none = await server.post(route, {});
      expect(none.status, route).toBe(200);
      for (const body of [empty, { area: null }, { hashtag: " " }]) expect((await server.post(route, body)).text, `${route} ${JSON.stringify(body)}`).toBe(none.text);
      // With one filter given, the empty others leave it alone.
      const mapathon = await server.post(route, { hashtag: MAPATHON_HASHTAG });
      expect((await server.post(route, { ...empty, hashtag: MAPATHON_HASHTAG })).text, route).toBe(mapathon.text);
    }
  });

  it("the square building, in no status, is in every unfiltered answer and no filtered one", async () => {
    expect(await ids("/raw-validation/features", { area: MAPATHON_AREA, tags: "building=house" })).toContain(SQUARE);
    for (const status of ["badgeom", "overlapping", "badvalue"]) expect(await ids("/raw-validation/features", { area: MAPATHON_AREA, status })).not.toContain(SQUARE);
  });

  describe("bad input is still a 422 naming the member", () => {
    const cases: Array<[string, object, string[], RegExp]> = [
      ["/raw-validation/features", { status: "valid" }, ["body", "status"], /must be one of "badgeom", .*""; found a string \("valid"\)/],
      ["/raw-validation/stats", { status: 1 }, ["body", "status"], /must be one of/],
      ["/raw/list", { orderBy: "lat" }, ["body", "orderBy"], /must be one of "timestamp", "created_at", "closed_at", "closedAt", "id"; found a string \("lat"\)/],
      ["/raw/features", { featureType: "way" }, ["body", "featureType"], /must be one of "polygon", "line", "node", ""; found a string \("way"\)/],
      ["/stats/count", { area: "7.42 43.73, 7.43 43.73" }, ["body", "area"], /too few for a closed ring/],
      ["/stats/features", { dateFrom: "yesterday" }, ["body", "dateFrom"], /is not a date-time/],
      ["/raw-validation/nodes/list", { page: -1 }, ["body", "page"], /at least 0/],
      ["/stats/polygons", { tags: "building,,shop" }, ["body", "tags"], /term 2 .* is empty/],
      ["/raw-validation/stats/lines", { hashtag: ["x"] }, ["body", "hashtag"], /must be a string/],
    ];
    it.each(cases)("%s %j", async (route, body, loc, msg) => {
      const answer = await server.post(route, body);
      expect(answer.status, answer.text).toBe(422);
      expect(answer.body.detail).toContainEqual(expect.objectContaining({ loc, msg: expect.stringMatching(msg) }));
    });
  });
});
