/**
 * The export writers: `createWriter(format, ...)` returns the one writer interface for every
 * format. No GDAL at run time; each format is the project's own streaming writer, except
 * FlatGeobuf, which uses the `flatgeobuf` package's encoders (an optional peer dependency).
 */
import { createCsvWriter } from "./csv.js";
import { createGeoJsonWriter } from "./geojson.js";
import { createGpkgWriter } from "./gpkg.js";
import { createKmlWriter } from "./kml.js";
import { createShapefileWriter } from "./shapefile/index.js";
import type { ExportFormat, ExportOptions, ExportWriter } from "./types.js";

export { EXPORT_FORMATS, ExportLimitError } from "./types.js";
export type { ExportColumn, ExportFeature, ExportFormat, ExportOptions, ExportWriter } from "./types.js";

type Factory = (directory: string, baseName: string, options: ExportOptions) => Promise<ExportWriter>;

const FACTORIES: Record<ExportFormat, Factory> = {
  geojson: createGeoJsonWriter,
  csv: createCsvWriter,
  kml: createKmlWriter,
  shp: createShapefileWriter,
  gpkg: createGpkgWriter,
  // Loaded on demand: flatgeobuf is optional and only FlatGeobuf exports need it.
  fgb: async (...args) => (await import("./fgb.js")).createFgbWriter(...args),
};

/**
 * A writer for `format` that creates its file(s) in `directory`, named from `baseName` (which
 * the caller has already sanitised: it becomes part of file names and, for gpkg, a table name).
 */
export function createWriter(format: ExportFormat, directory: string, baseName: string, options: ExportOptions): Promise<ExportWriter> {
  return FACTORIES[format](directory, baseName, options);
}
