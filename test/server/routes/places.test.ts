/**
 * raw-data-api's lookups over real HTTP on Monaco: GET /countries/ (and /countries/{cid}/), GET
 * /osm_id/ and POST /stats/polygon/, with a 422 or 404 for each bad input.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { MONACO_CENTRE, monacoStorePath, ringOf, startServer, wireValidator, type RunningServer } from "./helpers.js";

const MONACO = 1_124_039;
const CENTRE = {
  type: "Polygon",
  coordinates: [[[MONACO_CENTRE.minX, MONACO_CENTRE.minY], [MONACO_CENTRE.maxX, MONACO_CENTRE.minY], [MONACO_CENTRE.maxX, MONACO_CENTRE.maxY], [MONACO_CENTRE.minX, MONACO_CENTRE.maxY], [MONACO_CENTRE.minX, MONACO_CENTRE.minY]]],
};
const BOWTIE = { type: "Polygon", coordinates: [[[7.42, 43.73], [7.43, 43.74], [7.43, 43.73], [7.42, 43.74], [7.42, 43.73]]] };

describe("GET /countries/, /osm_id/ and POST /stats/polygon/ on Monaco", () => {
  let server: RunningServer;
  const validCountries = wireValidator("CountryCollection");
  const validFeatures = wireValidator("OsmFeatureCollection");
  const validStats = wireValidator("AreaStats");
  beforeAll(async () => {
    server = await startServer(await monacoStorePath());
  });

  it("/countries/ lists the store's admin_level 2 boundaries that are areas, by part of their name in any case", async () => {
    for (const prefix of ["/latest", "/v1"]) {
      const { status, body } = await server.get(`${prefix}/countries/?q=MON`);
      expect(status).toBe(200);
      expect(validCountries(body)).toBe(true);
      expect(body.features.map((feature: { id: number; properties: unknown }) => [feature.id, feature.properties])).toEqual([[MONACO, { cid: MONACO, name: "Monaco", iso3: "mco" }]]);
      expect(body.features[0].geometry.type).toBe("Polygon");
    }
    // France–Monaco's border is an admin_level 2 boundary too, but a line: no country.
    expect((await server.get("/v1/countries/")).body.features).toHaveLength(1);
    expect((await server.get("/v1/countries/?q=atlantis")).body).toEqual({ type: "FeatureCollection", features: [] });
  });

  it("/countries/{cid}/ is that country, a 404 for an id that is none, a 422 for one that is no id", async () => {
    const one = await server.get(`/v1/countries/${MONACO}/`);
    expect(one.status).toBe(200);
    expect(one.body.features.map((feature: { id: number }) => feature.id)).toEqual([MONACO]);
    const none = await server.get("/v1/countries/2220206/");
    expect(none.status).toBe(404);
    expect(none.body).toEqual({ detail: "no country with cid 2220206; GET /countries/ lists them" });
    for (const bad of ["abc", "-5", "0", "1234567890123456"]) {
      const answer = await server.get(`/v1/countries/${bad}/`);
      expect(answer.status, bad).toBe(422);
      expect(answer.body.detail[0].loc).toEqual(["path", "cid"]);
    }
  });

  it("/osm_id/ answers every feature of the id with its table, tags, changeset and time (no zone, as upstream)", async () => {
    const { status, body } = await server.get("/v1/osm_id/?osm_id=25722685");
    expect(status).toBe(200);
    expect(validFeatures(body)).toBe(true);
    expect(body.features).toHaveLength(1);
    expect(body.features[0].properties).toMatchObject({ osm_id: 25_722_685, osm_type: "ways_poly", tags: { building: "public", name: "Ministère d'État" } });
    expect(body.features[0].properties.timestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$/);
    expect((await server.get("/latest/osm_id/?osm_id=1")).body).toEqual({ type: "FeatureCollection", features: [] });
    for (const query of ["", "?osm_id=", "?osm_id=abc", "?osm_id=-1", "?osm_id=1.5", "?osm_id=9999999999999999"]) {
      const answer = await server.get(`/v1/osm_id/${query}`);
      expect(answer.status, query).toBe(422);
      expect(answer.body.detail[0].loc).toEqual(["query", "osm_id"]);
    }
  });

  it("/stats/polygon/ counts the buildings and roads of a geometry, or of a country by its iso3 code, as /raw counts them", async () => {
    const centre = await server.post("/v1/stats/polygon/", { geometry: CENTRE });
    expect(centre.status).toBe(200);
    expect(validStats(centre.body)).toBe(true);
    const buildings = await server.post("/raw/polygons", { area: ringOf(MONACO_CENTRE), tags: "building", pageSize: 5000 });
    expect(centre.body.raw.osmBuildingsCount).toBe(buildings.body.features.length);
    expect(centre.body.raw.osmHighwayLengthKm).toBeGreaterThan(10);
    expect(centre.body.summary.buildings).toContain(`OpenStreetMap contains ${buildings.body.features.length.toLocaleString("en-US")} buildings`);
    // No population or AI-mapped estimates in this server's data: null, never a made-up figure.
    expect(centre.body.raw).toMatchObject({ population: null, aiBuildingsCountEstimation: null });

    const byCode = await server.post("/latest/stats/polygon/", { iso3: "MCO" });
    const country = (await server.get(`/v1/countries/${MONACO}/`)).body.features[0];
    const byGeometry = await server.post("/latest/stats/polygon/", { geometry: country.geometry });
    expect(byCode.status).toBe(200);
    expect(byCode.body).toEqual(byGeometry.body);
    expect(byCode.body.raw.osmBuildingsCount).toBeGreaterThan(centre.body.raw.osmBuildingsCount);
  });

  const bad: Array<[string, unknown, string, RegExp]> = [
    ["neither geometry nor iso3", {}, "body", /give the area as "geometry"/],
    ["an iso3 of no country here", { iso3: "fra" }, "body.iso3", /no country of this server's data has the ISO 3166-1 alpha-3 code "fra"/],
    ["an iso3 that is no code", { iso3: "fr" }, "body.iso3", /must be a string matching/],
    ["a ring that crosses itself", { geometry: BOWTIE }, "body.geometry.coordinates.0", /crosses itself/],
    ["an area over the limit", { geometry: { type: "Polygon", coordinates: [[[-10, 30], [30, 30], [30, 60], [-10, 60], [-10, 30]]] } }, "body.geometry", /above the limit of 100,000 km²/],
    ["a geometry of the wrong type", { geometry: "Monaco" }, "body.geometry", /./],
  ];
  for (const [name, body, loc, msg] of bad) {
    it(`/stats/polygon/: 422 for ${name}`, async () => {
      const answer = await server.post("/v1/stats/polygon/", body);
      expect(answer.status).toBe(422);
      const detail = answer.body.detail.find((entry: { loc: unknown[] }) => entry.loc.join(".") === loc);
      expect(detail, JSON.stringify(answer.body)).toBeDefined();
      expect(detail.msg).toMatch(msg);
    });
  }
});
