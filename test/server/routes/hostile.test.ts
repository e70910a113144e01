/**
 * Hostile bodies, on each store holding Monaco (SQLite, and PostGIS): what one store answered
 * and the other failed on, what a store failed on after the request was accepted, and what
 * crashed a route on both. Every such body is a 422 that names the member, on both stores alike.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { startExportServer, waitForTask, type ExportServer } from "./exports.js";
import { MONACO_CENTRE, monacoStores, ringOf } from "./helpers.js";

const RING = ringOf(MONACO_CENTRE);
const SQUARE = { type: "Polygon", coordinates: [[[7.4265, 43.7395], [7.428, 43.7395], [7.428, 43.741], [7.4265, 43.741], [7.4265, 43.7395]]] };
const NUL = "a\u0000b";
const ROADS = { types: ["lines"], select: ["name"], where: "tags['highway'] IS NOT NULL", formats: ["geojson"] };
const CUSTOM = { geometry: SQUARE, dataset: { dataset_prefix: "hotosm_project_1" }, categories: [{ Roads: ROADS }] };

const FEATURE_ROUTES = ["/raw/all", "/raw/polygons", "/raw/allList", "/raw/features", "/raw/list", "/raw/nodes/list", "/raw-validation/features", "/raw-validation/list", "/raw-validation/stats", "/stats/count", "/stats/features", "/stats/polygons"];
const REPORT_ROUTES = ["dataQualityGeo", "dataQualityTags", "dataQualityTag", "dataQualityTagStats"].flatMap((report) => [`/report/${report}`, `/report/${report}/csv`]);

/** [route, body, where the NUL is]: each tag, tag value and hashtag of every route, and other texts a store would see. */
const NUL_BODIES: Array<[string, unknown, Array<string | number>]> = [
  ...FEATURE_ROUTES.flatMap((route): Array<[string, unknown, Array<string | number>]> => [
    [route, { area: RING, tags: NUL }, ["body", "tags"]],
    [route, { area: RING, tags: `building=${NUL}` }, ["body", "tags"]],
    [route, { area: RING, hashtag: NUL }, ["body", "hashtag"]],
  ]),
  ...REPORT_ROUTES.flatMap((route): Array<[string, unknown, Array<string | number>]> => [
    [route, { fromDate: "2000-01-01T00:00:00", hashtags: NUL }, ["body", "hashtags"]],
    [route, { fromDate: "2000-01-01T00:00:00", hashtags: ["x", NUL] }, ["body", "hashtags", 1]],
  ]),
  ["/v1/snapshot/plain/", { select: [NUL] }, ["body", "select", 0]],
  ["/v1/snapshot/plain/", { where: [{ key: NUL, value: [] }] }, ["body", "where", 0, "key"]],
  ["/v1/snapshot/plain/", { where: [{ key: "building", value: [NUL] }] }, ["body", "where", 0, "value", 0]],
  ["/v1/snapshot/plain/", { geometry: SQUARE, filters: { tags: { point: { [NUL]: [] } } } }, ["body", "filters", "tags", "point", NUL]],
  ["/v1/snapshot/plain/", { geometry: SQUARE, filters: { tags: { point: { joinOr: { amenity: [NUL] } } } } }, ["body", "filters", "tags", "point", "joinOr", "amenity", 0]],
  ["/v1/snapshot/plain/", { geometry: SQUARE, filters: { attributes: { point: [NUL] } } }, ["body", "filters", "attributes", "point", 0]],
  ["/latest/snapshot/", { geometry: SQUARE, filters: { tags: { allGeometry: { building: [NUL] } } } }, ["body", "filters", "tags", "allGeometry", "building", 0]],
  ["/latest/snapshot/", { geometry: SQUARE, fileName: NUL }, ["body", "fileName"]],
  ["/latest/custom/snapshot/", { ...CUSTOM, categories: [{ Roads: { ...ROADS, where: `tags['highway'] = '${NUL}'` } }] }, ["body", "categories", 0, "Roads", "where"]],
  ["/latest/custom/snapshot/", { ...CUSTOM, categories: [{ Roads: { ...ROADS, select: ["name", NUL] } }] }, ["body", "categories", 0, "Roads", "select", 1]],
  ["/latest/custom/snapshot/", { ...CUSTOM, dataset: { dataset_prefix: NUL } }, ["body", "dataset", "dataset_prefix"]],
  ["/latest/custom/snapshot/", { iso3: "MC\u0000", categories: [{ Roads: ROADS }] }, ["body", "iso3"]],
  ["/v1/stats/polygon/", { iso3: "MC\u0000" }, ["body", "iso3"]],
];

