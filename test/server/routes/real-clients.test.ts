/**
 * The requests real clients of raw-data-api and Underpass send, replayed as they send them (body,
 * path, headers), over real HTTP against the real server, on the demo town and on Monaco:
 * raw-data-api-py 0.3.0, osm-rawdata 0.4.2, geomltoolkits, and the browsers of underpass-ui,
 * fAIr's frontend and the raw-data-export page. What they need of the server: unknown members
 * ignored (every problem still reported), CORS, paths without their trailing slash, and
 * /snapshot/plain/ with a geometry.
 */
import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { EXAMPLE_BBOX, EXAMPLE_POLYGON } from "../../../src/server/api/examples.js";
import type { PlainSnapshotResponse } from "../../../src/server/api/index.js";
import { isCustomOutcome } from "../../../src/server/tasks/export-result.js";
import { startExportServer, type ExportServer } from "./exports.js";
import { tmExtractorRequest } from "./tm-extractor.js";
import { demoStorePath, MONACO_CENTRE, monacoStorePath, startServer, wireValidator, type AnswerBody, type RunningServer } from "./helpers.js";
import { STRING_GIVEN_5, unknownMember } from "../../support/wording.js";

type Polygon = { type: "Polygon"; coordinates: number[][][] };

const square = (minX: number, minY: number, size: number): Polygon => ({
  type: "Polygon",
  coordinates: [[[minX, minY], [minX + size, minY], [minX + size, minY + size], [minX, minY + size], [minX, minY]]],
});
/** The demo town's centre, about 1 km². */
const DEMO_AREA = EXAMPLE_POLYGON as Polygon;
const MONACO_AREA = square(MONACO_CENTRE.minX, MONACO_CENTRE.minY, 0.009);
/** raw-data-api-py's F1: about 1.2 million km². */
const HUGE = square(0, 0, 10);
/** raw-data-api-py's F2: a ring that crosses itself, in the demo town. */
const BOWTIE: Polygon = { type: "Polygon", coordinates: [[[1.196, 22.996], [1.204, 23.004], [1.204, 22.996], [1.196, 23.004], [1.196, 22.996]]] };
const BUILDINGS = { tags: { all_geometry: { building: [] } } };

/**
 * raw-data-api-py 0.3.0's body (models.py RequestParams.to_api_params, then the geometry): it
 * always sends fileName, outputType, bindZip, centroid and useStWithin, with these defaults.
 */
function rawDataApiPy(geometry: Polygon, given: Record<string, unknown> = {}): Record<string, unknown> {
  const { fileName = "osm_export", outputType = "geojson", bindZip = true, centroid = false, useStWithin = true, ...optional } = given;
  return { fileName, outputType, bindZip, centroid, useStWithin, ...optional, geometry };
}

/** POSTs JSON as the Python clients do: `accept` and `Content-Type: application/json`. */
async function postJson(url: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(url, { method: "POST", headers: { accept: "application/json", "content-type": "application/json", ...headers }, body: JSON.stringify(body) });
}

/** A JSON answer's body, read as the clients read it: any shape. */
async function json(response: Response): Promise<AnswerBody> {
  return response.json();
}

