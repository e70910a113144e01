/**
 * outputType "parquet" (GeoParquet, as raw-data-api names it) over real HTTP against the real
 * server, on Monaco and on the demo town: zipped and bare (bindZip), on /latest and /v1. Each
 * file is read by DuckDB (an independent Parquet reader, test/server/export/parquet-reader.ts) and
 * compared with the GeoJSON export of the same request: every feature, every column, in order.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { EXAMPLE_POLYGON } from "../../../src/server/api/examples.js";
import type { Geometry } from "../../../src/model/geojson.js";
import { afterFile } from "../../support/cleanup.js";
import { geoParquetProblems, readParquet, type ParquetFile } from "../export/parquet-reader.js";
import { downloadFile, finishedExport, pythonZip, startExportServer, type ExportServer, type FinishedExport } from "./exports.js";
import { demoStorePath } from "./helpers.js";

/** Monte-Carlo, about 0.3 km²: hundreds of features of all five geometry types. */
const CENTRE = { type: "Polygon", coordinates: [[[7.424, 43.737], [7.43, 43.737], [7.43, 43.743], [7.424, 43.743], [7.424, 43.737]]] };

interface Feature {
  geometry: Geometry;
  properties: Record<string, unknown>;
}

/** The attribute columns the file renames: the names GDAL, which reads Parquet for most users, could not tell apart. */
const RENAMED: Record<string, string> = { geometry: "geometry_1", Name: "Name_1" };

let monaco: ExportServer;
let demo: ExportServer;

beforeAll(async () => {
  [monaco, demo] = await Promise.all([startExportServer(), startExportServer({ store: await demoStorePath() })]);
}, 300_000);

/** Queues `body` on `/<api>/snapshot/` and waits for SUCCESS, as a client of that prefix would. */
function finishedOn(server: ExportServer, api: "latest" | "v1", body: Record<string, unknown>): Promise<FinishedExport> {
  return finishedExport(server, body, `/${api}/snapshot/`);
}

/** The features of the GeoJSON export of the same request, served bare. */
async function geojsonFeatures(server: ExportServer, body: Record<string, unknown>): Promise<Feature[]> {
  const status = await finishedExport(server, { ...body, outputType: "geojson", bindZip: false });
  const { features } = JSON.parse(await (await fetch(status.result.downloadUrl)).text()) as { features: Array<Feature & { type: string }> };
  return features.map(({ geometry, properties }) => ({ geometry, properties }));
}

/** The Parquet file's rows as GeoJSON features: its JSON-text tags column nested back as JSON, as GeoJSON has it. */
const asGeoJson = (file: ParquetFile): Feature[] =>
  file.features.map(({ geometry, properties }) => ({
    geometry,
    properties: { ...properties, ...(typeof properties.tags === "string" && { tags: JSON.parse(properties.tags) }) },
  }));

/** Checks `file` against GeoParquet's rules and against the GeoJSON export of the same request. */
function expectSameAsGeoJson(file: ParquetFile, features: Feature[]): void {
  expect(features.length).toBeGreaterThan(0);
  expect(geoParquetProblems(file)).toEqual([]);
  expect(file.geometryType).toBe("GEOMETRY('OGC:CRS84')");
  expect(asGeoJson(file)).toEqual(features);
  // The columns in the GeoJSON's order, then the geometry.
  expect(file.columns.map((column) => column.name)).toEqual([...Object.keys(features[0]?.properties ?? {}), "geometry"]);
  const geo = JSON.parse(file.metadata.geo!).columns.geometry;
  expect(geo.geometry_types).toEqual([...new Set(features.map((feature) => feature.geometry.type))].sort());
  const numbers = features.map((feature) => (feature.geometry.coordinates as unknown[]).flat(Infinity) as number[]);
  const xs = numbers.flatMap((values) => values.filter((_, i) => i % 2 === 0));
  const ys = numbers.flatMap((values) => values.filter((_, i) => i % 2 === 1));
  expect(geo.bbox).toEqual([Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys)]);
}