describe.each(monacoStores())("hostile bodies, %s", (_store, location) => {
  let server: ExportServer;
  beforeAll(async () => {
    server = await startExportServer({ store: await location() });
  });

  it("a NUL character in a tag, a tag value, a hashtag or any other text is a 422 at that member, on every route", async () => {
    for (const [route, body, loc] of NUL_BODIES) {
      const answer = await server.post(route, body);
      const what = `${route} ${JSON.stringify(body)} -> ${answer.status} ${answer.text.slice(0, 300)}`;
      expect(answer.status, what).toBe(422);
      expect(answer.body.detail, what).toContainEqual({ loc, msg: expect.stringMatching(/holds the NUL character \(U\+0000\) at character \d+; no tag, value or name may hold it$/), type: "value_error" });
    }
    // The YAML route: the same where, written in YAML with its \0 escape.
    const yaml = `geometry: ${JSON.stringify(SQUARE)}\ndataset: {dataset_prefix: hotosm_project_1}\ncategories:\n  - Roads: {types: [lines], select: [name], where: "tags['highway'] = 'a\\0b'", formats: [geojson]}\n`;
    const answer = await server.post("/latest/custom/snapshot/yaml/", yaml, { "content-type": "application/x-yaml" });
    expect(answer.status, answer.text).toBe(422);
    expect(answer.body.detail[0]).toMatchObject({ loc: ["body", "categories", 0, "Roads", "where"], msg: expect.stringContaining("at character 21;") });
  });

  it("an object of more than 1,000 members is one 422 at that object, before the schema words a problem for each member", async () => {
    const members = (count: number) => Object.fromEntries(Array.from({ length: count }, (_, index) => [`k${index}`, index]));
    const wide = await server.post("/v1/snapshot/plain/", { geometry: SQUARE, filters: { tags: { point: members(50_000) } } });
    expect(wide.status).toBe(422);
    expect(wide.body.detail).toEqual([{ loc: ["body", "filters", "tags", "point"], msg: "this object holds 50000 members; no request needs more than 1000 in one object", type: "too_long" }]);
    // As many as the bound: read as usual (a Feature's properties are not read).
    const feature = await server.post("/v1/snapshot/plain/", { geometry: { type: "Feature", properties: members(1000), geometry: SQUARE } });
    expect(feature.status, feature.text.slice(0, 300)).toBe(200);
  });

  it("a custom where is bounded as every request is, alike on every store: 100 conditions, IN lists of 100 values, keys and values of 255 characters", async () => {
    const withWhere = (...wheres: string[]) => ({ ...CUSTOM, categories: wheres.map((where, index) => ({ [`Roads ${index}`]: { ...ROADS, where } })) });
    const ored = (count: number) => Array.from({ length: count }, () => "k=1").join(" OR ");
    const list = (count: number) => `tags['highway'] IN (${Array.from({ length: count }, (_, index) => String(index % 10)).join(",")})`;
    // 1,400 conditions (9,796 characters) were accepted, then refused by SQLite ("Expression tree is too large").
    const refused = await server.post("/latest/custom/snapshot/", withWhere(ored(1400), list(3300), `tags['${"k".repeat(9900)}'] IS NOT NULL`, `tags['highway'] = '${"v".repeat(256)}'`));
    expect(refused.status, refused.text.slice(0, 300)).toBe(422);
    expect(refused.body.detail.map(({ loc, msg }: { loc: unknown[]; msg: string }) => [loc[3], msg])).toEqual([
      ["Roads 0", "the condition at character 701 is one more than a where may hold: at most 100 conditions"],
      ["Roads 1", "the IN list at character 17 holds more than 100 values; at most 100 are allowed"],
      ["Roads 2", "the tag key at character 6 is 9,900 characters long; tag keys and values have at most 255"],
      ["Roads 3", "the value at character 19 is 256 characters long; tag keys and values have at most 255"],
    ]);
    // At the bounds: exported.
    const accepted = await server.post("/latest/custom/snapshot/", withWhere(ored(100), list(100)));
    expect(accepted.status, accepted.text.slice(0, 300)).toBe(200);
    const status = await waitForTask(server, accepted.body.track_link);
    expect(status.status, JSON.stringify(status.result)).toBe("SUCCESS");
  });

  it("a 422 lists at most 100 problems, and says when there are more", async () => {
    const wrong = await server.post("/v1/snapshot/plain/", { select: Array.from({ length: 100_000 }, () => ({})) });
    expect(wrong.status).toBe(422);
    expect(wrong.body.detail).toHaveLength(101);
    expect(wrong.body.detail.slice(0, 2).map(({ loc }: { loc: unknown[] }) => loc)).toEqual([["body", "select"], ["body", "select", 0]]);
    expect(wrong.body.detail[100]).toEqual({ loc: ["body"], msg: "these are the first 100 problems of the request; it has more: fix these and send it again", type: "too_many_problems" });
    // NULs count too, with the schema's problems.
    const nuls = await server.post("/raw/all", { area: RING, tags: NUL, hashtag: NUL, unknown: Array.from({ length: 500 }, () => NUL) });
    expect(nuls.body.detail).toHaveLength(101);
    expect(nuls.body.detail[100].type).toBe("too_many_problems");
  });

  it("a filter of an unknown geometry is ignored whatever it holds, as every unknown member is", async () => {
    for (const filters of [{ attributes: { x: {} } }, { attributes: { x: 3, point: ["name"] } }, { tags: { x: null } }, { tags: { x: { joinOr: 1 }, point: { amenity: [] } } }]) {
      const plain = await server.post("/v1/snapshot/plain/", { geometry: SQUARE, filters });
      expect(plain.status, `${JSON.stringify(filters)} -> ${plain.text.slice(0, 300)}`).toBe(200);
      expect(plain.body.features.length).toBeGreaterThan(0);
      const queued = await server.post("/latest/snapshot/", { geometry: SQUARE, filters });
      expect(queued.status, `${JSON.stringify(filters)} -> ${queued.text.slice(0, 300)}`).toBe(200);
      expect((await waitForTask(server, queued.body.trackLink)).status).toBe("SUCCESS");
    }
    // A known geometry's filter is still checked.
    const wrong = await server.post("/v1/snapshot/plain/", { geometry: SQUARE, filters: { attributes: { x: {}, point: {} } } });
    expect(wrong.status).toBe(422);
    expect(wrong.body.detail.map(({ loc }: { loc: unknown[] }) => loc)).toEqual([["body", "filters", "attributes", "point"]]);
  });
});
