import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { MAX_BODY_DEPTH } from "../../../src/server/api/limits.js";
import { startExportServer } from "./exports.js";
import { monacoStorePath, startServer, type RunningServer } from "./helpers.js";

const KINDS = ["polygons", "lines", "nodes"];
const ROUTES = [
  "/latest/snapshot/plain/",
  "/v1/snapshot/plain/",
  ...[...KINDS, "all"].flatMap((kind) => [`/raw/${kind}`, `/raw/${kind}List`]),
  // Underpass 2024, and the counts of both generations.
  ...["/raw", "/raw-validation"].flatMap((prefix) => [`${prefix}/features`, `${prefix}/list`, ...KINDS.map((kind) => `${prefix}/${kind}/list`)]),
  ...KINDS.map((kind) => `/raw-validation/${kind}`),
  ...["/raw-validation/stats", "/stats"].flatMap((prefix) => KINDS.map((kind) => `${prefix}/${kind}`)),
  "/raw-validation/stats",
  "/stats/features",
  "/stats/count",
  "/layers/count/",
];

/** Members the routes know, with values that are sometimes right and mostly wrong. */
const MEMBERS = [
  "bbox", "select", "where", "joinBy", "join_by", "lookIn", "look_in", "geometryType", "area", "tags", "page", "pageSize", "orderBy", "__proto__", "constructor",
  // The Underpass filters, and what the 2024 routes add.
  "hashtag", "dateFrom", "dateTo", "status", "featureType",
  // The body of /snapshot/plain/ with a geometry, as raw-data-api-py sends it.
  "geometry", "geometry", "filters", "centroid", "useStWithin", "use_st_within", "outputType", "fileName", "bindZip",
];
const number = fc.oneof(fc.double({ noNaN: false }), fc.integer({ min: -200, max: 200 }), fc.constantFrom(7.42, 43.73, 1e308, -0));
const ringText = fc.array(fc.tuple(number, number), { maxLength: 8 }).map((pairs) => pairs.map(([x, y]) => `${x} ${y}`).join(", "));
/** Rings near Monaco, closed or not, crossing themselves or not. */
const polygon = fc.record({
  type: fc.constantFrom("Polygon", "MultiPolygon", "Feature", "Point"),
  coordinates: fc.array(fc.array(fc.tuple(fc.constantFrom(7.42, 7.43, 7.425), fc.constantFrom(43.73, 43.74, 43.735)), { maxLength: 6 }), { maxLength: 2 }),
});
const value = fc.oneof(
  polygon,
  fc.jsonValue({ maxDepth: 3 }),
  fc.array(number, { minLength: 3, maxLength: 5 }),
  ringText,
  fc.string({ unit: "binary", maxLength: 40 }),
  fc.constantFrom("OR", "AND", "point", "polygon", "nodes", "ways_poly", "*", "building", "building=yes,amenity", "id", "timestamp"),
  fc.constantFrom("", " ", "badgeom", "overlapping", "created_at", "closedAt", "line", "hotosm-project-123", "2025-01-10", "2025-01-10T10:15:00Z", "7.42 43.73,7.43 43.73,7.43 43.74,7.42 43.73"),
  fc.array(fc.record({ key: fc.oneof(fc.string(), fc.constant("building")), value: fc.array(fc.string(), { maxLength: 3 }) }), { maxLength: 3 }),
);
const body = fc.oneof(
  fc.dictionary(fc.constantFrom(...MEMBERS), value, { maxKeys: 5 }),
  fc.jsonValue({ maxDepth: 4 }),
);
const rawText = fc.oneof(fc.string({ unit: "binary", maxLength: 200 }), fc.constantFrom("{", "[", '{"area":', "null", '"x"', '{"__proto__":{"polluted":1}}'));

describe("fuzzing every route with random bodies", { timeout: 600_000 }, () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer(await monacoStorePath());
  });

  it("never answers 500 and never crashes: every answer is 200 or a 422/413 with a detail", async () => {
    const seen = new Map<number, number>();
    const check = async (route: string, payload: unknown) => {
      const answer = await server.post(route, payload);
      seen.set(answer.status, (seen.get(answer.status) ?? 0) + 1);
      expect([200, 413, 422], `${route} ${JSON.stringify(payload)?.slice(0, 300)} -> ${answer.status} ${answer.text.slice(0, 300)}`).toContain(answer.status);
      if (answer.status !== 200) expect(answer.body.detail).toBeDefined();
    };
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...ROUTES), body, async (route, payload) => check(route, payload)),
      { numRuns: 1600, seed: 20261121 },
    );
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...ROUTES), rawText, async (route, text) => check(route, text)),
      { numRuns: 400, seed: 20261122 },
    );
    // The server is still up and answering correctly afterwards; nothing was polluted.
    expect((await server.get("/latest/status/")).status).toBe(200);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(seen.get(422)).toBeGreaterThan(100);
    expect(seen.get(200)).toBeGreaterThan(10);
  });
});

