/**
 * GDAL (with SpatiaLite) as an independent oracle: our answers are compared with what plain
 * SQL over the same features finds. Needs gdal-bin; CI installs it.
 */
import { execFile } from "node:child_process";
import { writeFileSync } from "node:fs";
import { promisify } from "node:util";
import type { PolygonalGeometry } from "../../../src/model/geojson.js";
import type { Position } from "../../../src/model/geojson.js";
import { FEATURE_TABLES, type FeatureTable } from "../../../src/model/features.js";
import { type FeatureStore } from "../../../src/server/store/store.js";
import { hasTool } from "../../support/requirements.js";
import { EVERYWHERE } from "../../../src/server/query/everywhere.js";

export const hasGdal = hasTool(["ogr2ogr", "ogrinfo"], "gdal-bin");


export function wkt(geometry: PolygonalGeometry): string {
  const ring = (positions: Position[]): string => `(${positions.map(([x, y]) => `${x} ${y}`).join(", ")})`;
  const polygon = (rings: Position[][]): string => `(${rings.map(ring).join(", ")})`;
  return geometry.type === "Polygon" ? `POLYGON ${polygon(geometry.coordinates)}` : `MULTIPOLYGON (${geometry.coordinates.map(polygon).join(", ")})`;
}

/**
 * Every feature of the store in one GeoJSON layer, "features", with its table, osm_id and tags
 * (JSON text, for json_extract). Returns the count per table.
 */
export async function writeFeaturesFile(store: FeatureStore, file: string): Promise<Record<FeatureTable, number>> {
  const totals = {} as Record<FeatureTable, number>;
  const features: string[] = [];
  for (const table of FEATURE_TABLES) {
    totals[table] = 0;
    for await (const feature of store.candidates(table, EVERYWHERE)) {
      const properties = { feature_table: table, osm_id: feature.osmId, tags: JSON.stringify(feature.tags) };
      features.push(JSON.stringify({ type: "Feature", properties, geometry: feature.geometry }));
      totals[table]++;
    }
  }
  writeFileSync(file, `{"type":"FeatureCollection","features":[\n${features.join(",\n")}\n]}\n`);
  return totals;
}

const run = promisify(execFile);

/**
 * An SQLite-dialect query over `source` (any GDAL dataset name, /vsizip/ included): the column
 * names and the rows as text cells. Select no free text: cells are split at commas.
 * Asynchronous because tests run their server in the same process: a blocked event loop lets
 * the server drop kept-alive sockets that the test's fetch is about to reuse (ECONNRESET).
 */
export async function gdalTable(source: string, sql: string): Promise<{ columns: string[]; rows: string[][] }> {
  const { stdout: csv } = await run("ogr2ogr", ["-f", "CSV", "/vsistdout/", source, "-dialect", "SQLite", "-sql", sql], { encoding: "utf8", maxBuffer: 256 << 20 });
  const [header = "", ...rows] = csv.trim().split(/\r?\n/);
  const cells = (line: string) => line.split(",").map((cell) => cell.replaceAll('"', ""));
  return { columns: cells(header), rows: rows.filter((row) => row !== "").map(cells) };
}

export const gdalRows = async (source: string, sql: string): Promise<string[][]> => (await gdalTable(source, sql)).rows;

/** The features of `file` (the layer of writeFeaturesFile) that intersect `area` and pass `where`. */
export function intersecting(area: PolygonalGeometry, where = ""): string {
  return `ST_Intersects(geometry, ST_GeomFromText('${wkt(area)}', 4326))${where}`;
}

/** Per table, the osm_ids of the features in `file` that GDAL finds intersecting `area` (and passing `where`). */
export async function gdalIds(file: string, area: PolygonalGeometry, where = ""): Promise<Record<FeatureTable, number[]>> {
  const ids = Object.fromEntries(FEATURE_TABLES.map((table) => [table, [] as number[]])) as Record<FeatureTable, number[]>;
  for (const [table, id] of await gdalRows(file, `SELECT feature_table, osm_id FROM features WHERE ${intersecting(area, where)}`)) ids[table as FeatureTable].push(Number(id));
  for (const table of FEATURE_TABLES) ids[table].sort((a, b) => a - b);
  return ids;
}
