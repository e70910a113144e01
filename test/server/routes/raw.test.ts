import { beforeAll, describe, expect, it } from "vitest";
import { MAX_PAGE } from "../../../src/server/api/limits.js";
import { MONACO_CENTRE, monacoStorePath, ringOf, startServer, wireValidator, type RunningServer } from "./helpers.js";

const AREA = ringOf(MONACO_CENTRE);
type RawFeature = { id: number; geometry: { type: string }; properties: { type: string; id: number; tags: Record<string, string>; timestamp: string } };
type ListItem = { type: string; geotype: string; id: number; lat: number; lon: number; timestamp: string; tags: Record<string, string> };

describe("POST /raw/* on the real Monaco data", () => {
  let server: RunningServer;
  const validCollection = wireValidator("RawFeatureCollection");
  const validList = wireValidator("RawList");
  beforeAll(async () => {
    server = await startServer(await monacoStorePath());
  });

  it("/raw/polygons, /raw/lines, /raw/nodes each answer their own geometry type, and /raw/all all three", async () => {
    const answers: Record<string, RawFeature[]> = {};
    for (const kind of ["polygons", "lines", "nodes", "all"]) {
      const { status, body } = await server.post(`/raw/${kind}`, { area: AREA, pageSize: 5000 });
      expect(status).toBe(200);
      expect(validCollection(body)).toBe(true);
      expect(body).toMatchObject({ type: "FeatureCollection", page: 0, pageSize: 5000, hasMore: false });
      answers[kind] = body.features;
    }
    const types = (features: RawFeature[]) => new Set(features.map((f) => f.properties.type));
    expect(types(answers.polygons!)).toEqual(new Set(["Polygon"]));
    expect(types(answers.lines!)).toEqual(new Set(["LineString"]));
    expect(types(answers.nodes!)).toEqual(new Set(["Node"]));
    expect(answers.all!.length).toBe(answers.polygons!.length + answers.lines!.length + answers.nodes!.length);
    expect(answers.polygons!.filter((f) => f.properties.tags.building !== undefined).length).toBeGreaterThan(300);
    for (const f of answers.nodes!) {
      const [lon, lat] = (f.geometry as unknown as { coordinates: [number, number] }).coordinates;
      expect(lon >= MONACO_CENTRE.minX && lon <= MONACO_CENTRE.maxX && lat >= MONACO_CENTRE.minY && lat <= MONACO_CENTRE.maxY).toBe(true);
    }
  });

  it("tags: key alone, key=value, several terms OR-ed; case-sensitive values", async () => {
    const cafes = await server.post("/raw/nodes", { area: AREA, tags: "amenity=cafe" });
    expect(cafes.body.features.length).toBeGreaterThan(0);
    for (const f of cafes.body.features as RawFeature[]) expect(f.properties.tags.amenity).toBe("cafe");
    const upper = await server.post("/raw/nodes", { area: AREA, tags: "amenity=Cafe" });
    expect(upper.body.features).toEqual([]);
    const either = await server.post("/raw/nodes", { area: AREA, tags: " amenity=cafe , shop " });
    const shops = await server.post("/raw/nodes", { area: AREA, tags: "shop" });
    expect(either.body.features.length).toBe(cafes.body.features.length + shops.body.features.filter((f: RawFeature) => f.properties.tags.amenity !== "cafe").length);
  });

  it("pages: page and pageSize, hasMore, and the pages add up to the whole answer", async () => {
    const whole = await server.post("/raw/polygons", { area: AREA, tags: "building", pageSize: 5000 });
    const ids: number[] = [];
    for (let page = 0; ; page++) {
      const { body } = await server.post("/raw/polygons", { area: AREA, tags: "building", page, pageSize: 100 });
      ids.push(...body.features.map((f: RawFeature) => f.id));
      if (!body.hasMore) break;
      expect(body.features).toHaveLength(100);
    }
    expect(ids).toEqual(whole.body.features.map((f: RawFeature) => f.id));
  });

  it("list variants: centroids inside the area's neighbourhood, newest first or by id", async () => {
    const { status, body } = await server.post("/raw/allList", { area: AREA, tags: "amenity" });
    expect(status).toBe(200);
    expect(validList(body)).toBe(true);
    expect(body.length).toBeGreaterThan(0);
    const items = body as ListItem[];
    for (const item of items) {
      expect(item.lat).toBeGreaterThan(43.7);
      expect(item.lat).toBeLessThan(43.75); // latitude is the latitude (the real service swapped them)
      expect(item.lon).toBeGreaterThan(7.4);
      expect(item.lon).toBeLessThan(7.45);
    }
    const stamps = items.map((item) => item.timestamp);
    expect(stamps).toEqual([...stamps].sort().reverse());
    const byId = (await server.post("/raw/allList", { area: AREA, tags: "amenity", orderBy: "id" })).body as ListItem[];
    // By id: way polygons, way lines, nodes, then relations, each by ascending OSM id.
    const rank = (item: ListItem) => (item.type === "way" ? (item.geotype === "Polygon" ? 0 : 1) : item.type === "node" ? 2 : 3);
    const expected = [...items].sort((a, b) => rank(a) - rank(b) || a.id - b.id);
    expect(byId.map((item) => item.id)).toEqual(expected.map((item) => item.id));
    expect(new Set((await server.post("/raw/nodesList", { area: AREA, tags: "amenity" })).body.map((item: ListItem) => item.type))).toEqual(new Set(["node"]));
  });

  it("the last page allowed, at the largest page size, is an empty page, not an error", async () => {
    for (const route of ["/raw/all", "/raw/allList"]) {
      const { status, body } = await server.post(route, { area: AREA, page: MAX_PAGE, pageSize: 5000 });
      expect(status, route).toBe(200);
      expect(route.endsWith("List") ? body : body.features).toEqual([]);
    }
  });

  it("100 tags terms, keys and values of 255 characters, are answered", async () => {
    const terms = ["building", ...Array.from({ length: 98 }, (_, i) => `k${i}`.padEnd(255, "x")), `name=${"v".repeat(255)}`];
    const { status, body } = await server.post("/raw/polygons", { area: AREA, tags: terms.join(",") });
    expect(status).toBe(200);
    expect(body.features.length).toBeGreaterThan(0);
  });

  it("an area with nothing in it: [] and an empty collection, never null", async () => {
    const nowhere = ringOf({ minX: 0, minY: 0, maxX: 0.001, maxY: 0.001 });
    expect((await server.post("/raw/all", { area: nowhere })).body.features).toEqual([]);
    expect((await server.post("/raw/allList", { area: nowhere })).body).toEqual([]);
  });

  it("SQL-injection strings in tags match nothing and change nothing", async () => {
    const before = (await server.post("/raw/all", { area: AREA, pageSize: 5000 })).body.features.length;
    for (const tags of ["building'; DROP TABLE ways_poly; --", 'building" OR 1=1 --', "building=yes' OR '1'='1", "%", "_", "building=%", "'); DELETE FROM nodes; --=x"]) {
      const answer = await server.post("/raw/all", { area: AREA, tags });
      expect(answer.status).toBe(200);
      expect(answer.body.features).toEqual([]);
    }
    expect((await server.post("/raw/all", { area: AREA, pageSize: 5000 })).body.features.length).toBe(before);
  });

  const bad: Array<[string, unknown, Array<string | number>, RegExp]> = [
    ["an unclosed ring", { area: "7.42 43.73, 7.43 43.73, 7.43 43.74, 7.42 43.74" }, ["body", "area"], /clos/],
    ["a pair without latitude", { area: "7.42 43.73, 7.43, 7.43 43.74, 7.42 43.73" }, ["body", "area"], /pair 2/],
    ["a latitude off the earth", { area: "7.42 43.73, 7.43 95, 7.43 43.74, 7.42 43.73" }, ["body", "area"], /latitude/],
    ["a self-intersecting ring", { area: "7.42 43.73, 7.43 43.74, 7.43 43.73, 7.42 43.74, 7.42 43.73" }, ["body", "area"], /(cross|intersect)/i],
    ["words for an area", { area: "Monaco" }, ["body", "area"], /./],
    ["an area of the wrong type", { area: [7.42, 43.73] }, ["body", "area"], /must be a string or null; found an array/],
    ["an empty tags term", { area: AREA, tags: "building,,shop" }, ["body", "tags"], /term 2 .* is empty/],
    ["a tags term without key", { area: AREA, tags: "=yes" }, ["body", "tags"], /no key/],
    ["a negative page", { page: -1 }, ["body", "page"], /at least 0; found a number \(-1\)/],
    ["a page size over 5000", { pageSize: 5001 }, ["body", "pageSize"], /at most 5000/],
    ["a fractional page", { page: 1.5 }, ["body", "page"], /^"page" must be an integer; found a number \(1\.5\)$/],
    ["the fuzzer's page", { page: 9007199254741 }, ["body", "page"], /^"page" must be at most 1000000000000 \(page × pageSize, the rows skipped, must stay below 2\^53, .*\); found a number \(9007199254741\)$/],
    ["a page past any integer", { page: 1e300 }, ["body", "page"], /at most 1000000000000/],
    ["101 tags terms", { area: AREA, tags: Array.from({ length: 101 }, (_, i) => `k${i}`).join(",") }, ["body", "tags"], /^tags must hold at most 100 terms; found 101$/],
    ["a tags key of 256 characters", { area: AREA, tags: `building,${"k".repeat(256)}=yes` }, ["body", "tags"], /^the key of term 2 is 256 characters long; tag keys and values have at most 255$/],
    ["a tags value of 256 characters", { area: AREA, tags: `name=${"é".repeat(256)}` }, ["body", "tags"], /^the value of term 1 is 256 characters long/],
    ["a hashtag of 256 characters", { hashtag: "h".repeat(256) }, ["body", "hashtag"], /^"hashtag" must be at most 255 characters long; found 256 characters$/],
    ["a dateFrom of 65 characters", { dateFrom: `2025-01-01T00:00:00.${"0".repeat(45)}` }, ["body", "dateFrom"], /at most 64 characters long; found 65/],
  ];
  it("every problem in one 422: the schema's (page, status) with the area's, the tags' and each date's, on every kind of route", async () => {
    const body = { area: "7.42 43.73, 7.43 43.74, 7.43 43.73, 7.42 43.74, 7.42 43.73", tags: "building,,shop", dateFrom: "nope", dateTo: "2025-02-30", page: -1 };
    const wanted = [
      ["body.page", "value_error"],
      ["body.area", "value_error"],
      ["body.tags", "value_error"],
      ["body.dateFrom", "value_error"],
      ["body.dateTo", "value_error"],
    ];
    for (const path of ["/raw/all", "/raw/allList", "/raw/features", "/raw-validation/polygons", "/stats/count", "/raw-validation/stats"]) {
      const answer = await server.post(path, path.includes("stats") ? { ...body, page: undefined, status: 5 } : body);
      expect(answer.status, path).toBe(422);
      const found = answer.body.detail.map(({ loc, type }: { loc: string[]; type: string }) => [loc.join("."), type]);
      const schemaProblem = path.includes("stats") ? ["body.status", expect.any(String)] : wanted[0];
      expect(found, path).toEqual(expect.arrayContaining([schemaProblem, ...wanted.slice(1)]));
      expect(found, path).toHaveLength(5);
    }
  });

  it("a member the schema refused is not read again by the filters' checks: one problem for it", async () => {
    const answer = await server.post("/raw/all", { area: [7.42, 43.73], tags: 5, page: -1 });
    expect(answer.body.detail.map(({ loc }: { loc: string[] }) => loc.join(".")).sort()).toEqual(["body.area", "body.page", "body.tags"]);
    expect(answer.body.detail).toHaveLength(3);
  });

  for (const [name, body, loc, msg] of bad) {
    it(`422 for ${name}, naming the member`, async () => {
      const answer = await server.post("/raw/polygons", body);
      expect(answer.status).toBe(422);
      const detail = answer.body.detail.find((entry: { loc: unknown[] }) => JSON.stringify(entry.loc) === JSON.stringify(loc));
      expect(detail, JSON.stringify(answer.body)).toBeDefined();
      expect(detail.msg).toMatch(msg);
    });
  }
});
