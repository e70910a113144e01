/**
 * The GeoParquet writer on hand-made features, read back by DuckDB (parquet-reader.ts): every
 * geometry type in one file, awkward column names and values, an export without features,
 * row groups written one at a time; and by GDAL where its Parquet driver is installed.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createWriter, type ExportColumn, type ExportFeature } from "../../../src/server/formats/index.js";
import { createParquetWriter } from "../../../src/server/formats/parquet.js";
import type { Position } from "../../../src/model/geojson.js";
import { hasGdalParquet } from "../../support/requirements.js";
import { gdalLayers, readWithGdal } from "./helpers.js";
import { geoParquetProblems, readParquet } from "./parquet-reader.js";

const root = mkdtempSync(join(tmpdir(), "basemodel-parquet-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const BIG_ID = 2 ** 53 - 1;
const TRICKY = 'comma, "quote"\nnew line <tag> & 😀 é \\ end';
/** Tag keys as they come: colons, spaces, quotes, non-Latin, a dot (Parquet's path separator), the geometry column's own name, and two keys that differ in case only. */
const COLUMNS: ExportColumn[] = [
  { name: "osm_id", type: "integer" },
  { name: "version", type: "integer" },
  { name: "tags", type: "json" },
  { name: "addr:housenumber", type: "text" },
  { name: 'a "quoted" key with spaces', type: "text" },
  { name: "название", type: "text" },
  { name: "seamark:light.colour", type: "text" },
  { name: "geometry", type: "text" },
  { name: "name", type: "text" },
  { name: "Name", type: "text" },
];
/** The names the file gives them: "geometry" is the WKB column's, and GDAL's fields are case-insensitive. */
const FILE_NAMES = ["osm_id", "version", "tags", "addr:housenumber", 'a "quoted" key with spaces', "название", "seamark:light.colour", "geometry_1", "name", "Name_1"];

const square = (x: number, y: number, size: number): Position[] => [[x, y], [x + size, y], [x + size, y + size], [x, y + size], [x, y]];
const FEATURES: ExportFeature[] = [
  {
    geometry: { type: "Point", coordinates: [7.4246123456789, 43.73841234567891] },
    properties: { osm_id: BIG_ID, version: 3, tags: JSON.stringify({ name: TRICKY, "addr:housenumber": "12" }), "addr:housenumber": "12", name: TRICKY, Name: "upper" },
  },
  { geometry: { type: "LineString", coordinates: [[-179.9999999, -89.5], [0, 0], [179.9999999, 89.5]] }, properties: { osm_id: 2, 'a "quoted" key with spaces': "", "название": "улица", "seamark:light.colour": "white" } },
  { geometry: { type: "MultiLineString", coordinates: [[[7, 43], [7.1, 43]], [[7.2, 43], [7.3, 43.05]]] }, properties: { osm_id: 3, geometry: "a tag called geometry" } },
  { geometry: { type: "Polygon", coordinates: [square(0, 0, 10), square(2, 2, 2).reverse()] }, properties: { osm_id: 4, tags: "{}" } },
  { geometry: { type: "MultiPolygon", coordinates: [[square(20, 20, 1)], [square(30, 30, 5), square(31, 31, 1).reverse()]] }, properties: { osm_id: 5 } },
];

async function write(features: Iterable<ExportFeature>, columns = COLUMNS): Promise<string> {
  const writer = await createWriter("parquet", mkdtempSync(join(root, "case-")), "Export", { columns });
  for (const feature of features) await writer.write(feature);
  const [file] = await writer.finish();
  return file!;
}

/** What the file should read back as: every column under its file name, null where a feature has no value. */
const expected = (features: ExportFeature[], columns = COLUMNS, names = FILE_NAMES) =>
  features.map(({ geometry, properties }) => ({ geometry, properties: Object.fromEntries(columns.map((column, i) => [names[i], properties[column.name] ?? null])) }));

