/**
 * CSV (RFC 4180: CRLF, fields with separators, quotes or line breaks quoted, quotes doubled).
 * The geometry is WKT in a first column named WKT, as ogr2ogr writes it, so that GDAL's CSV
 * driver and QGIS find it without options.
 */
import { join } from "node:path";
import { FileSink } from "./file-sink.js";
import { guard } from "./lifecycle.js";
import type { ExportOptions, ExportWriter } from "./types.js";
import { toWkt } from "./wkt.js";

function field(value: string | number | null | undefined): string {
  if (value === null || value === undefined) return "";
  const text = String(value);
  return /[",\r\n]|^\s|\s$/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

export async function createCsvWriter(directory: string, baseName: string, options: ExportOptions): Promise<ExportWriter> {
  const sink = await FileSink.create(join(directory, `${baseName}.csv`));
  const names = options.columns.map((column) => column.name);
  await sink.append(["WKT", ...names].map(field).join(",") + "\r\n");
  return guard({
    async write({ geometry, properties }) {
      await sink.append([toWkt(geometry), ...names.map((name) => properties[name])].map(field).join(",") + "\r\n");
    },
    async finish() {
      await sink.close();
      return [sink.path];
    },
    close: () => sink.discard(),
    paths: () => [sink.path],
  });
}
