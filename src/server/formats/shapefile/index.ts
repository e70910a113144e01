/**
 * ESRI Shapefile, written by the project (the npm writers are broken: docs/decisions.md, "Writers").
 * A shapefile holds one geometry type, so an export makes up to three, named as the real
 * service names them: `<base>_point`, `<base>_line`, `<base>_poly` (or `<base>` alone for features of one
 * kind, as its custom exports name them), each with .shp .shx .dbf
 * .prj (WGS 84) .cpg (UTF-8). Records stream to .shp/.shx, whose headers (length, extent) are
 * patched at finish; attributes are spooled, as the .dbf widths depend on every value.
 */
import { rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { emptyBBox, extendBBox, geometryBBox, type BBox } from "../../../model/geojson.js";
import { FileSink } from "../file-sink.js";
import { guard } from "../lifecycle.js";
import { uniqueNames } from "../names.js";
import { ExportLimitError, type ExportOptions, type ExportWriter } from "../types.js";
import { DbfSpool } from "./dbf.js";
import { HEADER_BYTES, fileHeader, shapeContent, shapeKind, type ShapeKind } from "./shp.js";

/** Offsets in .shx are signed 32-bit counts of 16-bit words, and GDAL and ArcGIS stop at 2 GB per file. */
export const SHAPEFILE_MAX_BYTES = 2 ** 31 - 1;
const WGS84_PRJ =
  'GEOGCS["GCS_WGS_1984",DATUM["D_WGS_1984",SPHEROID["WGS_1984",6378137.0,298.257223563]],PRIMEM["Greenwich",0.0],UNIT["Degree",0.0174532925199433]]';
const KINDS: readonly ShapeKind[] = ["point", "line", "poly"];

interface Layer {
  base: string;
  shp: FileSink;
  shx: FileSink;
  dbf: DbfSpool;
  box: BBox;
  records: number;
}

export async function createShapefileWriter(
  directory: string,
  baseName: string,
  options: ExportOptions,
  maxFileBytes = SHAPEFILE_MAX_BYTES,
): Promise<ExportWriter> {
  const fields = uniqueNames(
    options.columns.map((column) => column.name),
    10,
  ).map((name, i) => ({ name, type: options.columns[i]!.type }));
  const layers = new Map<ShapeKind, Layer>();
  const created: string[] = [];

  const openLayer = async (kind: ShapeKind): Promise<Layer> => {
    if (options.oneGeometryKind && layers.size > 0) throw new Error(`a shapefile export of one geometry kind got a ${kind} after a ${[...layers.keys()][0]}`);
    const base = join(directory, options.oneGeometryKind ? baseName : `${baseName}_${kind}`);
    created.push(...[".shp", ".shx", ".dbf", ".prj", ".cpg", ".dbf.spool"].map((ext) => base + ext));
    const layer: Layer = {
      base,
      shp: await FileSink.create(`${base}.shp`),
      shx: await FileSink.create(`${base}.shx`),
      dbf: await DbfSpool.create(fields, `${base}.dbf.spool`),
      box: emptyBBox(),
      records: 0,
    };
    const placeholder = Buffer.alloc(HEADER_BYTES);
    await layer.shp.append(placeholder);
    await layer.shx.append(placeholder);
    layers.set(kind, layer);
    return layer;
  };

  const finishLayer = async (kind: ShapeKind, layer: Layer): Promise<string[]> => {
    await layer.shp.patch(0, fileHeader(kind, layer.shp.position, layer.box));
    await layer.shx.patch(0, fileHeader(kind, layer.shx.position, layer.box));
    await layer.shp.close();
    await layer.shx.close();
    await layer.dbf.writeTo(`${layer.base}.dbf`);
    await rm(layer.dbf.spoolPath);
    await writeFile(`${layer.base}.prj`, WGS84_PRJ);
    await writeFile(`${layer.base}.cpg`, "UTF-8");
    return [".shp", ".shx", ".dbf", ".prj", ".cpg"].map((ext) => layer.base + ext);
  };

  return guard({
    async write({ geometry, properties }) {
      const kind = shapeKind(geometry);
      const layer = layers.get(kind) ?? (await openLayer(kind));
      const box = geometryBBox(geometry);
      const content = shapeContent(geometry, box);
      await layer.dbf.add(options.columns.map((column) => properties[column.name]));
      if (layer.shp.position + 8 + content.length > maxFileBytes || layer.dbf.projectedBytes > maxFileBytes) {
        throw new ExportLimitError(
          `the ${kind} shapefile would exceed ${maxFileBytes} bytes after ${layer.records} records (the format's 2 GB limit): export as gpkg or fgb`,
        );
      }
      const recordHeader = Buffer.alloc(8);
      recordHeader.writeInt32BE(++layer.records, 0);
      recordHeader.writeInt32BE(content.length / 2, 4);
      const index = Buffer.alloc(8);
      index.writeInt32BE(layer.shp.position / 2, 0);
      index.writeInt32BE(content.length / 2, 4);
      await layer.shp.append(recordHeader);
      await layer.shp.append(content);
      await layer.shx.append(index);
      extendBBox(layer.box, box);
    },
    async finish() {
      const files: string[] = [];
      for (const kind of KINDS) {
        const layer = layers.get(kind);
        if (layer) files.push(...(await finishLayer(kind, layer)));
      }
      return files;
    },
    async close() {
      for (const layer of layers.values()) await Promise.all([layer.shp.discard(), layer.shx.discard(), layer.dbf.discard()]);
    },
    paths: () => created,
  });
}
