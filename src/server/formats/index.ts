/**
 * The export writers: `createWriter(format, ...)` returns the one writer interface for every
 * format. No GDAL at run time; each format is the project's own streaming writer, except
 * FlatGeobuf and GeoParquet, which use the `flatgeobuf` and `hyparquet-writer` packages'
 * encoders (optional peer dependencies).
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
  // Loaded on demand: their packages are optional and only their own exports need them.
  fgb: async (...args) => (await import("./fgb.js")).createFgbWriter(...args),
  parquet: async (...args) => (await import("./parquet.js")).createParquetWriter(...args),
};

/**
 * A writer for `format` that creates its file(s) in `directory`, named from `baseName` (which
 * the caller has already sanitised: it becomes part of file names and, for gpkg, a table name).
 */
export function createWriter(format: ExportFormat, directory: string, baseName: string, options: ExportOptions): Promise<ExportWriter> {
  return FACTORIES[format](directory, baseName, options);
}
