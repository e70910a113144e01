/**
 * POST /custom/snapshot/ as HOT's Tasking Manager extractor sends it (its config.json, its
 * headers, its polling of /tasks/status/{id}/), over real HTTP on Monaco: the zips it lists are
 * downloaded and read by Python's zipfile and GDAL; their features are checked against the
 * plain /snapshot/ export of the same area and filter.
 */
import { beforeAll, describe, expect, it } from "vitest";
import type { CustomExportResult, CustomResource, HTTPValidationError, SnapshotAccepted } from "../../../src/server/api/index.js";
import { gdalLayers } from "../export/helpers.js";
import { hasGdal } from "../query/gdal-oracle.js";
import { tmExtractorRequest } from "./tm-extractor.js";
import { customResultOf, downloadZip, finishedExport, pythonZip, startExportServer, waitForTask, type ExportServer } from "./exports.js";

const SMALL = { type: "Polygon", coordinates: [[[7.4265, 43.7395], [7.428, 43.7395], [7.428, 43.741], [7.4265, 43.741], [7.4265, 43.7395]]] };

/** TM-Extractor's request for a project whose mapping types are buildings and roads. */
const TM_REQUEST = tmExtractorRequest(SMALL, 1, ["Buildings", "Roads"]);

const STAFF = "staff-token-0123456789";
const USERS = [
  { token: "admin-token-0123456789", osmId: 1, username: "ada", role: "admin" as const, imgUrl: null },
  { token: STAFF, osmId: 2, username: "amina", role: "staff" as const, imgUrl: null },
  { token: "guest-token-0123456789", osmId: 3, username: "bo", role: "guest" as const, imgUrl: null },
];

/** POSTs as TM-Extractor does (a JSON string with its headers), polls as it does; returns the result. */
async function customExport(server: ExportServer, body: unknown, path = "/v1/custom/snapshot/", headers: Record<string, string> = {}): Promise<CustomExportResult> {
  const accepted = await fetch(`${server.url}${path}`, { method: "POST", headers: { "Content-Type": "application/json", "Access-Token": STAFF, ...headers }, body: typeof body === "string" ? body : JSON.stringify(body) });
  const answer = (await accepted.json()) as SnapshotAccepted;
  expect(accepted.status, JSON.stringify(answer)).toBe(200);
  expect(answer.track_link).toBe(`/tasks/status/${answer.task_id}/`);
  const status = await waitForTask(server, answer.track_link);
  expect(status.status, JSON.stringify(status.result)).toBe("SUCCESS");
  return customResultOf(status);
}

/** A 422's body. */
type Problems = { detail: Array<{ loc: unknown[]; msg: string; type: string }> };

/** YAML that is not JSON, which the YAML reader took 6 to 15 s to read: a flow mapping of 20,000 keys (189 KB). */
const HOSTILE_YAML = `{${Array.from({ length: 20_000 }, (_, index) => `k${index}: ${index}`).join(", ")}}`;

const resourcesOf = (result: CustomExportResult, category: string): CustomResource[] => result.datasets.find((dataset) => category in dataset)![category]!.resources;

/** The GeoJSON of a zip: its features' properties, as Python reads the file. */
function geojsonProperties(zip: string, file: string): Array<Record<string, unknown>> {
  return JSON.parse(pythonZip(zip, `import json\nprint(json.dumps([f["properties"] for f in json.load(z.open(${JSON.stringify(file)}))["features"]]))`));
}

