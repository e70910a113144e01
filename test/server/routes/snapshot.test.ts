/**
 * POST /latest/snapshot/, GET /latest/tasks/status/{id}/ and GET /exports/ over real HTTP on
 * the real Monaco data: the client flow, every format opened by GDAL inside the zip, downloads
 * with Range, names that try to escape, concurrent exports, clean-up, and every bad request.
 */
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { MAX_LIST_ITEMS } from "../../../src/server/api/limits.js";
import { afterFile } from "../../support/cleanup.js";
import type { PolygonalGeometry } from "../../../src/model/geojson.js";
import { deleteOldExports } from "../../../src/server/tasks/export-tasks.js";
import { gdalLayers, readWithGdal, type ReadFeature } from "../export/helpers.js";
import { hasGdal } from "../query/gdal-oracle.js";
import { downloadZip, exportResultOf, exportZip, pythonZip, startExportServer, waitForTask, type ExportServer } from "./exports.js";
import { wireValidator } from "./helpers.js";

const square = (minX: number, minY: number, size: number): Extract<PolygonalGeometry, { type: "Polygon" }> => ({
  type: "Polygon",
  coordinates: [[[minX, minY], [minX + size, minY], [minX + size, minY + size], [minX, minY + size], [minX, minY]]],
});

/** Monte-Carlo, about 0.4 km²: a few hundred features of every kind. */
const CENTRE = square(7.424, 43.737, 0.006);
const SMALL = square(7.4265, 43.7395, 0.0015);

const kindOf = (geometry: { type: string }): string => (geometry.type.endsWith("Point") ? "point" : geometry.type.endsWith("LineString") ? "line" : "polygon");

function byKind(features: ReadFeature[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const feature of features) counts[kindOf(feature.geometry)] = (counts[kindOf(feature.geometry)] ?? 0) + 1;
  return counts;
}

