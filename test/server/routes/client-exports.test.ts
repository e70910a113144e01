/**
 * The exports of real raw-data-api clients, end to end, as they run them (their bodies,
 * spellings, paths and polling), over real HTTP against the real server, on the demo town and on
 * Monaco: POST, poll the track link, download, open the file the client opens, and check every
 * field the client reads. What the clients need of the server besides (unknown members ignored,
 * paths without their slash, CORS, /snapshot/plain/) is in real-clients.test.ts.
 */
import { readFileSync, statSync } from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import { EXAMPLE_POLYGON } from "../../../src/server/api/examples.js";
import type { TaskStatus } from "../../../src/server/api/index.js";
import { gdalLayers } from "../export/helpers.js";
import { monacoStorePath } from "../../support/monaco.js";
import { hasGdal } from "../query/gdal-oracle.js";
import { downloadFile, exportResultOf, pythonZip, startExportServer, type ExportServer, type FinishedExport } from "./exports.js";
import { demoStorePath, type AnswerBody } from "./helpers.js";

/** Monte-Carlo, about 0.3 km². */
const MONACO = { type: "Polygon", coordinates: [[[7.424, 43.737], [7.43, 43.737], [7.43, 43.743], [7.424, 43.743], [7.424, 43.737]]] };

/** A client's request: JSON, as Python's json.dumps and the browser's JSON.stringify write it. */
async function send(url: string, body?: unknown): Promise<{ status: number; json: AnswerBody }> {
  const answer = await fetch(url, body === undefined ? {} : { method: "POST", headers: { "content-type": "application/json", accept: "application/json" }, body: JSON.stringify(body) });
  return { status: answer.status, json: await answer.json() };
}