/** Custom exports: the members upstream's DynamicCategoriesModel knows, categories half right, and `where`s from SQL's pieces. */
const whereText = fc.oneof(
  fc.string({ maxLength: 60 }),
  fc
    .array(fc.constantFrom("tags['building']", "tags['a''b']", "highway", '"addr:city"', "tags->>'shop'", "IS", "NOT", "NULL", "IN", "(", ")", "'x'", "'", ",", "=", "!=", "AND", "OR", "LIKE", "2", "-1.5", "[", "]", "tags"), { maxLength: 12 })
    .map((tokens) => tokens.join(" ")),
);
const category = fc.record(
  {
    types: fc.oneof(fc.subarray(["points", "lines", "polygons"]), fc.jsonValue({ maxDepth: 1 })),
    select: fc.oneof(fc.array(fc.constantFrom("name", "building", "osm_id", "osm_type", "__proto__", ""), { maxLength: 4 }), fc.jsonValue({ maxDepth: 1 })),
    where: fc.oneof(whereText, fc.jsonValue({ maxDepth: 1 })),
    formats: fc.oneof(fc.subarray(["geojson", "shp", "kml", "gpkg", "mvt"]), fc.jsonValue({ maxDepth: 1 })),
  },
  { requiredKeys: [] },
);
const customBody = fc.dictionary(
  fc.constantFrom("iso3", "geometry", "categories", "dataset", "queue", "hdx_upload", "meta", "__proto__"),
  fc.oneof(
    polygon,
    fc.constantFrom("MCO", "mco", "FRA", "", "raw_daemon", "raw_ondemand", "elsewhere", true, null),
    fc.record({ dataset_prefix: fc.oneof(fc.string({ maxLength: 20 }), fc.constant("hotosm_project_1")) }, { requiredKeys: [] }),
    fc.array(fc.dictionary(fc.constantFrom("Roads", "", "__proto__", "../x"), category, { maxKeys: 2 }), { maxLength: 3 }),
    fc.jsonValue({ maxDepth: 3 }),
  ),
  { maxKeys: 5 },
);

describe("fuzzing the export routes: snapshots, statistics, custom exports in JSON and YAML", { timeout: 600_000 }, () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startExportServer({ concurrency: 1 });
  });

  it("never answers 500: every answer is 200 or a 422 with a detail", async () => {
    const seen = new Map<number, number>();
    const check = async (route: string, payload: unknown) => {
      const answer = await server.post(route, payload);
      seen.set(answer.status, (seen.get(answer.status) ?? 0) + 1);
      expect([200, 422], `${route} ${JSON.stringify(payload)?.slice(0, 300)} -> ${answer.status} ${answer.text.slice(0, 300)}`).toContain(answer.status);
      if (answer.status !== 200) expect(answer.body.detail).toBeDefined();
    };
    const routes = fc.constantFrom("/latest/custom/snapshot/", "/v1/custom/snapshot/yaml/");
    await fc.assert(
      fc.asyncProperty(routes, customBody, async (route, payload) => check(route, payload)),
      { numRuns: 800, seed: 20261127 },
    );
    const exportBody = fc.oneof(body, fc.dictionary(fc.constantFrom("geometry", "iso3", "filters", "outputType", "bindZip", "uuid", "includeStats", "geometryType"), value, { maxKeys: 5 }));
    await fc.assert(
      fc.asyncProperty(fc.constantFrom("/latest/snapshot/", "/v1/stats/polygon/"), exportBody, async (route, payload) => check(route, payload)),
      { numRuns: 600, seed: 20261129 },
    );
    const yamlText = fc.oneof(fc.string({ maxLength: 200 }), fc.constantFrom("a: &x [*x]", "- &a [*a, *a]\n- *a", "categories: !!binary AAAA", "? [a]\n: b", "'", "{", "categories:\n  - Roads:\n      types: [lines]"));
    await fc.assert(
      fc.asyncProperty(yamlText, async (text) => check("/latest/custom/snapshot/yaml/", text)),
      { numRuns: 300, seed: 20261128 },
    );
    expect((await server.get("/latest/status/")).status).toBe(200);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(seen.get(422)).toBeGreaterThan(100);
  });
});

