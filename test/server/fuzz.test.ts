import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { monacoStorePath, startServer, type RunningServer } from "./helpers.js";

const ROUTES = ["/latest/snapshot/plain/", "/v1/snapshot/plain/", ...["polygons", "lines", "nodes", "all"].flatMap((kind) => [`/raw/${kind}`, `/raw/${kind}List`])];

/** Members the routes know, with values that are sometimes right and mostly wrong. */
const MEMBERS = ["bbox", "select", "where", "joinBy", "join_by", "lookIn", "look_in", "geometryType", "area", "tags", "page", "pageSize", "orderBy", "__proto__", "constructor"];
const number = fc.oneof(fc.double({ noNaN: false }), fc.integer({ min: -200, max: 200 }), fc.constantFrom(7.42, 43.73, 1e308, -0));
const ringText = fc.array(fc.tuple(number, number), { maxLength: 8 }).map((pairs) => pairs.map(([x, y]) => `${x} ${y}`).join(", "));
const value = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }),
  fc.array(number, { minLength: 3, maxLength: 5 }),
  ringText,
  fc.string({ unit: "binary", maxLength: 40 }),
  fc.constantFrom("OR", "AND", "point", "polygon", "nodes", "ways_poly", "*", "building", "building=yes,amenity", "id", "timestamp"),
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