describe("POST /custom/snapshot/ (TM-Extractor's flow)", () => {
  let server: ExportServer;
  beforeAll(async () => {
    server = await startExportServer({ server: { users: USERS } });
  });

  it("queues TM-Extractor's request, and its result lists a zip per category, type and format, each downloadable", async () => {
    const result = await customExport(server, JSON.stringify(TM_REQUEST));
    expect(Object.keys(result).sort()).toEqual(["datasets", "elapsed_time", "started_at"]);
    expect(result.datasets.map((dataset: object) => Object.keys(dataset))).toEqual([["Buildings"], ["Roads"]]);
    expect(result.elapsed_time).toMatch(/^(a moment|a second|\d+ seconds|a minute|\d+ minutes)$/);
    expect(result.started_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}$/);
    const buildings = resourcesOf(result, "Buildings");
    expect(buildings.map(({ name, format, description }) => ({ name, format, description }))).toEqual([
      { name: "hotosm_project_1_buildings_polygons_geojson.zip", format: "geojson", description: "GeoJSON" },
      { name: "hotosm_project_1_buildings_polygons_shp.zip", format: "shp", description: "ESRI Shapefile" },
      { name: "hotosm_project_1_buildings_polygons_kml.zip", format: "kml", description: "KML" },
    ]);
    expect(resourcesOf(result, "Roads").map(({ name }) => name)).toEqual([
      "hotosm_project_1_roads_lines_geojson.zip",
      "hotosm_project_1_roads_lines_shp.zip",
      "hotosm_project_1_roads_lines_kml.zip",
    ]);
    for (const resource of [...buildings, ...resourcesOf(result, "Roads")]) {
      expect(resource.url).toMatch(new RegExp(`^${server.url}/exports/[0-9a-f-]{36}/${resource.name}$`));
      const zip = await downloadZip(resource.url);
      const names = pythonZip(zip, "print('\\n'.join(sorted(z.namelist())))").trim().split("\n");
      const base = resource.name.replace(/\.zip$/, "");
      const files = resource.format === "shp" ? ["cpg", "dbf", "prj", "shp", "shx"].map((extension) => `${base}.${extension}`) : [`${base}.${resource.format}`];
      expect(names).toEqual(["Readme.txt", "clipping_boundary.geojson", ...files].sort());
      expect(Number((await fetch(resource.url, { method: "HEAD" })).headers.get("content-length"))).toBe(resource.size);
      expect(JSON.parse(pythonZip(zip, "print(z.read('clipping_boundary.geojson').decode())"))).toEqual(TM_REQUEST.geometry);
    }
  });

  it("writes the category's columns (select, then osm_id and osm_type) for the features its where chooses: those /snapshot/ exports for the same filter", async () => {
    const result = await customExport(server, TM_REQUEST);
    const [geojson] = resourcesOf(result, "Buildings");
    const properties = geojsonProperties(await downloadZip(geojson!.url), "hotosm_project_1_buildings_polygons_geojson.geojson");
    expect(properties.length).toBeGreaterThan(5);
    for (const feature of properties) {
      expect(Object.keys(feature)).toEqual([...TM_REQUEST.categories[0]!.Buildings!.select, "osm_id", "osm_type"]);
      expect(feature.building).not.toBeNull();
      expect(["ways_poly", "relations"]).toContain(feature.osm_type);
    }
    const plain = await finishedExport(server, { geometry: SMALL, geometryType: ["polygon"], useStWithin: false, filters: { tags: { polygon: { building: [] } }, attributes: { polygon: ["building"] } } });
    const snapshot = (await server.queue.get(plain.id))!.result as { features: number };
    expect(properties.length).toBe(snapshot.features);
  });

  it("reads a where of several forms as SQL would: OR of IN lists and IS NOT NULL, AND bound tighter", async () => {
    const where = "tags['amenity'] IN ('restaurant', 'cafe') OR tags['shop'] IS NOT NULL AND tags['name'] IS NOT NULL";
    const result = await customExport(server, { ...TM_REQUEST, categories: [{ "Food and Shops": { types: ["points"], select: ["amenity", "shop", "name"], where, formats: ["geojson"] } }] });
    const [resource] = resourcesOf(result, "Food and Shops");
    expect(resource!.name).toBe("hotosm_project_1_food_and_shops_points_geojson.zip");
    const properties = geojsonProperties(await downloadZip(resource!.url), "hotosm_project_1_food_and_shops_points_geojson.geojson");
    expect(properties.length).toBeGreaterThan(0);
    for (const feature of properties) {
      const chosen = ["restaurant", "cafe"].includes(feature.amenity as string) || (feature.shop !== null && feature.name !== null);
      expect(chosen, JSON.stringify(feature)).toBe(true);
      expect(feature.osm_type).toBe("nodes");
    }
    // Both branches of the OR contribute.
    expect(properties.some((feature) => feature.shop !== null)).toBe(true);
    expect(properties.some((feature) => feature.amenity === "restaurant" || feature.amenity === "cafe")).toBe(true);
  });

  it.runIf(hasGdal)("writes files GDAL opens: a shapefile and a KML of the buildings, as many as the GeoJSON", async () => {
    const result = await customExport(server, TM_REQUEST);
    const [geojson, shp, kml] = resourcesOf(result, "Buildings");
    const count = geojsonProperties(await downloadZip(geojson!.url), "hotosm_project_1_buildings_polygons_geojson.geojson").length;
    expect(await gdalLayers(`/vsizip/${await downloadZip(shp!.url)}/hotosm_project_1_buildings_polygons_shp.shp`)).toEqual([
      { name: "hotosm_project_1_buildings_polygons_shp", geometry: expect.stringMatching(/Polygon/), count },
    ]);
    const [layer] = await gdalLayers(`/vsizip/${await downloadZip(kml!.url)}/hotosm_project_1_buildings_polygons_kml.kml`);
    expect(layer!.count).toBe(count);
  });

  it("exports a country by iso3 (any case): its area, files named hotosm_<iso3>, no clipping boundary", async () => {
    const result = await customExport(server, { iso3: "MCO", categories: [{ Hospitals: { types: ["points", "polygons"], select: ["name"], where: "tags['amenity'] = 'hospital'", formats: ["geojson"] } }] });
    const resources = resourcesOf(result, "Hospitals");
    expect(resources.map(({ name }) => name)).toEqual(["hotosm_mco_hospitals_points_geojson.zip", "hotosm_mco_hospitals_polygons_geojson.zip"]);
    const zip = await downloadZip(resources[1]!.url);
    expect(pythonZip(zip, "print(sorted(z.namelist()))").trim()).toBe("['Readme.txt', 'hotosm_mco_hospitals_polygons_geojson.geojson']");
    expect(geojsonProperties(zip, "hotosm_mco_hospitals_polygons_geojson.geojson").length).toBeGreaterThan(0);
  });

  it("takes the same request written in YAML at /custom/snapshot/yaml/", async () => {
    const yaml = [
      "geometry:",
      "  type: Polygon",
      `  coordinates: ${JSON.stringify(SMALL.coordinates)}`,
      "dataset:",
      "  dataset_prefix: hotosm_yaml",
      "categories:",
      "  - Buildings:",
      "      types: [polygons]",
      "      select: [name, building]",
      "      where: tags['building'] IS NOT NULL",
      "      formats: [geojson]",
      "",
    ].join("\n");
    const result = await customExport(server, yaml, "/latest/custom/snapshot/yaml/", { "Content-Type": "application/x-yaml" });
    expect(resourcesOf(result, "Buildings").map(({ name }) => name)).toEqual(["hotosm_yaml_buildings_polygons_geojson.zip"]);
    const bad = await fetch(`${server.url}/v1/custom/snapshot/yaml/`, { method: "POST", headers: { "Content-Type": "application/x-yaml", "Access-Token": STAFF }, body: "categories: [a: b: c" });
    expect(bad.status).toBe(422);
    expect(((await bad.json()) as HTTPValidationError).detail[0]).toMatchObject({ loc: ["body"], type: "yaml_invalid", msg: expect.stringMatching(/^the body is not valid YAML: /) });
  });

  it("keeps the route to staff and admins, as upstream: 422 without a token, 403 for nobody's token or a guest's", async () => {
    const post = (headers: Record<string, string>) => fetch(`${server.url}/v1/custom/snapshot/`, { method: "POST", headers: { "Content-Type": "application/json", ...headers }, body: JSON.stringify(TM_REQUEST) });
    const missing = await post({});
    expect(missing.status).toBe(422);
    expect(((await missing.json()) as HTTPValidationError).detail[0]!.loc).toEqual(["header", "access-token"]);
    const nobody = await post({ "Access-Token": "nobody" });
    expect(nobody.status).toBe(403);
    expect(await nobody.json()).toEqual({ detail: [{ msg: "OSM Authentication failed" }] });
    const guest = await post({ "Access-Token": USERS[2]!.token });
    expect(guest.status).toBe(403);
    expect(await guest.json()).toEqual({ detail: [{ msg: "User is not a staff" }] });
    for (const user of USERS.slice(0, 2)) expect((await post({ "Access-Token": user.token })).status, user.username).toBe(200);
  });

  it("checks the token before it reads the body: nobody's token, a guest's or none is refused whatever the body holds", async () => {
    // Neither body is read: the one would take the YAML reader seconds, the other is no YAML at all.
    for (const body of [HOSTILE_YAML, "categories: [a: b: c"]) {
      const post = (headers: Record<string, string>) => fetch(`${server.url}/v1/custom/snapshot/yaml/`, { method: "POST", headers: { "Content-Type": "application/x-yaml", ...headers }, body });
      const nobody = await post({ "Access-Token": "nobody" });
      expect([nobody.status, await nobody.json()]).toEqual([403, { detail: [{ msg: "OSM Authentication failed" }] }]);
      const guest = await post({ "Access-Token": USERS[2]!.token });
      expect([guest.status, await guest.json()]).toEqual([403, { detail: [{ msg: "User is not a staff" }] }]);
      const missing = await post({});
      expect([missing.status, ((await missing.json()) as Problems).detail.map(({ loc }) => loc)]).toEqual([422, [["header", "access-token"]]]);
    }
  });

  it("refuses a YAML body past its bounds before the YAML reader builds it, and answers other requests meanwhile", async () => {
    const order: string[] = [];
    const post = (name: string, body: string) =>
      fetch(`${server.url}/v1/custom/snapshot/yaml/`, { method: "POST", headers: { "Content-Type": "application/x-yaml", "Access-Token": STAFF }, body }).then(async (answer) => {
        order.push(name);
        return { status: answer.status, body: (await answer.json()) as Problems };
      });
    const status = fetch(`${server.url}/v1/status/`).then((answer) => {
      order.push("status");
      return answer.status;
    });
    const refused = await Promise.all([1, 2, 3, 4].map((index) => post(`hostile ${index}`, HOSTILE_YAML)));
    for (const answer of refused) {
      expect(answer.status).toBe(422);
      expect(answer.body.detail).toEqual([{ loc: ["body"], msg: expect.stringMatching(/^the body holds more than 10000 YAML tokens .*send a request this large as JSON/), type: "too_long" }]);
    }
    expect(await status).toBe(200);
    // The status was answered while the hostile bodies were being refused, not after them all.
    expect(order.indexOf("status")).toBeLessThan(order.length - 1);
    // The same request in JSON, which the route reads as JSON is read everywhere, meets no YAML bound.
    const json = await post("json", JSON.stringify({ ...TM_REQUEST, categories: [{ Roads: { ...TM_REQUEST.categories[1]!.Roads, select: Array.from({ length: 100 }, (_, index) => `key${index}`) } }], padding: Array.from({ length: 20_000 }, (_, index) => index) }));
    expect(json.status, JSON.stringify(json.body)).toBe(200);
  });

  it("reads YAML's merge keys, and refuses a body that is not UTF-8, a YAML version it does not read, or a key twice in one mapping", async () => {
    const yamlRequest = (categories: string, head = "") =>
      `${head}geometry: ${JSON.stringify(SMALL)}\ndataset: {dataset_prefix: hotosm_yaml}\ncategories:\n${categories}`;
    const merged = "  - Buildings: &common {types: [polygons], select: [name], where: \"tags['building'] IS NOT NULL\", formats: [geojson]}\n  - Roads:\n      <<: *common\n      types: [lines]\n      where: tags['highway'] IS NOT NULL\n";
    const result = await customExport(server, yamlRequest(merged), "/latest/custom/snapshot/yaml/", { "Content-Type": "application/x-yaml" });
    expect(resourcesOf(result, "Roads").map(({ name }) => name)).toEqual(["hotosm_yaml_roads_lines_geojson.zip"]);
    // The version a text names, of those this server reads, is read as that version.
    expect((await customExport(server, yamlRequest(merged, "%YAML 1.1\n---\n"), "/latest/custom/snapshot/yaml/", { "Content-Type": "application/x-yaml" })).datasets).toHaveLength(2);

    const refusal = async (body: string | Buffer) => {
      const answer = await fetch(`${server.url}/v1/custom/snapshot/yaml/`, { method: "POST", headers: { "Content-Type": "application/x-yaml", "Access-Token": STAFF }, body });
      expect(answer.status).toBe(422);
      return ((await answer.json()) as Problems).detail;
    };
    const latin1 = Buffer.from(yamlRequest(merged.replace("Roads", "Caf\xe9s")), "latin1");
    expect(await refusal(latin1)).toEqual([{ loc: ["body"], msg: "the body is not valid YAML: its bytes are not UTF-8 text, which a YAML body must be", type: "yaml_invalid" }]);
    expect(await refusal(yamlRequest(merged, "%YAML 9.9\n---\n"))).toEqual([{ loc: ["body"], msg: "the body is YAML 9.9 (%YAML at line 1, column 1); this server reads YAML 1.1 and 1.2", type: "yaml_invalid" }]);
    expect(await refusal(yamlRequest(merged, "dataset: {dataset_prefix: other}\n"))).toEqual([
      { loc: ["body"], msg: 'the body is not valid YAML: the key "dataset" appears twice in one mapping (again at line 3, column 1); map keys must be unique', type: "yaml_invalid" },
    ]);
  });

  it("answers every problem of a request in one 422, each where it is", async () => {
    const problems = async (body: unknown) => {
      const answer = await fetch(`${server.url}/v1/custom/snapshot/`, { method: "POST", headers: { "Content-Type": "application/json", "Access-Token": STAFF }, body: JSON.stringify(body) });
      expect(answer.status, JSON.stringify(body)).toBe(422);
      return ((await answer.json()) as HTTPValidationError).detail.map(({ loc, msg }) => ({ loc, msg }));
    };
    const category = (change: object) => ({ Roads: { ...TM_REQUEST.categories[1]!.Roads, ...change } });
    expect(await problems({ ...TM_REQUEST, categories: [category({ where: "tags['highway'] != 'motorway'" }), category({ where: "highway IS NOT NULL OR" })] })).toEqual([
      { loc: ["body", "categories", 0, "Roads", "where"], msg: expect.stringMatching(/^!= at character 17 is not supported/) },
      { loc: ["body", "categories", 1, "Roads", "where"], msg: "expected a tag key such as tags['highway'] at character 23; found the end of the text" },
    ]);
    expect(await problems({ ...TM_REQUEST, iso3: "MCO" })).toEqual([{ loc: ["body"], msg: "Only one of geometry or iso3 should be supplied." }]);
    expect(await problems({ categories: TM_REQUEST.categories })).toEqual([{ loc: ["body"], msg: expect.stringMatching(/^Either geometry or iso3 should be supplied/) }]);
    expect(await problems({ iso3: "FRA", categories: TM_REQUEST.categories })).toEqual([{ loc: ["body", "iso3"], msg: expect.stringMatching(/^no country of this server's data has the ISO 3166-1 alpha-3 code "FRA"/) }]);
    expect(await problems({ geometry: SMALL, categories: TM_REQUEST.categories })).toEqual([{ loc: ["body", "dataset", "dataset_prefix"], msg: expect.stringMatching(/^with a geometry, "dataset"/) }]);
    expect(await problems({ ...TM_REQUEST, categories: [{}, {}] })).toEqual([{ loc: ["body", "categories"], msg: expect.stringMatching(/^Categories can't be empty/) }]);
    const [unknownFormat] = await problems({ ...TM_REQUEST, categories: [category({ formats: ["mvt"] })] });
    expect(unknownFormat!.loc).toEqual(["body", "categories", 0, "Roads", "formats", 0]);
    const [unknownType] = await problems({ ...TM_REQUEST, categories: [category({ types: ["areas"] })] });
    expect(unknownType!.loc).toEqual(["body", "categories", 0, "Roads", "types", 0]);
    const [unknownQueue] = await problems({ ...TM_REQUEST, queue: "elsewhere" });
    expect(unknownQueue!.loc).toEqual(["body", "queue"]);
    const crossing = { type: "Polygon", coordinates: [[[7.42, 43.73], [7.43, 43.74], [7.43, 43.73], [7.42, 43.74], [7.42, 43.73]]] };
    expect((await problems({ ...TM_REQUEST, geometry: crossing }))[0]!.loc.slice(0, 2)).toEqual(["body", "geometry"]);
  });

  it("names the files of two categories that read alike apart, and keeps a hostile category name out of the path", async () => {
    const roads = TM_REQUEST.categories[1]!.Roads!;
    const result = await customExport(server, { ...TM_REQUEST, categories: [{ Roads: { ...roads, formats: ["geojson"] } }, { "roads!": { ...roads, formats: ["geojson"] } }, { "../../etc": { ...roads, formats: ["geojson"] } }] });
    expect(result.datasets.flatMap((dataset: Record<string, { resources: CustomResource[] }>) => Object.values(dataset)[0]!.resources.map(({ name }) => name))).toEqual([
      "hotosm_project_1_roads_lines_geojson.zip",
      "hotosm_project_1_roads_2_lines_geojson.zip",
      "hotosm_project_1_etc_lines_geojson.zip",
    ]);
  });
});

describe("POST /custom/snapshot/ without a users file", () => {
  it("is open to every caller, as every route of a server without users", async () => {
    const server = await startExportServer();
    const answer = await server.post("/latest/custom/snapshot/", { ...TM_REQUEST, categories: [TM_REQUEST.categories[1]] });
    expect(answer.status, answer.text).toBe(200);
    const status = await waitForTask(server, answer.body.track_link);
    expect(status.status).toBe("SUCCESS");
  });
});