/** Polls `url` as the clients do (they follow redirects, as fetch does), until the task ends. */
async function pollUntilDone(url: string): Promise<{ response: Response; body: AnswerBody }> {
  for (let attempt = 0; attempt < 2400; attempt++) {
    const response = await fetch(url);
    expect(response.status, url).toBe(200);
    const body = await json(response);
    if (body.status === "SUCCESS" || body.status === "FAILURE") return { response, body };
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${url} never ended`);
}

/** The 422's details, or a failed expectation with the answer. */
async function problemsOf(response: Response): Promise<Array<{ loc: Array<string | number>; msg: string; type: string }>> {
  const text = await response.text();
  expect(response.status, text).toBe(422);
  return JSON.parse(text).detail;
}

/** Features in one order whatever their tables': by osm_id, then geometry type (a node and a way may share an id). */
const byOsmId = (features: Array<{ properties: { osm_id: number }; geometry: { type: string } }>) =>
  [...features].sort((a, b) => a.properties.osm_id - b.properties.osm_id || a.geometry.type.localeCompare(b.geometry.type));

describe("raw-data-api-py 0.3.0 on the demo town", { timeout: 300_000 }, () => {
  let server: ExportServer;
  const base = () => `${server.url}/v1`;
  beforeAll(async () => {
    server = await startExportServer({ store: await demoStorePath() });
  });

  const flows: Array<[string, Record<string, unknown>]> = [
    ["A1 geojson", { fileName: "nyc_buildings", filters: BUILDINGS }],
    ["A2 shp", { outputType: "shp", filters: BUILDINGS }],
    ["A3 geojson without the zip", { fileName: "nozip", bindZip: false, filters: BUILDINGS }],
    ["A4 kml", { outputType: "kml", filters: BUILDINGS, geometryType: ["polygon"] }],
    ["A5 csv", { outputType: "csv", filters: BUILDINGS }],
  ];
  for (const [name, given] of flows) {
    it(`${name}: the body is accepted, and the task polled at base + track_link ends in SUCCESS with what the client reads`, async () => {
      const accepted = await postJson(`${base()}/snapshot/`, rawDataApiPy(DEMO_AREA, given));
      const queued = await json(accepted);
      expect(accepted.status, JSON.stringify(queued)).toBe(200);
      const { body } = await pollUntilDone(`${base()}${queued.track_link}`);
      expect(body.status, JSON.stringify(body.result)).toBe("SUCCESS");
      expect(body.id).toBe(queued.task_id);
      expect(body.result.download_url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/exports\//);
      expect(body.result.zip_file_size_bytes).toBeGreaterThan(0);
      expect(body.result.response_time).toMatch(/^\d+:\d{2}:\d{2}\.\d{6}$/);
      expect((await fetch(body.result.download_url)).status).toBe(200);
    });
  }

  it("P1: the same body to /snapshot/plain/ answers the features the export writes, with its properties", async () => {
    const body = rawDataApiPy(DEMO_AREA, { filters: BUILDINGS });
    const plain = await postJson(`${base()}/snapshot/plain/`, body);
    const collection = await json(plain);
    expect(plain.status, JSON.stringify(collection).slice(0, 500)).toBe(200);
    expect(wireValidator("PlainSnapshotResponse")(collection)).toBe(true);
    expect(collection.type).toBe("FeatureCollection");
    expect(collection.features.length).toBeGreaterThan(100);
    for (const feature of collection.features) {
      expect(Object.keys(feature.properties)).toEqual(["osm_id", "version", "changeset", "timestamp", "tags"]);
      expect(feature.properties.tags.building).toBeTypeOf("string");
    }
    // The export of the same body, bare: the same features with the same properties.
    const accepted = await json(await postJson(`${base()}/snapshot/`, { ...body, bindZip: false }));
    const { body: status } = await pollUntilDone(`${base()}${accepted.track_link}`);
    const exported = await json(await fetch(status.result.download_url));
    expect(byOsmId(collection.features).map(({ properties, geometry }) => ({ properties, geometry }))).toEqual(
      byOsmId(exported.features).map(({ properties, geometry }) => ({ properties, geometry })),
    );
  });

  it("P1 with attributes, centroid, useStWithin and snake_case members: the columns chosen, points inside the area", async () => {
    const plain = await postJson(`${base()}/snapshot/plain/`, {
      geometry: DEMO_AREA,
      filters: { tags: { all_geometry: { join_or: { building: [] } } }, attributes: { all_geometry: ["name", "building"] } },
      geometry_type: ["polygon"],
      centroid: true,
      use_st_within: true,
      output_type: "geojson",
    });
    const collection = await json(plain);
    expect(plain.status, JSON.stringify(collection).slice(0, 500)).toBe(200);
    expect(collection.features.length).toBeGreaterThan(100);
    const [minX, minY, maxX, maxY] = EXAMPLE_BBOX as [number, number, number, number];
    for (const feature of collection.features) {
      expect(Object.keys(feature.properties)).toEqual(["osm_id", "name", "building"]);
      expect(feature.geometry.type).toBe("Point");
      const [x, y] = feature.geometry.coordinates;
      expect(x > minX && x < maxX && y > minY && y < maxY, `${x} ${y}`).toBe(true);
    }
  });

  it("F1: an area of 1.2 million km² with the client's members and one nobody knows is a 422 about the area", async () => {
    const detail = await problemsOf(await postJson(`${base()}/snapshot/`, { ...rawDataApiPy(HUGE), someNewMember: 1 }));
    expect(detail).toEqual([{ loc: ["body", "geometry"], msg: expect.stringMatching(/^the area is 1,23\d,\d{3} km², above the limit of 100,000 km²/), type: "value_error" }]);
  });

  it("F2: a self-intersecting ring with members nobody knows is a 422 that says where it crosses", async () => {
    const detail = await problemsOf(await postJson(`${base()}/snapshot/`, { ...rawDataApiPy(BOWTIE), someNewMember: 1, another: { nested: true } }));
    expect(detail).toEqual([{ loc: ["body", "geometry", "coordinates", 0], msg: "the outer ring crosses itself near 1.2 23", type: "value_error" }]);
  });

  it("every problem together: a wrong value, a member spelled both ways and an area too large in one 422", async () => {
    const detail = await problemsOf(await postJson(`${base()}/snapshot/`, { ...rawDataApiPy(HUGE, { outputType: "flatgeobuf" }), output_type: "geojson" }));
    expect(detail.map(({ loc, type }) => [loc.join("."), type])).toEqual(
      expect.arrayContaining([
        ["body.output_type", "duplicate_alias"],
        ["body.outputType", "enum"],
        ["body.geometry", "value_error"],
      ]),
    );
    expect(detail).toHaveLength(3);
  });

  it("P1 on an area over 6 km² is a 422 saying the limit; the 1.0.16 body still answers", async () => {
    const detail = await problemsOf(await postJson(`${base()}/snapshot/plain/`, rawDataApiPy(square(1.18, 22.98, 0.03))));
    expect(detail).toEqual([{ loc: ["body", "geometry"], msg: expect.stringMatching(/^the area is 10\.\d+ km², above the limit of 6 km² for \/snapshot\/plain\/; use POST \/latest\/snapshot\//), type: "value_error" }]);
    const old = await postJson(`${base()}/snapshot/plain/`, { bbox: [1.1951, 22.9955, 1.2049, 23.0045], select: ["name"], lookIn: ["ways_poly"], geometryType: "polygon", bindZip: true });
    const collection = await json(old);
    expect(old.status).toBe(200);
    expect(Object.keys(collection.features[0].properties)).toEqual(["osm_id", "name"]);
  });
});

for (const [place, storePath, area] of [
  ["the demo town", demoStorePath, DEMO_AREA],
  ["Monaco", monacoStorePath, MONACO_AREA],
] as const) {
  describe(`TM-Extractor on ${place}`, { timeout: 300_000 }, () => {
    const token = "tm-extractor-token-0123456789";
    let server: ExportServer;
    beforeAll(async () => {
      server = await startExportServer({ store: await storePath(), server: { users: [{ token, osmId: 1, username: "tm-extractor", role: "staff", imgUrl: null }] } });
    });

    it("ProjectProcessor.retry_post_request: POST {base}/custom/snapshot/ with its headers reads task_id; track_tasks_status polls {base}/tasks/status/{id}/ until SUCCESS and keeps result", async () => {
      const base = `${server.url}/v1`;
      const posted = await fetch(`${base}/custom/snapshot/`, { method: "POST", headers: { "Content-Type": "application/json", "Access-Token": token }, body: JSON.stringify(tmExtractorRequest(area, 17232)) });
      const answer = await json(posted);
      expect(posted.status, JSON.stringify(answer)).toBe(200);
      expect(answer.task_id).toMatch(/^[0-9a-f-]{36}$/);
      const { body } = await pollUntilDone(`${base}/tasks/status/${answer.task_id}/`);
      expect(body.status, JSON.stringify(body.result)).toBe("SUCCESS");
      const names = body.result.datasets.map((dataset: object) => Object.keys(dataset)[0]);
      expect(names).toEqual(["Buildings", "Roads", "Waterways", "Landuse"]);
      const zips = body.result.datasets.flatMap((dataset: Record<string, { resources: Array<{ name: string; url: string }> }>) => Object.values(dataset)[0]!.resources);
      // A zip per category, type and format: 3 + 3 + 6 + 6.
      expect(zips).toHaveLength(18);
      expect(zips[0].name).toBe("hotosm_project_17232_buildings_polygons_geojson.zip");
      for (const zip of zips) expect((await fetch(zip.url, { method: "HEAD" })).status, zip.url).toBe(200);
      // Buildings and roads are there to export in both places.
      const result = (await server.queue.get(answer.task_id))!.result!;
      const counts = isCustomOutcome(result) ? result.categories.map((category) => category.resources[0]!.features) : [];
      expect(counts[0]).toBeGreaterThan(0);
      expect(counts[1]).toBeGreaterThan(0);
    });
  });
}

describe("osm-rawdata 0.4.2 and geomltoolkits: paths without their trailing slash", { timeout: 300_000 }, () => {
  let server: ExportServer;
  beforeAll(async () => {
    server = await startExportServer({ store: await demoStorePath() });
  });

  it("osm-rawdata's export: POST {base}/snapshot/, then GET {base}/tasks/status/<id> (no slash) reaches the status through a 307", async () => {
    // PostgresClient.createJson for Field-TM's buildings, with the zipped geojson of flow Z1.
    const join = (keys: string[]) => ({ join_or: Object.fromEntries(keys.map((key) => [key, []])), join_and: Object.fromEntries(keys.map((key) => [key, []])) });
    const body = {
      geometry: DEMO_AREA,
      geometryType: ["polygon"],
      filters: { tags: { point: join([]), line: join([]), polygon: join(["building"]) } },
      centroid: false,
      attributes: ["building", "name"],
      fileName: "osm_export",
      outputType: "geojson",
    };
    const accepted = await postJson(`${server.url}/v1/snapshot/`, body);
    const { task_id } = await json(accepted);
    expect(accepted.status).toBe(200);
    const statusUrl = `${server.url}/v1/tasks/status/${task_id}`;
    const first = await fetch(statusUrl, { redirect: "manual" });
    expect(first.status).toBe(307);
    expect(first.headers.get("location")).toBe(`/v1/tasks/status/${task_id}/`);
    const { response, body: status } = await pollUntilDone(statusUrl);
    expect(response.redirected).toBe(true);
    expect(response.url).toBe(`${statusUrl}/`);
    expect(status.status, JSON.stringify(status.result)).toBe("SUCCESS");
    expect(status.result.download_url).toMatch(/\.zip$/);
  });

  it("geomltoolkits: GET {base}/status reaches {lastUpdated}; the query string goes along", async () => {
    const answer = await fetch(`${server.url}/v1/status`);
    expect(answer.status).toBe(200);
    expect(answer.redirected).toBe(true);
    expect(await json(answer)).toEqual({ lastUpdated: expect.stringMatching(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\+00:00$/) });
    const manual = await fetch(`${server.url}/latest/status?x=1&y=%2F`, { redirect: "manual" });
    expect(manual.status).toBe(307);
    expect(manual.headers.get("location")).toBe("/latest/status/?x=1&y=%2F");
  });

  it("a POST without the slash is sent again with its body (307 keeps both)", async () => {
    const plain = await postJson(`${server.url}/latest/snapshot/plain`, { bbox: [1.1951, 22.9955, 1.2049, 23.0045] });
    expect(plain.status).toBe(200);
    expect(plain.redirected).toBe(true);
    expect((await json(plain)).features.length).toBeGreaterThan(0);
    const manual = await fetch(`${server.url}/v1/snapshot`, { method: "POST", body: "{}", redirect: "manual" });
    expect([manual.status, manual.headers.get("location")]).toEqual([307, "/v1/snapshot/"]);
    // And the other way: a feature query route has no slash.
    const raw = await fetch(`${server.url}/raw/polygons/`, { method: "POST", body: "{}", redirect: "manual" });
    expect([raw.status, raw.headers.get("location")]).toEqual([307, "/raw/polygons"]);
  });

  it("every documented route, with and without its slash: its methods answer (or are sent on with a 307), any other is a 405 with Allow", async () => {
    const document = await json(await fetch(`${server.url}/openapi.json`));
    const methods = ["GET", "POST", "PUT", "DELETE", "PATCH"];
    let checked = 0;
    for (const [template, operations] of Object.entries(document.paths as Record<string, object>)) {
      if (template.startsWith("/exports/")) continue;
      const path = template.replace("{task_id}", randomUUID()).replace("{cid}", "1124039").replace("{queue_name}", "raw_daemon").replace("{z}/{x}/{y}", "15/17059/11948");
      const documented = Object.keys(operations).map((method) => method.toUpperCase());
      const allow = [...documented, ...(documented.includes("GET") ? ["HEAD"] : [])].sort().join(", ");
      const twin = path.endsWith("/") ? path.slice(0, -1) : `${path}/`;
      for (const method of methods) {
        const direct = await fetch(server.url + path, { method, redirect: "manual" });
        const other = await fetch(server.url + twin, { method, redirect: "manual" });
        if (documented.includes(method)) {
          expect(direct.status, `${method} ${path}`).not.toBe(405);
          expect([other.status, other.headers.get("location")], `${method} ${twin}`).toEqual([307, path]);
        } else {
          for (const [answer, where] of [[direct, path], [other, twin]] as const) {
            expect(answer.status, `${method} ${where}`).toBe(405);
            expect(answer.headers.get("allow"), `${method} ${where}`).toBe(allow);
          }
        }
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(100);
  });

  it("a path that is no route, with or without a slash, stays a 404", async () => {
    for (const path of ["/v1/nothing", "/v1/nothing/", "/raw/nothing/", "/latest/statu"]) expect((await fetch(server.url + path, { redirect: "manual" })).status, path).toBe(404);
  });
});

describe("browsers on another origin: CORS, as raw-data-api answers it", { timeout: 120_000 }, () => {
  let server: ExportServer;
  beforeAll(async () => {
    server = await startExportServer({ store: await demoStorePath() });
  });

  const preflight = (url: string, method: string, headers: string | undefined, origin = "http://localhost:5000") =>
    fetch(url, {
      method: "OPTIONS",
      headers: { origin, "access-control-request-method": method, ...(headers !== undefined && { "access-control-request-headers": headers }) },
    });

  it("underpass-ui's preflights (POST with content-type, from http://localhost:5000) succeed, on routes we serve and on those we do not", async () => {
    for (const path of ["/raw/all", "/raw/allList", "/stats/count"]) {
      const answer = await preflight(server.url + path, "POST", "content-type");
      expect(answer.status, path).toBe(204);
      expect(answer.headers.get("access-control-allow-origin")).toBe("*");
      expect(answer.headers.get("access-control-allow-methods")).toContain("POST");
      expect(answer.headers.get("access-control-allow-headers")).toBe("content-type");
    }
  });

  it("the answers themselves carry Access-Control-Allow-Origin, errors included", async () => {
    const origin = { origin: "http://localhost:5000", "content-type": "application/json" };
    const ring = "1.1951 22.9955, 1.2049 22.9955, 1.2049 23.0045, 1.1951 23.0045, 1.1951 22.9955";
    const answers = [
      await fetch(`${server.url}/raw/all`, { method: "POST", headers: origin, body: JSON.stringify({ area: ring, tags: "building", page: 0 }) }),
      await fetch(`${server.url}/raw/all`, { method: "POST", headers: origin, body: JSON.stringify({ area: "nowhere" }) }),
      await fetch(`${server.url}/nothing`, { headers: origin }),
      await fetch(`${server.url}/raw/all`, { headers: origin }),
      await fetch(`${server.url}/v1/status`, { headers: origin, redirect: "manual" }),
      await fetch(`${server.url}/v1/%zz`, { headers: origin }),
    ];
    expect(answers.map((answer) => answer.status)).toEqual([200, 422, 404, 405, 307, 400]);
    for (const answer of answers) expect(answer.headers.get("access-control-allow-origin")).toBe("*");
  });

  it("fAIr's frontend: GET /v1/status/ from its origin reads lastUpdated", async () => {
    const answer = await fetch(`${server.url}/v1/status/`, { headers: { origin: "https://fair.hotosm.org" } });
    expect(answer.headers.get("access-control-allow-origin")).toBe("*");
    const { lastUpdated } = await json(answer);
    expect(Number.isNaN(new Date(String(lastUpdated)).getTime())).toBe(false);
  });

  it("the raw-data-export page's preflight for its access-token header; a preflight that names no headers hears of those the clients send", async () => {
    const withToken = await preflight(`${server.url}/v1/snapshot/`, "POST", "access-token,content-type", "https://hotosm.github.io");
    expect(withToken.status).toBe(204);
    expect(withToken.headers.get("access-control-allow-headers")).toBe("access-token,content-type");
    const bare = await preflight(`${server.url}/v1/status/`, "GET", undefined);
    expect(bare.headers.get("access-control-allow-headers")?.toLowerCase()).toMatch(/access-token.*content-type/);
  });

  it("an OPTIONS that is no preflight is answered as before: a 405 with Allow", async () => {
    const answer = await fetch(`${server.url}/raw/all`, { method: "OPTIONS" });
    expect([answer.status, answer.headers.get("allow")]).toEqual([405, "POST"]);
  });
});

describe("serve --cors <origins> and --cors none", () => {
  it("a list: its origins are named back (Vary: Origin), others get no allow header and their preflights a 403", async () => {
    const server = await startServer(await demoStorePath(), { cors: ["http://localhost:5000", "https://fair.hotosm.org"] });
    const from = (origin: string) => fetch(`${server.url}/latest/status/`, { headers: { origin } });
    const listed = await from("https://fair.hotosm.org");
    expect([listed.headers.get("access-control-allow-origin"), listed.headers.get("vary")]).toEqual(["https://fair.hotosm.org", "Origin"]);
    const other = await from("https://elsewhere.example");
    expect([other.status, other.headers.get("access-control-allow-origin")]).toEqual([200, null]);
    const options = { method: "OPTIONS", headers: { "access-control-request-method": "POST" } };
    expect((await fetch(`${server.url}/raw/all`, { ...options, headers: { ...options.headers, origin: "http://localhost:5000" } })).status).toBe(204);
    const refused = await fetch(`${server.url}/raw/all`, { ...options, headers: { ...options.headers, origin: "https://elsewhere.example" } });
    expect(refused.status).toBe(403);
    expect((await json(refused)).detail).toMatch(/https:\/\/elsewhere\.example .* not allowed/);
  });

  it("none: no CORS header anywhere, and a preflight is an OPTIONS like any other (405)", async () => {
    const server = await startServer(await demoStorePath(), { cors: false });
    const answer = await fetch(`${server.url}/latest/status/`, { headers: { origin: "http://localhost:5000" } });
    expect(answer.headers.get("access-control-allow-origin")).toBeNull();
    const preflight = await fetch(`${server.url}/raw/all`, { method: "OPTIONS", headers: { origin: "http://localhost:5000", "access-control-request-method": "POST" } });
    expect(preflight.status).toBe(405);
  });
});

describe("unknown members: ignored on every route, refused with strictRequests", { timeout: 120_000 }, () => {
  let lenient: RunningServer;
  let strict: ExportServer;
  const ring = "1.1951 22.9955, 1.2049 22.9955, 1.2049 23.0045, 1.1951 23.0045, 1.1951 22.9955";
  /** A body per route, each with a member no version of the real services knows. */
  const BODIES: Array<[string, Record<string, unknown>]> = [
    ["/raw/polygons", { area: ring, tags: "building", unknownMember: 1 }],
    ["/raw/allList", { area: ring, unknownMember: [1] }],
    ["/report/dataQualityGeo", { fromDate: "2020-01-01T00:00:00", unknownMember: "x" }],
    ["/report/dataQualityTags/csv", { fromDate: "2020-01-01T00:00:00", unknownMember: null }],
    ["/latest/snapshot/plain/", { bbox: [1.1951, 22.9955, 1.2049, 23.0045], where: [{ key: "building", value: [], op: "=" }], unknownMember: {} }],
    ["/v1/snapshot/plain/", rawDataApiPy(DEMO_AREA, { uuid: false, unknownMember: true })],
    ["/latest/snapshot/", { geometry: { ...DEMO_AREA, bbox: [1.1951, 22.9955, 1.2049, 23.0045] }, filters: { tags: {}, unknownFilter: {} }, unknownMember: 1 }],
  ];
  beforeAll(async () => {
    lenient = await startServer(await demoStorePath());
    strict = await startExportServer({ store: await demoStorePath(), server: { strictRequests: true } });
  });

  it("ignored: each route answers as if they were absent", async () => {
    const exporting = await startExportServer({ store: await demoStorePath() });
    for (const [route, body] of BODIES) {
      const server = route.endsWith("/snapshot/") ? exporting : lenient;
      const answer = await server.post(route, body);
      expect(answer.status, `${route}: ${answer.text.slice(0, 300)}`).toBe(200);
    }
  });

  it("strict: a 422 naming each unknown member, with every other problem of the request", async () => {
    for (const [route, body] of BODIES) {
      const answer = await strict.post(route, body);
      expect(answer.status, route).toBe(422);
      const unknown = answer.body.detail.filter((entry: { type: string }) => entry.type === "extra_forbidden").map((entry: { loc: string[] }) => entry.loc.at(-1));
      expect(unknown, route).toContain("unknownMember");
    }
    // GeoJSON objects may carry foreign members (RFC 7946), strict or not: a geometry's bbox is no unknown member.
    const geojson = await strict.post("/latest/snapshot/", { geometry: { ...DEMO_AREA, bbox: [1.1951, 22.9955, 1.2049, 23.0045] } });
    expect(geojson.status, geojson.text).toBe(200);
    // F1 and F2 with a member nobody knows: both problems together.
    const huge = await strict.post("/v1/snapshot/", { ...rawDataApiPy(HUGE), someNewMember: 1 });
    expect(huge.body.detail).toEqual(
      expect.arrayContaining([
        { loc: ["body", "someNewMember"], msg: expect.stringMatching(/^unknown member "someNewMember"/), type: "extra_forbidden" },
        { loc: ["body", "geometry"], msg: expect.stringMatching(/^the area is 1,23\d,\d{3} km²/), type: "value_error" },
      ]),
    );
    const bowtie = await strict.post("/v1/snapshot/", { ...rawDataApiPy(BOWTIE), someNewMember: 1 });
    expect(bowtie.body.detail.map((entry: { msg: string }) => entry.msg)).toEqual(expect.arrayContaining([expect.stringMatching(/^unknown member "someNewMember"/), "the outer ring crosses itself near 1.2 23"]));
  });

  it("words a wrong type and an unknown member as every JSON input does", async () => {
    const answer = await strict.post("/report/dataQualityGeo", { fromDate: "2020-01-01T00:00:00", hashtags: [5], someNewMember: 1 });
    expect(answer.status).toBe(422);
    expect(answer.body.detail).toEqual([
      { loc: ["body", "someNewMember"], msg: expect.stringContaining(unknownMember("someNewMember", "the body")), type: "extra_forbidden" },
      { loc: ["body", "hashtags", 0], msg: `item 0 of "hashtags" ${STRING_GIVEN_5}`, type: "type_error" },
    ]);
  });

  it("the OpenAPI document says which: request objects open by default, closed on a strict server", async () => {
    const closed = (document: AnswerBody, name: string) => document.components.schemas[name].additionalProperties;
    const open = await lenient.get("/openapi.json");
    const shut = await strict.get("/openapi.json");
    for (const name of ["RawQuery", "DataQualityRequest", "SnapshotParamsPlain", "RawDataCurrentParams"]) {
      expect(closed(open.body, name), name).toBeUndefined();
      expect(closed(shut.body, name), name).toBe(false);
    }
    expect(closed(shut.body, "PolygonGeometry")).toBeUndefined();
  });
});

describe("/snapshot/plain/ with a geometry on Monaco", () => {
  it("answers the features the export plan chooses; --plain-max-area sets the limit", async () => {
    const server = await startServer(await monacoStorePath(), { plainMaxAreaKm2: 0.5 });
    const body = { geometry: MONACO_AREA, filters: { tags: { point: { amenity: [] }, polygon: { building: [] } } }, geometryType: ["point", "polygon"] };
    const tooLarge = await server.post("/latest/snapshot/plain/", body);
    expect(tooLarge.status).toBe(422);
    expect(tooLarge.body.detail[0].msg).toMatch(/above the limit of 0\.5 km²/);
    const small = { ...body, geometry: square(MONACO_CENTRE.minX, MONACO_CENTRE.minY, 0.004) };
    const answer = await server.post("/latest/snapshot/plain/", small);
    expect(answer.status, answer.text.slice(0, 300)).toBe(200);
    const kinds = new Set(answer.body.features.map((feature: PlainSnapshotResponse["features"][number]) => feature.geometry.type));
    expect(kinds.has("Point") && kinds.has("Polygon")).toBe(true);
    for (const kind of kinds) expect(["Point", "Polygon", "MultiPolygon"]).toContain(kind);
    for (const feature of answer.body.features) {
      const { tags } = feature.properties;
      expect(feature.geometry.type === "Point" ? tags.amenity : tags.building, JSON.stringify(feature.properties)).toBeTypeOf("string");
      expect(feature.id).toBe(feature.properties.osm_id);
    }
  });
});