describe("bodies nested deeper than any request needs", { timeout: 600_000 }, () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startExportServer();
  });

  const DEEP_ROUTES = ["/latest/snapshot/plain/", "/v1/snapshot/plain/", "/latest/snapshot/", "/latest/custom/snapshot/", "/raw/all", "/raw/polygonsList", "/raw-validation/list", "/stats/count", "/report/dataQualityGeo", "/report/dataQualityTags/csv"];
  const SQUARE = '{"type":"Polygon","coordinates":[[[7.42,43.73],[7.43,43.73],[7.43,43.74],[7.42,43.73]]]}';
  /** Where a deep value (@) goes: the whole body, and each member of each route, nested or not. */
  const PLACES = [
    "@",
    '{"select":@}', '{"select":[@,@]}', '{"where":@}', '{"where":[{"key":"a","value":@}]}', '{"where":[{"key":@,"value":[]}]}', '{"lookIn":[@,@]}', '{"bbox":[@,1,2,3]}', '{"joinBy":@}',
    '{"geometry":@}', '{"geometry":{"type":"Polygon","coordinates":@}}', '{"geometry":{"type":"MultiPolygon","coordinates":@}}', '{"geometry":{"type":"Polygon","coordinates":[[[7.42,43.73],[7.43,43.73],@,[7.42,43.73]]]}}',
    `{"geometry":${SQUARE},"filters":@}`, `{"geometry":${SQUARE},"filters":{"tags":{"point":@}}}`, `{"geometry":${SQUARE},"filters":{"tags":{"point":{"a":@}}}}`,
    `{"geometry":${SQUARE},"filters":{"attributes":{"point":[@,@]}}}`, `{"geometry":${SQUARE},"geometryType":[@,@]}`,
    '{"area":@}', '{"tags":@}', '{"page":@}', '{"fromDate":"2020-01-01T00:00:00","hashtags":[@,@]}', '{"fromDate":@}',
  ];
  // As text: JSON.stringify itself cannot write such values.
  const deepArray = (levels: number) => `${"[".repeat(levels)}1${"]".repeat(levels)}`;
  // Empty member names: two of these, 100,000 levels deep, still fit in the body limit.
  const deepObject = (levels: number) => `${'{"":'.repeat(levels)}1${"}".repeat(levels)}`;

  it("are a 422 at the first level too deep, on every route, for every member: never a 500, never a crash", async () => {
    for (const levels of [MAX_BODY_DEPTH + 1, 5_000, 100_000]) {
      for (const deep of [deepArray(levels), deepObject(levels)]) {
        for (const place of PLACES) {
          for (const route of DEEP_ROUTES) {
            const answer = await server.post(route, place.replaceAll("@", deep));
            const what = `${route} ${place} at ${levels} levels -> ${answer.status} ${answer.text.slice(0, 300)}`;
            expect(answer.status, what).toBe(422);
            expect(answer.body.detail[0].type, what).toBe("too_deep");
            expect(answer.body.detail[0].loc, what).toHaveLength(MAX_BODY_DEPTH + 1);
          }
        }
      }
    }
    expect((await server.get("/latest/status/")).status).toBe(200);
  });

  it("a YAML body too deep is a 422 too: at the first level too deep, or, past what the YAML reader can nest, the body", async () => {
    for (const levels of [MAX_BODY_DEPTH + 1, 5_000, 100_000]) {
      for (const deep of [deepArray(levels), deepObject(levels).replaceAll('"":', "a: ")]) {
        const answer = await server.post("/latest/custom/snapshot/yaml/", `categories: ${deep}`);
        const what = `${levels} levels -> ${answer.status} ${answer.text.slice(0, 300)}`;
        expect(answer.status, what).toBe(422);
        expect(answer.body.detail[0].type, what).toBe("too_deep");
      }
    }
    expect((await server.get("/latest/status/")).status).toBe(200);
  });

  it("a body as deep as the bound is read as usual", async () => {
    const answer = await server.post("/latest/snapshot/plain/", `{"select":${"[".repeat(MAX_BODY_DEPTH - 1)}"a"${"]".repeat(MAX_BODY_DEPTH - 1)}}`);
    expect(answer.body.detail[0]).toMatchObject({ loc: ["body", "select", 0], type: "type_error" });
  });
});
