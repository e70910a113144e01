import { execFile } from "node:child_process";
import { promisify } from "node:util";
import type { ExportColumn, ExportFeature } from "../../../src/server/formats/index.js";
import type { Geometry } from "../../../src/model/geojson.js";
import { sqliteStoreFactory } from "../../../src/server/store/sqlite/store.js";
import { FEATURE_TABLES } from "../../../src/model/features.js";
import { monacoStorePath } from "../../support/monaco.js";
import { EVERYWHERE } from "../../../src/server/query/everywhere.js";

const run = promisify(execFile);

/** Tag columns that Monaco fills in varied ways (quotes, accents, colons, long similar keys). */
export const TAG_KEYS = ["name", "building", "highway", "amenity", "addr:housenumber", "addr:housename", "addr:street", "name:en", "wikipedia", "description"];
export const COLUMNS: ExportColumn[] = [{ name: "osm_id", type: "integer" }, ...TAG_KEYS.map((name) => ({ name, type: "text" as const }))];


/** Every Monaco feature as the export task would hand it to a writer: osm_id, then the tag columns. */
export async function monacoFeatures(): Promise<ExportFeature[]> {
  const store = await sqliteStoreFactory.open(await monacoStorePath());
  const features: ExportFeature[] = [];
  try {
    for (const table of FEATURE_TABLES) {
      for await (const feature of store.candidates(table, EVERYWHERE)) {
        const properties: ExportFeature["properties"] = { osm_id: feature.osmId };
        for (const key of TAG_KEYS) properties[key] = feature.tags[key] ?? null;
        features.push({ geometry: feature.geometry, properties });
      }
    }
  } finally {
    await store.close();
  }
  return features;
}

export interface ReadFeature {
  properties: Record<string, string | number | null>;
  geometry: Geometry;
}

/** A layer as GDAL reads it: the independent check of every format. */
export async function readWithGdal(path: string, layer?: string): Promise<ReadFeature[]> {
  const args = ["-f", "GeoJSON", "/vsistdout/", path, ...(layer ? [layer] : [])];
  const { stdout } = await run("ogr2ogr", args, { maxBuffer: 1 << 30 });
  return (JSON.parse(stdout) as { features: ReadFeature[] }).features;
}

/** `ogrinfo -so` for every layer: name, geometry type and feature count. */
export async function gdalLayers(path: string): Promise<{ name: string; geometry: string; count: number }[]> {
  const { stdout } = await run("ogrinfo", ["-ro", "-al", "-so", path], { maxBuffer: 1 << 26 });
  return stdout
    .split(/\nLayer name: /)
    .slice(1)
    .map((block) => ({
      name: block.split("\n")[0]!.trim(),
      geometry: /Geometry: (.*)/.exec(block)?.[1]?.trim() ?? "",
      count: Number(/Feature Count: (\d+)/.exec(block)?.[1]),
    }));
}

export { positions } from "../../support/geojson.js";
