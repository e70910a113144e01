/**
 * CSV (RFC 4180). The geometry is WKT in a first column named WKT, as ogr2ogr writes it, so
 * that GDAL's CSV driver and QGIS find it without options.
 */
import { join } from "node:path";
import { csvRecord } from "./rfc4180.js";
import { FileSink } from "./file-sink.js";
import { guard } from "./lifecycle.js";
import type { ExportOptions, ExportWriter } from "./types.js";
import { toWkt } from "./wkt.js";

export async function createCsvWriter(directory: string, baseName: string, options: ExportOptions): Promise<ExportWriter> {
  const sink = await FileSink.create(join(directory, `${baseName}.csv`));
  const names = options.columns.map((column) => column.name);
  await sink.append(csvRecord(["WKT", ...names]));
  return guard({
    async write({ geometry, properties }) {
      await sink.append(csvRecord([toWkt(geometry), ...names.map((name) => properties[name])]));
    },
    async finish() {
      await sink.close();
      return [sink.path];
    },
    close: () => sink.discard(),
    paths: () => [sink.path],
  });
}