describe("asynchronous snapshot exports over HTTP", { timeout: 300_000 }, () => {
  let server: ExportServer;
  const validStatus = wireValidator("TaskStatus");
  const validAccepted = wireValidator("SnapshotAccepted");

  beforeAll(async () => {
    server = await startExportServer({ exports: { maxAreaKm2: 100_000 } });
  });

  it.skipIf(!hasGdal)("the raw-data-api client flow: POST, poll trackLink until SUCCESS, download, open Export.geojson from the zip", async () => {
    const accepted = await server.post("/latest/snapshot/", { geometry: CENTRE });
    expect(accepted.status).toBe(200);
    expect(validAccepted(accepted.body)).toBe(true);
    const { taskId, task_id, trackLink, track_link } = accepted.body;
    expect(task_id).toBe(taskId);
    expect(trackLink).toBe(`/tasks/status/${taskId}/`);
    expect(track_link).toBe(trackLink);

    const first = await server.get(`/latest${trackLink}`);
    expect(["PENDING", "STARTED", "SUCCESS"]).toContain(first.body.status);
    if (first.body.status !== "SUCCESS") expect(first.body.result).toBeNull();

    const done = await waitForTask(server, trackLink);
    expect(validStatus(done)).toBe(true);
    const result = exportResultOf(done);
    expect(done).toMatchObject({ id: taskId, status: "SUCCESS", progress: 100 });
    expect(result.downloadUrl).toBe(`${server.url}/exports/Export_geojson_uid_${taskId}.zip`);
    expect(result).toMatchObject({ download_url: result.downloadUrl, fileName: "Export", file_name: "Export" });
    expect(result.responseTime).toMatch(/^\d+:\d{2}:\d{2}\.\d{6}$/);
    expect(result.process_time).toBe(result.responseTime);
    expect(result.response_time).toBe(result.responseTime);
    // The square is 0.006° by 0.006° at 43.74°N: 0.668 km by 0.483 km on the sphere.
    expect(result.queryArea).toBe("0.32 Sq Km");
    expect(result.query_area).toBe(result.queryArea);
    expect(result.bindedFileSize).toMatch(/^\d+\.\d{2} MB$/);
    expect(result.zipFileSizeBytes).toBe(result.zip_file_size_bytes);

    const zip = await downloadZip(result.downloadUrl);
    expect(statSync(zip).size).toBe(result.zipFileSizeBytes);
    const features = await readWithGdal(`/vsizip/${zip}/Export.geojson`);
    const plain = await server.post("/latest/snapshot/plain/", { bbox: [7.424, 43.737, 7.43, 43.743], where: [], lookIn: ["nodes", "ways_line", "ways_poly", "relations"] });
    expect(features.length).toBe(plain.body.features.length);
    expect(Object.keys(features[0]!.properties)).toEqual(["osm_id", "version", "changeset", "timestamp", "tags"]);
    const boundary = await readWithGdal(`/vsizip/${zip}/clipping_boundary.geojson`);
    const corners = (boundary[0]!.geometry as typeof CENTRE).coordinates[0]!;
    corners.forEach(([x, y], i) => {
      expect(x).toBeCloseTo(CENTRE.coordinates[0]![i]![0]!, 12);
      expect(y).toBeCloseTo(CENTRE.coordinates[0]![i]![1]!, 12);
    });
  });

  it("the zip holds the export, the clipping boundary and a Readme with the time, the request and the ODbL notice", async () => {
    const { zip } = await exportZip(server, { geometry: SMALL, fileName: "readme_check" });
    const entries = pythonZip(zip, "print('\\n'.join(z.namelist())); assert z.testzip() is None");
    expect(entries.trim().split("\n")).toEqual(["readme_check.geojson", "clipping_boundary.geojson", "Readme.txt"]);
    const text = pythonZip(zip, "print(z.read('Readme.txt').decode('utf-8'))");
    expect(text).toMatch(/Export time \(UTC\): \d{4}-\d{2}-\d{2}T/);
    expect(text).toContain('"fileName": "readme_check"');
    expect(text).toContain("© OpenStreetMap contributors");
    expect(text).toContain("Open Database License (ODbL) 1.0");
  });

  describe.skipIf(!hasGdal)("every format, opened by GDAL inside the zip", () => {
    let reference: ReadFeature[];
    const filters = { attributes: { allGeometry: ["name", "building"] } };
    beforeAll(async () => {
      const { zip } = await exportZip(server, { geometry: CENTRE, filters });
      reference = await readWithGdal(`/vsizip/${zip}/Export.geojson`);
    });

    /** A sample of osm_id -> name, from the GeoJSON export. */
    const sample = (features: ReadFeature[]): Map<string, unknown> =>
      new Map(features.filter((feature) => feature.properties.name != null).slice(0, 25).map((feature) => [`${kindOf(feature.geometry)}:${feature.properties.osm_id}`, feature.properties.name]));

    for (const [outputType, files] of [
      ["fgb", ["Export.fgb"]],
      ["gpkg", ["Export.gpkg"]],
      ["kml", ["Export.kml"]],
      ["csv", ["Export.csv"]],
      ["shp", ["Export_point.shp", "Export_line.shp", "Export_poly.shp"]],
    ] as const) {
      it(`${outputType}: the same features per geometry type, and the same attribute values`, async () => {
        const { zip, status } = await exportZip(server, { geometry: CENTRE, outputType, filters });
        expect(status.result.downloadUrl).toMatch(new RegExp(`/exports/Export_${outputType}_uid_${status.id}\\.zip$`));
        const read = (await Promise.all(files.map((file) => readWithGdal(`/vsizip/${zip}/${file}`)))).flat();
        expect(byKind(read)).toEqual(byKind(reference));
        const want = sample(reference);
        expect(want.size).toBeGreaterThan(10);
        // GDAL's KML reader calls the name column "Name" and trims it.
        const nameOf = (feature: ReadFeature) => (outputType === "kml" ? feature.properties.Name : feature.properties.name);
        const got = new Map(read.map((feature) => [`${kindOf(feature.geometry)}:${feature.properties.osm_id}`, nameOf(feature)]));
        for (const [key, name] of want) expect(got.get(key), key).toBe(outputType === "kml" ? String(name).trim() : name);
      });
    }
  });

  it("downloads support Range requests, for resumed downloads", async () => {
    const { status } = await exportZip(server, { geometry: SMALL });
    const url = status.result.downloadUrl;
    const whole = Buffer.from(await (await fetch(url)).arrayBuffer());
    const part = await fetch(url, { headers: { range: "bytes=10-109" } });
    expect(part.status).toBe(206);
    expect(part.headers.get("content-range")).toBe(`bytes 10-109/${whole.length}`);
    expect(Buffer.from(await part.arrayBuffer())).toEqual(whole.subarray(10, 110));
    const tail = await fetch(url, { headers: { range: `bytes=${whole.length - 5}-` } });
    expect(Buffer.from(await tail.arrayBuffer())).toEqual(whole.subarray(whole.length - 5));
    expect((await fetch(url, { headers: { range: `bytes=${whole.length + 10}-` } })).status).toBe(416);
  });

  it("serves only finished zips: not the task queue, work folders or anything outside the folder", async () => {
    for (const path of ["/exports/.tasks.sqlite", "/exports/..%2Fpackage.json", "/exports/../package.json", "/exports/", "/exports/x.zip.partial"]) {
      const answer = await server.get(path);
      expect(answer.status, path).toBe(404);
    }
    const missing = await server.get(`/exports/Export_geojson_uid_00000000-0000-4000-8000-000000000000.zip`);
    expect(missing.status).toBe(404);
    expect(missing.body.detail).toMatch(/not finished yet, or it was deleted/);
  });

  it.skipIf(!hasGdal)("sanitises fileName: nothing is written outside the export folder, whatever the name", async () => {
    const names: Array<[string, RegExp]> = [
      ["../../escape", /^_escape$/],
      ["a/b\\c", /^a_b_c$/],
      // A control character; NUL itself is a 422, as in any text of a body (decisions: no NUL character).
      ["soh\u0001byte", /^soh_byte$/],
      ["x".repeat(300), /^x{150}$/],
      ["🏠 home 🏠", /^_home_$/],
      ["Kathmandu काठमाडौं", /^Kathmandu_काठमाडौं$/],
      ["///", /^Export$/],
    ];
    const parent = dirname(server.directory);
    expect((await server.post("/latest/snapshot/", { geometry: SMALL, fileName: "nul\u0000byte" })).body.detail[0]).toMatchObject({ loc: ["body", "fileName"], type: "value_error" });
    const statuses = await Promise.all(names.map(async ([fileName]) => (await exportZip(server, { geometry: SMALL, fileName })).status));
    statuses.forEach((status, i) => {
      expect(status.result.fileName).toMatch(names[i]![1]);
      expect(decodeURIComponent(status.result.downloadUrl.split("/exports/")[1]!)).toBe(`${status.result.fileName}_geojson_uid_${status.id}.zip`);
    });
    expect(readdirSync(parent)).toEqual(["exports"]);
    expect(readdirSync(server.directory).filter((name) => !name.endsWith(".zip") && !name.startsWith(".tasks.sqlite"))).toEqual([]);
    const zips = readdirSync(server.directory).filter((name) => name.endsWith(".zip"));
    for (const status of statuses) expect(zips).toContain(`${status.result.fileName}_geojson_uid_${status.id}.zip`);
    const inner = await gdalLayers(`/vsizip/${server.directory}/${statuses[1]!.result.fileName}_geojson_uid_${statuses[1]!.id}.zip/a_b_c.geojson`);
    expect(inner[0]!.count).toBeGreaterThan(0);
  });

  it.skipIf(!hasGdal)("20 concurrent exports all finish with correct files", async () => {
    const formats = ["geojson", "shp", "fgb", "gpkg", "kml", "csv"] as const;
    const reference = await readWithGdal(`/vsizip/${(await exportZip(server, { geometry: SMALL })).zip}/Export.geojson`);
    const runs = await Promise.all(Array.from({ length: 20 }, (_, i) => exportZip(server, { geometry: SMALL, outputType: formats[i % formats.length] })));
    const ids = new Set(runs.map(({ status }) => status.id));
    expect(ids.size).toBe(20);
    for (const [i, { zip }] of runs.entries()) {
      const format = formats[i % formats.length]!;
      const files = format === "shp" ? ["Export_point.shp", "Export_line.shp", "Export_poly.shp"] : [`Export.${format}`];
      const read = (await Promise.all(files.map((file) => readWithGdal(`/vsizip/${zip}/${file}`)))).flat();
      expect(byKind(read), format).toEqual(byKind(reference));
    }
  });

  it("clean-up deletes old zips and forgets their tasks: their status is then a 404", async () => {
    const { status } = await exportZip(server, { geometry: SMALL, fileName: "old" });
    expect(await deleteOldExports(server.queue, server.artifacts, 3_600_000)).toEqual({ files: 0, tasks: 0 });
    const deleted = await deleteOldExports(server.queue, server.artifacts, 0, new Date(Date.now() + 1000));
    expect(deleted.files).toBeGreaterThan(0);
    expect(deleted.tasks).toBeGreaterThanOrEqual(deleted.files);
    expect(readdirSync(server.directory).filter((name) => name.endsWith(".zip"))).toEqual([]);
    const after = await server.get(`/latest/tasks/status/${status.id}/`);
    expect(after.status).toBe(404);
    expect(after.body.detail).toBe(`no task ${status.id}: it was never queued here, or it finished longer ago than exports are kept and was forgotten`);
    expect((await fetch(status.result.downloadUrl)).status).toBe(404);
    // A second pass finds nothing more to do.
    expect(await deleteOldExports(server.queue, server.artifacts, 0, new Date(Date.now() + 1000))).toEqual({ files: 0, tasks: 0 });
  });
});