/** The one file `name` of a downloaded zip, taken out by Python's zipfile (not our code), into a temporary folder. */
function unzipped(zip: string, name: string): string {
  const directory = mkdtempSync(join(tmpdir(), "basemodel-unzip-"));
  afterFile(() => rmSync(directory, { recursive: true, force: true }));
  execFileSync("python3", ["-c", "import sys, zipfile; zipfile.ZipFile(sys.argv[1]).extract(sys.argv[2], sys.argv[3])", zip, name, directory]);
  return join(directory, name);
}

describe("outputType parquet", { timeout: 300_000 }, () => {
  it("bindZip false on /latest: the bare GeoParquet file holds the GeoJSON export's features, every column, every geometry type", async () => {
    const body = { geometry: CENTRE, outputType: "parquet", bindZip: false };
    const status = await finishedOn(monaco, "latest", body);
    expect(status.result.downloadUrl).toBe(`${monaco.url}/exports/Export_parquet_uid_${status.id}.parquet`);
    expect((await fetch(status.result.downloadUrl, { method: "HEAD" })).headers.get("content-type")).toBe("application/octet-stream");
    const path = await downloadFile(status.result.downloadUrl, "bare.parquet");
    expect(status.result.zipFileSizeBytes).toBe(statSync(path).size);
    const features = await geojsonFeatures(monaco, body);
    expect(new Set(features.map((feature) => feature.geometry.type))).toEqual(new Set(["Point", "LineString", "MultiLineString", "Polygon", "MultiPolygon"]));
    expectSameAsGeoJson(await readParquet(path), features);
  });

  it("zipped on /v1, with the clipping boundary and the Readme; attributes with odd keys and the user columns, on the demo town", async () => {
    const body = {
      geometry: EXAMPLE_POLYGON,
      outputType: "parquet",
      fileName: "town parquet",
      includeUserMetadata: true,
      filters: { attributes: { allGeometry: ["name", "addr:street", "building:levels", "name:en", "geometry", "Name"] } },
    };
    const status = await finishedOn(demo, "v1", body);
    expect(status.result.downloadUrl).toBe(`${demo.url}/exports/town_parquet_parquet_uid_${status.id}.zip`);
    const zip = await downloadFile(status.result.downloadUrl, "export.zip");
    expect(pythonZip(zip, "print('\\n'.join(sorted(z.namelist())))").trim().split("\n")).toEqual(["Readme.txt", "clipping_boundary.geojson", "town_parquet.parquet"]);
    const file = await readParquet(unzipped(zip, "town_parquet.parquet"));
    // The tag key "geometry" gives way to the geometry column; "Name" to "name", as GDAL's field names ignore case.
    expect(file.columns.map((column) => column.name)).toEqual(["osm_id", "uid", "user", "name", "addr:street", "building:levels", "name:en", "geometry_1", "Name_1", "geometry"]);
    const renamed = (await geojsonFeatures(demo, body)).map(({ geometry, properties }) => ({
      geometry,
      properties: Object.fromEntries(Object.entries(properties).map(([key, value]) => [RENAMED[key] ?? key, value])),
    }));
    expectSameAsGeoJson(file, renamed);
  });

  it("a request that matches no feature: a valid file with the columns and no rows", async () => {
    const status = await finishedOn(monaco, "latest", { geometry: CENTRE, outputType: "parquet", bindZip: "false", filters: { tags: { allGeometry: { "no such key": [] } } } });
    const file = await readParquet(await downloadFile(status.result.downloadUrl, "empty.parquet"));
    expect(geoParquetProblems(file)).toEqual([]);
    expect(file.features).toEqual([]);
    expect(file.columns.map((column) => column.name)).toEqual(["osm_id", "version", "changeset", "timestamp", "tags", "geometry"]);
    expect(JSON.parse(file.metadata.geo!).columns.geometry).toEqual({ encoding: "WKB", geometry_types: [] });
  });

  it("OpenAPI lists parquet among the output types, and bindZip false accepts it", async () => {
    const { body } = await monaco.get("/openapi.json");
    expect(body.components.schemas.RawDataCurrentParams.properties.outputType.enum).toContain("parquet");
    expect(body.components.schemas.RawDataCurrentParams.properties.bindZip.description).toContain("parquet");
  });
});