/** Polls `url` as the clients do, until the status is one they stop at (they wait for FAILED; the service says FAILURE). */
async function poll(url: string): Promise<TaskStatus> {
  for (let tries = 0; tries < 2400; tries++) {
    const { status, json } = await send(url);
    expect(status, JSON.stringify(json)).toBe(200);
    if (["SUCCESS", "FAILED", "FAILURE"].includes(json.status)) return json;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${url} never finished`);
}

/** A file of the zip as text, read by Python's zipfile as the Python clients read it. */
const entry = (zip: string, name: string): string => pythonZip(zip, `sys.stdout.write(z.read(${JSON.stringify(name)}).decode("utf-8"))`);
const entries = (zip: string): string[] => pythonZip(zip, "print('\\n'.join(z.namelist()))").trim().split("\n");

const BUILDINGS_JOIN_OR = { tags: { all_geometry: { join_or: { building: [] } } } };

describe.each([
  { place: "the demo town", store: demoStorePath, area: EXAMPLE_POLYGON },
  { place: "Monaco", store: monacoStorePath, area: MONACO },
])("real clients, unmodified, on $place", { timeout: 300_000 }, ({ store, area }) => {
  let server: ExportServer;
  let v1: string;
  beforeAll(async () => {
    server = await startExportServer({ store: await store() });
    v1 = `${server.url}/v1`;
  }, 300_000);

  /** POSTs `body` to {base}/snapshot/ and polls {base}{track_link} until SUCCESS; returns the finished status. */
  async function snapshot(body: unknown): Promise<FinishedExport> {
    const accepted = await send(`${v1}/snapshot/`, body);
    expect(accepted.status, JSON.stringify(accepted.json)).toBe(200);
    const done = await poll(`${v1}${accepted.json.track_link}`);
    expect(done.status, JSON.stringify(done.result)).toBe("SUCCESS");
    return { ...done, result: exportResultOf(done) };
  }

  /** Checks the features of a GeoJSON text: each has what fAIr, geomltoolkits and obe read: osm_id, tags, a polygon. */
  function buildings(text: string): void {
    const collection = JSON.parse(text);
    expect(collection.type).toBe("FeatureCollection");
    expect(collection.features.length).toBeGreaterThan(20);
    for (const feature of collection.features) {
      expect(feature.properties.osm_id).toEqual(expect.any(Number));
      expect(feature.properties.tags).toHaveProperty("building");
      expect(["Polygon", "MultiPolygon"]).toContain(feature.geometry.type);
    }
  }

  it("fAIr's backend: useStWithin as the string \"false\", all_geometry.join_or; the first .geojson of the zip but the boundary", async () => {
    const done = await snapshot({ geometry: area, filters: BUILDINGS_JOIN_OR, geometryType: ["polygon"], useStWithin: "false" });
    const zip = await downloadFile(done.result.download_url, "fair.zip");
    const name = entries(zip).find((file) => file.endsWith(".geojson") && file !== "clipping_boundary.geojson")!;
    expect(name).toBe("Export.geojson");
    buildings(entry(zip, name));
  });

  it("geomltoolkits: GET {base}/status without the slash, then its export; opens geomltoolkits.geojson", async () => {
    const status = await send(`${v1}/status`);
    expect(status.status).toBe(200);
    expect(Number.isNaN(new Date(status.json.lastUpdated).getTime())).toBe(false);
    const done = await snapshot({ fileName: "geomltoolkits", geometry: area, filters: BUILDINGS_JOIN_OR, geometryType: ["polygon"] });
    buildings(entry(await downloadFile(done.result.download_url, "g.zip"), "geomltoolkits.geojson"));
  });

  it("obe: opens obe.geojson", async () => {
    const done = await snapshot({ fileName: "obe", geometry: area, filters: BUILDINGS_JOIN_OR, geometryType: ["polygon"] });
    buildings(entry(await downloadFile(done.result.download_url, "obe.zip"), "obe.geojson"));
  });

  /** osm-rawdata's createJson for a buildings data model (where ways_poly building not null), plus the caller's extra_params. */
  const osmRawdata = (extra: Record<string, unknown>) => ({
    geometry: area,
    geometryType: ["polygon"],
    filters: {
      tags: {
        point: { join_or: {}, join_and: {} },
        line: { join_or: {}, join_and: {} },
        polygon: { join_or: { building: [] }, join_and: { building: [] } },
      },
    },
    centroid: false,
    attributes: ["building", "name", "building:levels"],
    ...extra,
  });

  /** osm-rawdata's queryRemote: task_id, then {base}/tasks/status/{id} with no trailing slash, until SUCCESS with a download_url. */
  async function queryRemote(body: unknown): Promise<string> {
    const accepted = await send(`${v1}/snapshot/`, body);
    expect(accepted.status, JSON.stringify(accepted.json)).toBe(200);
    const done = await poll(`${v1}/tasks/status/${accepted.json.task_id}`);
    expect(done.status).toBe("SUCCESS");
    return exportResultOf(done).download_url;
  }

  it("osm-rawdata Z1: a zipped geojson named by fileName, opened as fmtm's code opens it", async () => {
    const url = await queryRemote(osmRawdata({ fileName: "osm_export", outputType: "geojson" }));
    expect(url.endsWith(".zip")).toBe(true);
    buildings(entry(await downloadFile(url, "z1.zip"), "osm_export.geojson"));
  });

  it("osm-rawdata F1 (Field-TM 2024-25): bind_zip false, so download_url is the bare GeoJSON, which Field-TM reads", async () => {
    const url = await queryRemote(osmRawdata({ fileName: "fmtm_extract", outputType: "geojson", bind_zip: false, useStWithin: false, centroid: false }));
    expect(url.endsWith(".zip")).toBe(false);
    expect(url).toMatch(/\/fmtm_extract_geojson_uid_[0-9a-f-]{36}\.geojson$/);
    buildings(await (await fetch(url)).text());
  });

  /** raw-data-api-py 0.3.0's RequestParams.to_api_params() (defaults osm_export, bindZip true, useStWithin true), then the geometry. */
  const rawDataApiPy = (params: Record<string, unknown>) => ({
    fileName: "osm_export",
    outputType: "geojson",
    bindZip: true,
    centroid: false,
    useStWithin: true,
    filters: { tags: { all_geometry: { building: [] } } },
    ...params,
    geometry: area,
  });

  /** What raw-data-api-py reads of a finished task, and its download saved as it saves it. */
  async function rawDataApiPyDownload(params: Record<string, unknown>, saveAs: string): Promise<string> {
    const done = await snapshot(rawDataApiPy(params));
    expect(done.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(done.result.response_time).toMatch(/^\d+:\d{2}:\d{2}\.\d{6}$/);
    expect(done.result.queryArea).toMatch(/ Sq Km$/);
    const file = await downloadFile(done.result.download_url, saveAs);
    expect(statSync(file).size).toBe(done.result.zip_file_size_bytes);
    return file;
  }

  it("raw-data-api-py A1: geojson, downloaded and extracted", async () => {
    const zip = await rawDataApiPyDownload({}, "osm_export.zip");
    expect(entries(zip)).toEqual(["osm_export.geojson", "clipping_boundary.geojson", "Readme.txt"]);
    buildings(entry(zip, "osm_export.geojson"));
  });

  it.skipIf(!hasGdal)("raw-data-api-py A2: shp, kept zipped: a shapefile per geometry type", async () => {
    const zip = await rawDataApiPyDownload({ outputType: "shp" }, "osm_export.zip");
    expect(entries(zip)).toEqual(expect.arrayContaining(["osm_export_poly.shp", "osm_export_poly.dbf", "osm_export_poly.shx", "osm_export_poly.prj", "Readme.txt", "clipping_boundary.geojson"]));
    const [layer] = await gdalLayers(`/vsizip/${zip}/osm_export_poly.shp`);
    expect(layer!.count).toBeGreaterThan(20);
  });

  it("raw-data-api-py A3: geojson with bindZip false, saved as osm_export.geojson: GeoJSON, not a zip", async () => {
    const file = await rawDataApiPyDownload({ bindZip: false }, "osm_export.geojson");
    buildings(readFileSync(file, "utf8"));
  });

  it("Field-TM 2026: raw-data-api-py with its data model as filters (members this API does not read), bindZip false; json.loads of the download", async () => {
    const dataModel = { select: { name: [], building: [] }, tables: ["nodes", "ways_poly"], from: ["nodes", "ways_poly"], where: { tags: [{ building: "not null" }] }, keep: ["building:levels"] };
    const done = await snapshot(rawDataApiPy({ fileName: "ftm_extract_1", geometryType: ["polygon"], bindZip: false, centroid: false, useStWithin: true, filters: dataModel }));
    expect(done.result.download_url).toMatch(/\/ftm_extract_1_geojson_uid_[0-9a-f-]{36}\.geojson$/);
    const collection = JSON.parse(await (await fetch(done.result.download_url)).text());
    expect(collection.features.length).toBeGreaterThan(20);
    for (const feature of collection.features) expect(["Polygon", "MultiPolygon"]).toContain(feature.geometry.type);
  });

  it("Field-TM's area splitter: the features that split an area (all_geometry tags, some with values), bindZip and useStWithin false", async () => {
    const splitting: Record<string, string[]> = { building: [], highway: [], waterway: [], railway: [], aeroway: [], barrier: ["fence", "wire_fence", "wall", "city_wall", "ditch"], natural: ["cliff"], man_made: ["embankment", "dyke", "dike"] };
    const done = await snapshot(rawDataApiPy({ fileName: "area_splitter", bindZip: false, useStWithin: false, filters: { tags: { all_geometry: splitting } } }));
    const collection = JSON.parse(await (await fetch(done.result.download_url)).text()) as { features: Array<{ properties: { tags: Record<string, string> } }> };
    expect(collection.features.length).toBeGreaterThan(20);
    for (const feature of collection.features) {
      const tags: Record<string, string> = feature.properties.tags;
      const splits = Object.entries(splitting).some(([key, values]) => key in tags && (values.length === 0 || values.includes(tags[key]!)));
      expect(splits, JSON.stringify(tags)).toBe(true);
    }
    expect(collection.features.some((feature) => "highway" in feature.properties.tags)).toBe(true);
  });

  it("raw-data-api-py A4: kml, metadata only", async () => {
    const done = await snapshot(rawDataApiPy({ outputType: "kml" }));
    expect(done.result).toMatchObject({ download_url: expect.stringMatching(/\/osm_export_kml_uid_[0-9a-f-]{36}\.zip$/), zip_file_size_bytes: expect.any(Number) });
    expect(done.result.response_time).not.toBe("");
  });

  it("raw-data-api-py A5: csv, downloaded and extracted", async () => {
    const zip = await rawDataApiPyDownload({ outputType: "csv" }, "osm_export.zip");
    const [header, ...rows] = entry(zip, "osm_export.csv").trim().split(/\r?\n/);
    expect(header!.startsWith("WKT,osm_id")).toBe(true);
    expect(rows.length).toBeGreaterThan(20);
  });

  it("the raw-data-export web UI: a drawn Feature, uuid, includeStats, includeUserMetadata; what it shows and unzips", async () => {
    const body = {
      fileName: "ui_export",
      outputType: "geojson",
      uuid: true,
      bindZip: true,
      includeStats: true,
      useStWithin: false,
      centroid: false,
      includeUserMetadata: true,
      geometryType: ["point", "polygon"],
      filters: { tags: { all_geometry: { join_or: { building: [], amenity: [] } } }, attributes: { all_geometry: ["name", "building", "amenity"] } },
      // Leaflet's layer.toGeoJSON() of a drawn rectangle.
      geometry: { type: "Feature", properties: {}, geometry: area },
    };
    const accepted = await send(`${v1}/snapshot/`, body);
    expect(accepted.status, JSON.stringify(accepted.json)).toBe(200);
    const done = await poll(`${v1}/tasks/status/${accepted.json.task_id}/`);
    expect(done.status).toBe("SUCCESS");
    const result = exportResultOf(done);
    expect(result).toMatchObject({
      query_area: expect.stringMatching(/^\d+\.\d{2} Sq Km$/),
      process_time: expect.stringMatching(/^\d+:\d{2}:\d{2}\.\d{6}$/),
      zip_file_size_bytes: expect.any(Number),
      binded_file_size: expect.stringMatching(/ MB$/),
      download_url: expect.stringMatching(new RegExp(`/ui_export_geojson_uid_${done.id}\\.zip$`)),
      file_name: "ui_export",
    });
    expect(result.stats!.raw.osmBuildingsCount).toBeGreaterThan(20);
    const zip = await downloadFile(result.download_url, "ui.zip");
    expect(JSON.parse(entry(zip, "clipping_boundary.geojson"))).toEqual(area);
    const features = JSON.parse(entry(zip, "ui_export.geojson")).features;
    expect(features.length).toBeGreaterThan(20);
    expect(Object.keys(features[0].properties)).toEqual(["osm_id", "uid", "user", "name", "building", "amenity"]);
  });
});
