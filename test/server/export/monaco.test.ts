/**
 * Every format writes all of Monaco (11k features with real tags), and GDAL reads each file
 * back: feature counts per layer, geometry types, every attribute and every geometry match.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createWriter, type ExportFeature, type ExportFormat } from "../../../src/server/formats/index.js";
import { truncateUtf8, uniqueNames } from "../../../src/server/formats/names.js";
import { shapeKind } from "../../../src/server/formats/shapefile/shp.js";
import { geometryBBox, type Geometry } from "../../../src/model/geojson.js";
import { hasGdal } from "../query/gdal-oracle.js";
import { COLUMNS, gdalLayers, monacoFeatures, positions, readWithGdal, type ReadFeature } from "./helpers.js";

const directory = mkdtempSync(join(tmpdir(), "basemodel-export-"));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

let features: ExportFeature[];
beforeAll(async () => {
  features = await monacoFeatures();
}, 300_000);

async function exportAll(format: ExportFormat, subset = features): Promise<string[]> {
  const out = mkdtempSync(join(directory, `${format}-`));
  const writer = await createWriter(format, out, "Export", { columns: COLUMNS });
  for (const feature of subset) await writer.write(feature);
  return writer.finish();
}

interface Reading {
  /** The name GDAL gives each column. */
  names: string[];
  /** What the format keeps of a value, as GDAL reports it. */
  value(value: string | number | null, column: number): string | number | null;
  /** Rings may be turned around and polygons regrouped (shapefiles): compare extents and sizes only. */
  looseGeometry?: boolean;
  /** The geometry type the format reports for what was written. */
  geometryType?(geometry: Geometry): Geometry["type"];
}

/** A shapefile record does not say "multi": a multi-geometry of one part reads back as a single one. */
const shapefileType = (geometry: Geometry): Geometry["type"] =>
  (geometry.type === "MultiLineString" || geometry.type === "MultiPolygon") && geometry.coordinates.length === 1
    ? geometry.type === "MultiLineString" ? "LineString" : "Polygon"
    : geometry.type;

const columnNames = COLUMNS.map((column) => column.name);
const asText = (value: string | number | null): string | null => (value === null ? null : String(value));
const exact: Reading = { names: columnNames, value: (value) => value };

function expectLayer(read: ReadFeature[], written: ExportFeature[], reading: Reading): void {
  expect(read.length).toBe(written.length);
  const mismatches: string[] = [];
  written.forEach((feature, i) => {
    const got = read[i]!;
    const label = `#${i} osm_id ${feature.properties.osm_id}`;
    const type = reading.geometryType?.(feature.geometry) ?? feature.geometry.type;
    if (got.geometry.type !== type) mismatches.push(`${label}: ${got.geometry.type} != ${type}`);
    COLUMNS.forEach((column, c) => {
      const want = reading.value(feature.properties[column.name] ?? null, c);
      const have = got.properties[reading.names[c]!] ?? null;
      if (have !== want) mismatches.push(`${label}: ${column.name} ${JSON.stringify(have)} != ${JSON.stringify(want)}`);
    });
    const mine = positions(feature.geometry);
    const theirs = positions(got.geometry);
    const close = (a: number[], b: number[]): boolean => Math.abs(a[0]! - b[0]!) < 1e-9 && Math.abs(a[1]! - b[1]!) < 1e-9;
    if (mine.length !== theirs.length) mismatches.push(`${label}: ${theirs.length} positions != ${mine.length}`);
    else if (reading.looseGeometry) {
      const [a, b] = [geometryBBox(feature.geometry), geometryBBox(got.geometry)];
      if (!close([a.minX, a.minY], [b.minX, b.minY]) || !close([a.maxX, a.maxY], [b.maxX, b.maxY])) mismatches.push(`${label}: extent differs`);
    } else if (!mine.every((position, p) => close(position, theirs[p]!))) mismatches.push(`${label}: positions differ`);
  });
  expect(mismatches.slice(0, 10)).toEqual([]);
}

describe.skipIf(!hasGdal)("Monaco, read back by GDAL", () => {
  it("has the variety the checks rely on", () => {
    const types = new Set(features.map((feature) => feature.geometry.type));
    expect([...types].sort()).toEqual(["LineString", "MultiLineString", "MultiPolygon", "Point", "Polygon"]);
    expect(features.length).toBeGreaterThan(9_000);
  });

  it.each<[ExportFormat, string, Reading]>([
    ["geojson", "Export.geojson", exact],
    ["gpkg", "Export.gpkg", exact],
    ["fgb", "Export.fgb", exact],
    // GDAL reads CSV columns as text, and an empty field as "".
    ["csv", "Export.csv", { names: columnNames, value: (value) => (value === null ? "" : String(value)) }],
    // The KML driver turns a field called "name" into the Placemark name field "Name", and trims it.
    ["kml", "Export.kml", { names: columnNames.map((name) => (name === "name" ? "Name" : name)), value: (value, c) => (c === 1 ? asText(value)?.trim() ?? null : asText(value)) }],
  ])("%s: one layer with every feature, attribute and position", async (format, file, reading) => {
    const files = await exportAll(format);
    expect(files.map((path) => path.slice(path.lastIndexOf("/") + 1))).toEqual([file]);
    const [layer, ...others] = await gdalLayers(files[0]!);
    expect(others).toEqual([]);
    expect(layer!.count).toBe(features.length);
    if (format === "gpkg" || format === "fgb") expect(layer!.geometry).toBe("Unknown (any)");
    expectLayer(await readWithGdal(files[0]!), features, reading);
  });

  it("shp: one shapefile per geometry kind, 10-character unique names, text cut at 254 bytes", async () => {
    const files = await exportAll("shp");
    const names = uniqueNames(columnNames, 10);
    expect(names).toContain("addr:house");
    expect(names).toContain("addr:hou_1");
    const reading: Reading = {
      names,
      // dBASE pads text with spaces, so trailing spaces do not survive (nor do they with ogr2ogr).
      value: (value, c) => (value === null || c === 0 ? value : truncateUtf8(String(value), 254).toString("utf8").trimEnd()),
      looseGeometry: true,
      geometryType: shapefileType,
    };
    const expectedGeometry = { point: "Point", line: "Line String", poly: "Polygon" };
    for (const kind of ["point", "line", "poly"] as const) {
      const written = features.filter((feature) => shapeKind(feature.geometry) === kind);
      const path = join(files[0]!.slice(0, files[0]!.lastIndexOf("/")), `Export_${kind}.shp`);
      for (const ext of [".shp", ".shx", ".dbf", ".prj", ".cpg"]) expect(files).toContain(path.replace(/\.shp$/, ext));
      const [layer] = await gdalLayers(path);
      expect(layer).toEqual({ name: `Export_${kind}`, geometry: expectedGeometry[kind], count: written.length });
      expectLayer(await readWithGdal(path), written, reading);
    }
  });
});