describe("GeoParquet export read back by DuckDB", () => {
  it("every geometry type in one file, exact coordinates, big ids, awkward names and text", async () => {
    const file = await readParquet(await write(FEATURES));
    expect(geoParquetProblems(file)).toEqual([]);
    expect(file.features).toEqual(expected(FEATURES));
    expect(file.columns).toEqual([
      { name: "osm_id", type: "INT64", convertedType: null, repetition: "OPTIONAL" },
      { name: "version", type: "INT64", convertedType: null, repetition: "OPTIONAL" },
      ...FILE_NAMES.slice(2).map((name) => ({ name, type: "BYTE_ARRAY", convertedType: "UTF8", repetition: "OPTIONAL" })),
      { name: "geometry", type: "BYTE_ARRAY", convertedType: null, repetition: "REQUIRED" },
    ]);
    expect(JSON.parse(file.metadata.geo!)).toEqual({
      version: "1.1.0",
      primary_column: "geometry",
      columns: {
        geometry: { encoding: "WKB", geometry_types: ["LineString", "MultiLineString", "MultiPolygon", "Point", "Polygon"], bbox: [-179.9999999, -89.5, 179.9999999, 89.5] },
      },
    });
    // No crs member: OGC:CRS84, as DuckDB reads it.
    expect(file.geometryType).toBe("GEOMETRY('OGC:CRS84')");
  });

  it("the GeoParquet check itself catches what a reader would trip on", async () => {
    const file = await readParquet(await write(FEATURES));
    const withGeo = (change: (column: Record<string, unknown>) => void, top: Record<string, unknown> = {}) => {
      const geo = { ...JSON.parse(file.metadata.geo!), ...top };
      change(geo.columns.geometry);
      return geoParquetProblems({ ...file, metadata: { geo: JSON.stringify(geo) } });
    };
    expect(withGeo(() => undefined, { version: "1.0.0" })).toEqual(['version "1.0.0" is not 1.1.x']);
    expect(withGeo(() => undefined, { primary_column: "geom" })).toEqual(['primary_column "geom" is not one of the columns']);
    expect(withGeo((column) => (column.encoding = "wkb"))).toEqual(['geometry: encoding "wkb", expected "WKB"']);
    expect(withGeo((column) => (column.geometry_types = ["Point", "Point"]))).toContain('geometry: geometry_types ["Point","Point"] is not a list of distinct GeoParquet geometry types');
    expect(withGeo((column) => (column.geometry_types = ["Point"]))).toContain("row 1: a LineString, not among geometry_types");
    expect(withGeo((column) => (column.bbox = [0, 0, 10, 10]))).toContain("row 0: a position outside bbox");
    expect(geoParquetProblems({ ...file, metadata: {} })).toEqual(['no "geo" key holding JSON in the file metadata']);
  });

  it("an export without features is a valid file with its columns and no rows", async () => {
    const file = await readParquet(await write([]));
    expect(geoParquetProblems(file)).toEqual([]);
    expect(file.features).toEqual([]);
    expect(file.rowGroups).toEqual([]);
    expect(file.columns.map((column) => column.name)).toEqual([...FILE_NAMES, "geometry"]);
    expect(JSON.parse(file.metadata.geo!).columns.geometry).toEqual({ encoding: "WKB", geometry_types: [] });
  });

  it("one geometry type: geometry_types says that one alone", async () => {
    const points = FEATURES.slice(0, 1);
    const file = await readParquet(await write(points));
    expect(JSON.parse(file.metadata.geo!).columns.geometry.geometry_types).toEqual(["Point"]);
    expect(JSON.parse(file.metadata.geo!).columns.geometry.bbox).toEqual([7.4246123456789, 43.73841234567891, 7.4246123456789, 43.73841234567891]);
  });

  it("row groups of 16,384 features are written as they fill, and every feature is in one", async () => {
    const count = 2 * 16_384 + 1_000;
    const columns: ExportColumn[] = [{ name: "osm_id", type: "integer" }];
    const features = function* (): Generator<ExportFeature> {
      for (let i = 0; i < count; i++) yield { geometry: { type: "Point", coordinates: [i / 1e4, -i / 1e4] }, properties: { osm_id: i } };
    };
    const file = await readParquet(await write(features(), columns));
    expect(file.rowGroups).toEqual([16_384, 16_384, 1_000]);
    expect(file.features.map((feature) => feature.properties.osm_id)).toEqual(Array.from({ length: count }, (_, i) => i));
    expect(file.features[count - 1]!.geometry).toEqual({ type: "Point", coordinates: [(count - 1) / 1e4, -(count - 1) / 1e4] });
  });

  it("a row group of large features is closed once it holds the byte limit, whatever its row count", async () => {
    // 30,000 positions: 480 KB of WKB per feature, so three pass a 1 MB limit.
    const ring: Position[] = Array.from({ length: 30_000 }, (_, i) => [Math.cos((2 * Math.PI * i) / 30_000), Math.sin((2 * Math.PI * i) / 30_000)]);
    ring.push(ring[0]!);
    const columns: ExportColumn[] = [{ name: "osm_id", type: "integer" }];
    const writer = await createParquetWriter(mkdtempSync(join(root, "case-")), "Export", { columns }, { rows: 65_536, bytes: 1 << 20 });
    for (let i = 0; i < 10; i++) await writer.write({ geometry: { type: "Polygon", coordinates: [ring] }, properties: { osm_id: i } });
    const file = await readParquet((await writer.finish())[0]!);
    expect(file.rowGroups).toEqual([3, 3, 3, 1]);
    expect(file.features.map((feature) => feature.properties.osm_id)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(file.features[9]!.geometry).toEqual({ type: "Polygon", coordinates: [ring] });
  });
});

describe("GeoParquet export read by GDAL", () => {
  it.skipIf(!hasGdalParquet())("ogrinfo and ogr2ogr read every feature and column", async () => {
    const path = await write(FEATURES);
    expect((await gdalLayers(path)).map(({ name, count }) => ({ name, count }))).toEqual([{ name: "Export", count: FEATURES.length }]);
    const read = await readWithGdal(path);
    expect(read.map((feature) => feature.geometry)).toEqual(FEATURES.map((feature) => feature.geometry));
    // GDAL may leave a null field out of its GeoJSON: compare the values that are there.
    const present = (properties: Record<string, unknown>) => Object.fromEntries(Object.entries(properties).filter(([, value]) => value !== null));
    expect(read.map((feature) => present(feature.properties))).toEqual(expected(FEATURES).map((feature) => present(feature.properties)));
  });
});