describe("a configured public URL", () => {
  let server: ExportServer;
  beforeAll(async () => {
    server = await startExportServer({ exports: { publicUrl: "https://exports.example.org/" } });
  });

  it("is where downloadUrl points, whatever host the request was sent to", async () => {
    const accepted = await server.post("/latest/snapshot/", { geometry: SMALL });
    const done = await waitForTask(server, accepted.body.trackLink);
    expect(exportResultOf(done).downloadUrl).toBe(`https://exports.example.org/exports/Export_geojson_uid_${done.id}.zip`);
  });
});

describe("bad snapshot requests are 422s that say what is wrong", () => {
  let server: ExportServer;
  beforeAll(async () => {
    server = await startExportServer({ exports: { maxAreaKm2: 1_000 } });
  });

  const reject = async (body: unknown): Promise<Array<{ loc: unknown[]; msg: string; type: string }>> => {
    const answer = await server.post("/latest/snapshot/", body);
    expect(answer.status, answer.text).toBe(422);
    return answer.body.detail;
  };

  it("both allGeometry and all_geometry in one filter", async () => {
    const detail = await reject({ geometry: SMALL, filters: { tags: { allGeometry: { building: [] }, all_geometry: { amenity: [] } } } });
    expect(detail[0]).toMatchObject({ loc: ["body", "filters", "tags", "all_geometry"], type: "duplicate_alias" });
  });

  it("an area over the limit, with the area and the limit", async () => {
    const detail = await reject({ geometry: square(7, 43, 1) });
    expect(detail[0]!.loc).toEqual(["body", "geometry"]);
    expect(detail[0]!.msg).toMatch(/the area is 8,9\d\d km², above the limit of 1,000 km²/);
  });

  it("a missing geometry, a self-intersecting one, an unclosed ring, a point", async () => {
    expect((await reject({}))[0]).toMatchObject({ loc: ["body", "geometry"], type: "missing" });
    const bowtie = { type: "Polygon", coordinates: [[[7.42, 43.73], [7.43, 43.74], [7.43, 43.73], [7.42, 43.74], [7.42, 43.73]]] };
    expect((await reject({ geometry: bowtie }))[0]!.msg).toMatch(/crosses itself near 7\.425 43\.735/);
    const open = { type: "Polygon", coordinates: [[[7.42, 43.73], [7.43, 43.73], [7.43, 43.74], [7.42, 43.74]]] };
    expect((await reject({ geometry: open }))[0]!.loc.slice(0, 3)).toEqual(["body", "geometry", "coordinates"]);
    expect((await reject({ geometry: { type: "Point", coordinates: [7.42, 43.73] } }))[0]!.loc).toEqual(["body", "geometry", "type"]);
  });

  it("an unknown outputType lists the allowed ones; bindZip false with a zipped format, bad zooms and both spellings of a member are refused", async () => {
    expect((await reject({ geometry: SMALL, outputType: "mbtiles" }))[0]!.msg).toContain('"geojson", "shp", "fgb", "gpkg", "kml", "csv", "parquet"');
    expect((await reject({ geometry: SMALL, outputType: "shp", bindZip: false }))[0]).toMatchObject({ loc: ["body", "bindZip"], type: "value_error" });
    expect((await reject({ geometry: SMALL, minZoom: 5, maxZoom: 2 }))[0]!.loc).toEqual(["body", "maxZoom"]);
    expect((await reject({ geometry: SMALL, output_type: "shp", outputType: "shp" }))[0]!.type).toBe("duplicate_alias");
    expect((await reject({ geometry: SMALL, filters: { tags: { point: { amenity: "cafe" } } } }))[0]!.loc).toEqual(["body", "filters", "tags", "point", "amenity"]);
  });

  it("filters past their bounds: keys, values, key length, attributes (also as keys listed in one entry), geometryType", async () => {
    const many = <T>(count: number, item: (index: number) => T): T[] => Array.from({ length: count }, (_, index) => item(index));
    const keys = (count: number) => Object.fromEntries(many(count, (i) => [`k${i}`, []]));
    const tooMany = { msg: expect.stringMatching(/at most 100 (members|items|tag keys); found (101|101 members|an array of 101 items)$/), type: "too_long" };
    expect(await reject({ geometry: SMALL, filters: { tags: { point: keys(101) } } })).toEqual([{ loc: ["body", "filters", "tags", "point"], ...tooMany }]);
    expect(await reject({ geometry: SMALL, filters: { tags: { all_geometry: { building: many(101, (i) => `v${i}`) } } } })).toEqual([
      { loc: ["body", "filters", "tags", "allGeometry", "building"], ...tooMany },
    ]);
    expect(await reject({ geometry: SMALL, filters: { tags: { line: { ["k".repeat(256)]: [], highway: ["v".repeat(256)] } } } })).toEqual([
      { loc: ["body", "filters", "tags", "line", "k".repeat(256)], msg: expect.stringMatching(/^the member name "k{50,}… in "line" must be at most 255 characters long; found 256 characters$/), type: "string_too_long" },
      { loc: ["body", "filters", "tags", "line", "highway", 0], msg: 'item 0 of "highway" must be at most 255 characters long; found 256 characters', type: "string_too_long" },
    ]);
    expect(await reject({ geometry: SMALL, filters: { attributes: { polygon: many(101, (i) => `k${i}`) } } })).toEqual([{ loc: ["body", "filters", "attributes", "polygon"], ...tooMany }]);
    expect(await reject({ geometry: SMALL, filters: { attributes: { point: ["name", ...[0, 50].map((from) => many(50, (i) => `k${from + i}`).join(","))] } } })).toEqual([
      { loc: ["body", "filters", "attributes", "point"], msg: '"point" must name at most 100 tag keys; found 101', type: "too_long" },
    ]);
    expect(await reject({ geometry: SMALL, geometryType: many(101, () => "point") })).toEqual([{ loc: ["body", "geometryType"], ...tooMany }]);
    // At the bounds, the export is queued.
    const atBounds = await server.post("/latest/snapshot/", {
      geometry: SMALL,
      filters: { tags: { point: Object.fromEntries(many(MAX_LIST_ITEMS, (i) => [`k${i}`.padEnd(255, "x"), many(MAX_LIST_ITEMS, (j) => `v${j}`)])) }, attributes: { point: many(MAX_LIST_ITEMS, (i) => `k${i}`) } },
    });
    expect(atBounds.status, atBounds.text).toBe(200);
  });

  it("coordinates nested 5,000 levels deep, and deep values in other members, are a 422 at the first level too deep", async () => {
    // As text: JSON.stringify itself cannot write such values.
    const deep = (levels: number): string => `${"[".repeat(levels)}[7.42, 43.73]${"]".repeat(levels)}`;
    for (const type of ["Polygon", "MultiPolygon"]) {
      const [detail] = await reject(`{"geometry":{"type":"${type}","coordinates":${deep(5000)}}}`);
      expect(detail!.loc).toEqual(["body", "geometry", "coordinates", ...Array(30).fill(0)]);
      expect(detail!.msg).toBe("the body nests arrays and objects more than 32 levels deep here; no request needs more than 6 (a MultiPolygon's coordinates)");
      expect(detail!.type).toBe("too_deep");
    }
    const [inFilters] = await reject(`{"geometry":${JSON.stringify(SMALL)},"filters":{"tags":{"point":{"building":${deep(100_000)}}}}}`);
    expect(inFilters!.loc.slice(0, 6)).toEqual(["body", "filters", "tags", "point", "building", 0]);
  });

  it("a position that is not one says so briefly, however large it is", async () => {
    const ring = [[7.42, 43.73], [7.43, 43.73], ["x".repeat(500_000)], [7.42, 43.73]];
    const [detail] = await reject({ geometry: { type: "Polygon", coordinates: [ring] } });
    expect(detail!.loc).toEqual(["body", "geometry", "coordinates", 0, 2]);
    expect(detail!.msg).toMatch(/^position 3 of the outer ring must be a \[longitude, latitude\] pair; found \["x{50,}…$/);
    expect(detail!.msg.length).toBeLessThan(200);
  });

  it("task status: an unknown id is a 404, a malformed one a 422", async () => {
    const unknown = await server.get("/latest/tasks/status/00000000-0000-4000-8000-000000000000/");
    expect(unknown.status).toBe(404);
    expect(unknown.body.detail).toMatch(/no task/);
    const malformed = await server.get("/latest/tasks/status/not-a-task/");
    expect(malformed.status).toBe(422);
    expect(malformed.body.detail[0].loc).toEqual(["path", "task_id"]);
  });
});

describe("an export queue whose disk is full", () => {
  it("answers 503 saying so, and queues the next request that fits", async () => {
    // A real SQLITE_FULL: the queue's file may not grow past 64 KiB, as on a full disk.
    const server = await startExportServer({ queue: { maxFileBytes: 64 * 1024 } });
    // A circle of 8,000 positions, about 300 KB of digits that deflate to more than the room left.
    const ring: Array<[number, number]> = Array.from({ length: 8000 }, (_, i) => {
      const angle = (2 * Math.PI * i) / 8000;
      return [7.427 + 0.002 * Math.cos(angle), 43.74 + 0.002 * Math.sin(angle)];
    });
    ring.push(ring[0]!);
    const full = await server.post("/latest/snapshot/", { geometry: { type: "Polygon", coordinates: [ring] } });
    expect(full.status, full.text).toBe(503);
    expect(full.body).toEqual({ detail: "the disk of the task queue is full: the export could not be queued; try again once old exports are deleted" });
    expect((await server.post("/latest/snapshot/", { geometry: SMALL })).status).toBe(200);
  });
});

describe("GET /exports/ never follows a symbolic link", () => {
  let server: ExportServer;
  let outside: string;
  const SECRET = "a file outside the export folder";
  const zipName = (n: number) => `Export_geojson_uid_00000000-0000-4000-8000-00000000000${n}.zip`;

  beforeAll(async () => {
    server = await startExportServer();
    outside = mkdtempSync(join(tmpdir(), "basemodel-outside-"));
    afterFile(() => rmSync(outside, { recursive: true, force: true }));
  });

  const expectNotServed = async (path: string) => {
    const answer = await server.get(path);
    expect(answer.status, path).toBe(404);
    expect(answer.text, path).not.toContain(SECRET);
  };

  it("a link named as a finished zip, to a file outside the folder or inside it, is a 404 that leaks nothing", async () => {
    writeFileSync(join(outside, "secret.zip"), SECRET);
    symlinkSync(join(outside, "secret.zip"), join(server.directory, zipName(1)));
    await expectNotServed(`/exports/${zipName(1)}`);
    // A real file of the folder is served; a link to it is not.
    writeFileSync(join(server.directory, zipName(2)), SECRET);
    expect((await server.get(`/exports/${zipName(2)}`)).text).toBe(SECRET);
    symlinkSync(zipName(2), join(server.directory, zipName(3)));
    expect((await server.get(`/exports/${zipName(3)}`)).status).toBe(404);
    rmSync(join(server.directory, zipName(2)));
  });

  it("a linked sub-folder is never entered", async () => {
    mkdirSync(join(outside, "folder"));
    writeFileSync(join(outside, "folder", zipName(4)), SECRET);
    symlinkSync(join(outside, "folder"), join(server.directory, "linked"));
    for (const path of [`/exports/linked/${zipName(4)}`, `/exports/linked%2F${zipName(4)}`, "/exports/linked/", "/exports/linked"]) await expectNotServed(path);
  });
});
