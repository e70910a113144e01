/** Hand-made features for what Monaco lacks or holds too rarely, in every format; and the writer lifecycle. */
import { existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createWriter, EXPORT_FORMATS, ExportLimitError, type ExportColumn, type ExportFeature, type ExportFormat } from "../../../src/server/formats/index.js";
import { createShapefileWriter } from "../../../src/server/formats/shapefile/index.js";
import { hasGdal } from "../query/gdal-oracle.js";
import { gdalLayers, readWithGdal } from "./helpers.js";

const root = mkdtempSync(join(tmpdir(), "basemodel-export-edge-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const fresh = (): string => mkdtempSync(join(root, "case-"));

const BIG_ID = 2 ** 33 + 7;
const LONG = "Ä".repeat(100) + "x".repeat(100) + "😀".repeat(25);
const TRICKY = 'comma, "quote"\nnew line <tag> & 😀 é';
const COLUMNS: ExportColumn[] = [
  { name: "osm_id", type: "integer" },
  { name: "note", type: "text" },
  { name: "addr:housenumber", type: "text" },
  { name: "addr:housename", type: "text" },
];
const square = (x: number, y: number, size: number): [number, number][] => [
  [x, y], [x + size, y], [x + size, y + size], [x, y + size], [x, y],
];
const FEATURES: ExportFeature[] = [
  { geometry: { type: "Point", coordinates: [7.4246, 43.7384] }, properties: { osm_id: BIG_ID, note: TRICKY, "addr:housenumber": "12", "addr:housename": "Villa" } },
  { geometry: { type: "LineString", coordinates: [[7.1, 43.1], [7.2, 43.2], [7.3, 43.1]] }, properties: { osm_id: 2, note: LONG, "addr:housenumber": null } },
  { geometry: { type: "MultiLineString", coordinates: [[[7, 43], [7.1, 43]], [[7.2, 43], [7.3, 43.05]]] }, properties: { osm_id: 3, note: "" } },
  // Counter-clockwise outer ring with a clockwise hole: the shapefile writer must turn both around.
  { geometry: { type: "Polygon", coordinates: [square(0, 0, 10), square(2, 2, 2).reverse()] }, properties: { osm_id: 4, note: "hole" } },
  { geometry: { type: "MultiPolygon", coordinates: [[square(20, 20, 1)], [square(30, 30, 5), square(31, 31, 1).reverse()]] }, properties: { osm_id: 5, note: null } },
];

async function write(format: ExportFormat, directory: string): Promise<string[]> {
  const writer = await createWriter(format, directory, "Export", { columns: COLUMNS });
  for (const feature of FEATURES) await writer.write(feature);
  return writer.finish();
}

describe("edge cases read back by GDAL", () => {
  it.skipIf(!hasGdal).each(["geojson", "gpkg", "fgb", "csv", "kml"] as const)("%s keeps geometries, holes, big ids and awkward text", async (format) => {
    const [file] = await write(format, fresh());
    const read = await readWithGdal(file!);
    expect(read.map((feature) => feature.geometry)).toEqual(FEATURES.map((feature) => feature.geometry));
    expect(read.map((feature) => String(feature.properties.osm_id))).toEqual(["8589934599", "2", "3", "4", "5"]);
    expect(read[0]!.properties.note).toBe(TRICKY);
    expect(read[0]!.properties["addr:housename"]).toBe("Villa");
    expect(read[1]!.properties.note).toBe(LONG);
  });

  it.skipIf(!hasGdal)("shp: orientation per the spec, multipart records, 64-bit ids, UTF-8 cut at 254 bytes, unique names", async () => {
    const directory = fresh();
    const files = await write("shp", directory);
    expect(readdirSync(directory).sort()).toEqual(files.map((path) => path.slice(directory.length + 1)).sort());
    expect(await gdalLayers(join(directory, "Export_poly.shp"))).toEqual([{ name: "Export_poly", geometry: "Polygon", count: 2 }]);
    const [point] = await readWithGdal(join(directory, "Export_point.shp"));
    expect(point!.properties).toEqual({ osm_id: BIG_ID, note: TRICKY, "addr:house": "12", "addr:hou_1": "Villa" });
    const lines = await readWithGdal(join(directory, "Export_line.shp"));
    // 100 Ä (200 bytes) + 54 x = 254 bytes: the emoji never get in, and nothing is split.
    expect(lines[0]!.properties.note).toBe("Ä".repeat(100) + "x".repeat(54));
    expect(lines[1]!.geometry).toEqual(FEATURES[2]!.geometry);
    const [polygon, multipolygon] = await readWithGdal(join(directory, "Export_poly.shp"));
    // GDAL reports the rings as stored: outer clockwise, hole counter-clockwise.
    expect(polygon!.geometry).toEqual({ type: "Polygon", coordinates: [square(0, 0, 10).reverse(), square(2, 2, 2)] });
    expect(multipolygon!.geometry).toEqual({
      type: "MultiPolygon",
      coordinates: [[square(20, 20, 1).reverse()], [square(30, 30, 5).reverse(), square(31, 31, 1)]],
    });
  });

  it("shp: a file that would pass the size limit fails with a clear error", async () => {
    const writer = await createShapefileWriter(fresh(), "Export", { columns: COLUMNS }, 1000);
    let error: unknown;
    try {
      for (let i = 0; i < 100; i++) await writer.write(FEATURES[0]!);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ExportLimitError);
    expect(String(error)).toMatch(/point shapefile would exceed 1000 bytes after \d+ records/);
    await writer.abort();
  });
});

describe("writer lifecycle", () => {
  it.each(EXPORT_FORMATS)("%s: abort() leaves no file, before or after writing", async (format) => {
    const directory = fresh();
    const empty = await createWriter(format, directory, "Export", { columns: COLUMNS });
    await empty.abort();
    const writer = await createWriter(format, directory, "Export", { columns: COLUMNS });
    for (const feature of FEATURES) await writer.write(feature);
    await writer.abort();
    expect(readdirSync(directory)).toEqual([]);
    await expect(writer.write(FEATURES[0]!)).rejects.toThrow(/after the export aborted/);
  });

  it.each(EXPORT_FORMATS)("%s: write() or finish() after finish() throws, and the files stay", async (format) => {
    const directory = fresh();
    const writer = await createWriter(format, directory, "Export", { columns: COLUMNS });
    await writer.write(FEATURES[0]!);
    const files = await writer.finish();
    await expect(writer.write(FEATURES[0]!)).rejects.toThrow(/write\(\) after the export finished/);
    await expect(writer.finish()).rejects.toThrow(/finish\(\) after the export finished/);
    expect(files.every((path) => existsSync(path))).toBe(true);
    expect(readdirSync(directory).length).toBe(files.length);
  });

  // GeoParquet's empty export is read by DuckDB in parquet.test.ts: Debian's GDAL has no Parquet driver.
  it.skipIf(!hasGdal).each(EXPORT_FORMATS.filter((format) => format !== "parquet"))("%s: an export without features is still a readable file", async (format) => {
    const directory = fresh();
    const writer = await createWriter(format, directory, "Export", { columns: COLUMNS });
    const files = await writer.finish();
    if (format === "shp") expect(files).toEqual([]);
    else expect((await gdalLayers(files[0]!))[0]?.count ?? 0).toBe(0);
  });
});
