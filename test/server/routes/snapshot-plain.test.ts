import { beforeAll, describe, expect, it } from "vitest";
import { MAX_LIST_ITEMS, MAX_PLAIN_ANSWER_BYTES, MAX_TAG_LENGTH } from "../../../src/server/api/limits.js";
import { MONACO_CENTRE, monacoStorePath, startServer, wireValidator, type RunningServer } from "./helpers.js";

const BBOX = [MONACO_CENTRE.minX, MONACO_CENTRE.minY, MONACO_CENTRE.maxX, MONACO_CENTRE.maxY];
const PLAIN = "/latest/snapshot/plain/";
/** Where nothing is mapped: an answer that costs nothing to build, whatever it selects. */
const EMPTY_BBOX = [0, 0, 0.001, 0.001];
const ALL_TABLES = ["nodes", "ways_poly", "ways_line", "relations"];

const many = <T>(count: number, item: (index: number) => T): T[] => Array.from({ length: count }, (_, index) => item(index));
/** A tag key of exactly `length` characters, different for each index. */
const keyOf = (index: number, length = MAX_TAG_LENGTH): string => `k${index}_`.padEnd(length, "x");

describe("POST /latest/snapshot/plain/ on the real Monaco data", () => {
  let server: RunningServer;
  const validResponse = wireValidator("PlainSnapshotResponse");
  beforeAll(async () => {
    server = await startServer(await monacoStorePath(), { plainFeatureLimit: 2000 });
  });

  it("defaults as the real service: buildings among nodes and polygons, every tag, in the bbox", async () => {
    const { status, body } = await server.post(PLAIN, { bbox: BBOX });
    expect(status).toBe(200);
    expect(validResponse(body)).toBe(true);
    expect(body.features.length).toBeGreaterThan(300);
    for (const feature of body.features) {
      expect(feature.properties.building).toBeTypeOf("string");
      expect(feature.properties.osm_id).toBe(feature.id);
      expect(["Point", "Polygon", "MultiPolygon"]).toContain(feature.geometry.type);
    }
    // The same request under /v1 and with the defaults spelled out gives the same features.
    const explicit = await server.post("/v1/snapshot/plain/", {
      bbox: BBOX,
      select: ["*"],
      where: [{ key: "building", value: ["*"] }],
      joinBy: "OR",
      lookIn: ["nodes", "ways_poly"],
    });
    expect(explicit.body.features.map((f: { id: number }) => f.id)).toEqual(body.features.map((f: { id: number }) => f.id));
  });

  it("select writes only the chosen tags, null where a feature lacks one", async () => {
    const { body } = await server.post(PLAIN, { bbox: BBOX, select: ["name", "building"] });
    expect(body.features.length).toBeGreaterThan(0);
    for (const feature of body.features) expect(Object.keys(feature.properties).sort()).toEqual(["building", "name", "osm_id"]);
    expect(body.features.some((f: { properties: { name: unknown } }) => f.properties.name === null)).toBe(true);
  });

  it("where with values, AND and OR, lookIn and geometryType", async () => {
    const cafes = await server.post(PLAIN, { bbox: BBOX, where: [{ key: "amenity", value: ["cafe", "restaurant"] }], lookIn: ["nodes"] });
    expect(cafes.status).toBe(200);
    expect(cafes.body.features.length).toBeGreaterThan(0);
    for (const f of cafes.body.features) expect(["cafe", "restaurant"]).toContain(f.properties.amenity);

    const either = await server.post(PLAIN, { bbox: BBOX, where: [{ key: "amenity", value: ["cafe"] }, { key: "shop", value: [] }], joinBy: "OR", lookIn: ["nodes"] });
    const both = await server.post(PLAIN, { bbox: BBOX, where: [{ key: "amenity", value: ["cafe"] }, { key: "shop", value: [] }], joinBy: "AND", lookIn: ["nodes"] });
    expect(either.body.features.length).toBeGreaterThan(both.body.features.length);
    for (const f of either.body.features) expect(f.properties.amenity === "cafe" || f.properties.shop !== undefined).toBe(true);
    for (const f of both.body.features) expect(f.properties.amenity === "cafe" && f.properties.shop !== undefined).toBe(true);

    const highways = await server.post(PLAIN, { bbox: BBOX, where: [{ key: "highway", value: ["*"] }], lookIn: ["ways_line", "ways_poly", "nodes"], geometryType: "line" });
    expect(highways.body.features.length).toBeGreaterThan(0);
    for (const f of highways.body.features) expect(["LineString", "MultiLineString"]).toContain(f.geometry.type);
  });

  it("takes the snake_case spellings, and refuses a member spelled both ways", async () => {
    const snake = await server.post(PLAIN, { bbox: BBOX, look_in: ["nodes"], join_by: "AND", geometry_type: "point" });
    expect(snake.status).toBe(200);
    for (const f of snake.body.features) expect(f.geometry.type).toBe("Point");
    const both = await server.post(PLAIN, { bbox: BBOX, lookIn: ["nodes"], look_in: ["nodes"] });
    expect(both.status).toBe(422);
    expect(both.body.detail[0]).toMatchObject({ loc: ["body", "look_in"], type: "duplicate_alias" });
  });

  it("an area with more matches than the limit is a 422 pointing to /snapshot/", async () => {
    const { status, body } = await server.post(PLAIN, { where: [] });
    expect(status).toBe(422);
    expect(body.detail[0].msg).toContain("/latest/snapshot/");
    expect(body.detail[0].type).toBe("too_many_features");
  });

  it("an empty region answers an empty collection, never null", async () => {
    const { status, body } = await server.post(PLAIN, { bbox: [0, 0, 0.001, 0.001] });
    expect(status).toBe(200);
    expect(body).toEqual({ type: "FeatureCollection", features: [] });
  });

  const bad: Array<[string, unknown, Array<string | number>, RegExp]> = [
    ["a bbox of three numbers", { bbox: [1, 2, 3] }, ["body", "bbox"], /exactly 4 items/],
    ["a bbox with strings", { bbox: ["7", 43, 8, 44] }, ["body", "bbox", 0], /must be a number; found a string/],
    ["a bbox upside down", { bbox: [8, 44, 7, 43] }, ["body", "bbox"], /xmin < xmax/],
    ["a bbox off the earth", { bbox: [7, 43, 190, 44] }, ["body", "bbox"], /-180\.\.180/],
    ["joinBy in lower case", { joinBy: "and" }, ["body", "joinBy"], /one of "OR", "AND"; found a string \("and"\) \(did you mean "AND"\?\)/],
    ["an unknown table", { lookIn: ["nodes", "ways"] }, ["body", "lookIn", 1], /one of "nodes", "ways_poly", "ways_line", "relations"/],
    ["a where condition without value", { where: [{ key: "building" }] }, ["body", "where", 0, "value"], /^"value" is missing from item 0 of "where"$/],
    ["select empty", { select: [] }, ["body", "select"], /at least 1 item/],
    ["a body that is an array", [], ["body"], /must be an object; found an empty array/],
    // A 1.0 MB body: under the body limit.
    ["the fuzzer's 170,000 select keys", { bbox: EMPTY_BBOX, select: many(170_000, (i) => String(i % 1000)) }, ["body", "select"], /at most 100 items; found an array of 170000 items/],
    ["101 select keys", { bbox: EMPTY_BBOX, select: many(101, (i) => `k${i}`) }, ["body", "select"], /at most 100 items; found an array of 101 items/],
    ["a select key of 256 characters", { bbox: EMPTY_BBOX, select: ["name", keyOf(1, 256)] }, ["body", "select", 1], /must be at most 255 characters long; found 256 characters/],
    ["101 where conditions", { bbox: EMPTY_BBOX, where: many(101, (i) => ({ key: `k${i}`, value: [] })) }, ["body", "where"], /at most 100 items; found an array of 101 items/],
    ["a where condition with 101 values", { bbox: EMPTY_BBOX, where: [{ key: "building", value: many(101, (i) => `v${i}`) }] }, ["body", "where", 0, "value"], /at most 100 items; found an array of 101 items/],
    ["a where key of 256 characters", { bbox: EMPTY_BBOX, where: [{ key: keyOf(0, 256), value: [] }] }, ["body", "where", 0, "key"], /at most 255 characters long; found 256/],
    ["a where value of 256 characters", { bbox: EMPTY_BBOX, where: [{ key: "name", value: ["x".repeat(256)] }] }, ["body", "where", 0, "value", 0], /at most 255 characters long; found 256/],
    ["a select key of 256 emoji (characters, not UTF-16 units)", { bbox: EMPTY_BBOX, select: ["🏠".repeat(256)] }, ["body", "select", 0], /found 256 characters/],
  ];
  for (const [name, body, loc, msg] of bad) {
    it(`422 for ${name}, naming the member`, async () => {
      const answer = await server.post(PLAIN, body);
      expect(answer.status).toBe(422);
      const detail = answer.body.detail.find((entry: { loc: unknown[] }) => JSON.stringify(entry.loc) === JSON.stringify(loc));
      expect(detail, JSON.stringify(answer.body)).toBeDefined();
      expect(detail.msg).toMatch(msg);
      expect(wireValidator("HTTPValidationError")(answer.body)).toBe(true);
    });
  }

  it("lists and tag keys at their bounds are answered", async () => {
    const select = many(MAX_LIST_ITEMS, (i) => keyOf(i));
    const where = many(MAX_LIST_ITEMS, (i) => ({ key: i === 0 ? "building" : keyOf(i), value: i === 1 ? many(MAX_LIST_ITEMS, (j) => keyOf(j)) : [] }));
    const answer = await server.post(PLAIN, { bbox: [7.4265, 43.7395, 7.428, 43.741], select, where, lookIn: ALL_TABLES });
    expect(answer.status, answer.text.slice(0, 300)).toBe(200);
    expect(answer.body.features.length).toBeGreaterThan(0);
    for (const feature of answer.body.features) expect(Object.keys(feature.properties)).toHaveLength(MAX_LIST_ITEMS + 1);
  });

  it("an answer over the byte bound is a 422 pointing to /snapshot/, before the feature limit is reached", async () => {
    // 100 selected keys of 255 characters: about 26 kB per feature, so the bound comes after
    // about 650 features, well before this server's limit of 2,000.
    const { status, body } = await server.post(PLAIN, { select: many(MAX_LIST_ITEMS, (i) => keyOf(i)), where: [], lookIn: ALL_TABLES });
    expect(status).toBe(422);
    expect(body.detail).toEqual([
      {
        loc: ["body"],
        msg: `the features take more than ${MAX_PLAIN_ANSWER_BYTES / 1024 / 1024} MiB of GeoJSON: /snapshot/plain/ is for small regions; use POST /latest/snapshot/ for larger extractions, or select fewer tags`,
        type: "answer_too_large",
      },
    ]);
    // The server goes on answering.
    expect((await server.post(PLAIN, { bbox: BBOX })).status).toBe(200);
  });

  it("select writes each key once, osm_id only as the id, in the order asked", async () => {
    const { body } = await server.post(PLAIN, { bbox: BBOX, select: ["name", "osm_id", "building", "name", "constructor", "__proto__"] });
    expect(body.features.length).toBeGreaterThan(0);
    for (const feature of body.features) {
      expect(Object.keys(feature.properties)).toEqual(["osm_id", "name", "building", "constructor", "__proto__"]);
      expect(feature.properties.osm_id).toBe(feature.id);
      // Keys no feature has are null, never a member inherited from Object.prototype.
      expect(feature.properties.constructor).toBeNull();
    }
  });

  it("422 for a body that is not JSON (whatever the content type), or no body at all", async () => {
    for (const headers of [{ "content-type": "application/json" }, { "content-type": "application/x-www-form-urlencoded" }]) {
      const answer = await server.post(PLAIN, "bbox=1,2,3,4", headers);
      expect(answer.status).toBe(422);
      expect(answer.body.detail[0]).toMatchObject({ loc: ["body"], type: "json_invalid" });
    }
    const empty = await server.post(PLAIN, "");
    expect(empty.status).toBe(422);
    expect(empty.body.detail[0].loc).toEqual(["body"]);
  });

  it("413 for a body over the limit", async () => {
    const answer = await server.post(PLAIN, { where: [{ key: "x".repeat(2 * 1024 * 1024), value: [] }] });
    expect(answer.status).toBe(413);
    expect(answer.body.detail).toMatch(/larger than the limit of 1048576 bytes/);
  });
});
