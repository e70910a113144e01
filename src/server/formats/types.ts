/**
 * The contract every export format implements, in the manner of ESLint formatters: one small
 * module per format behind one signature, so the export task never knows a format's details.
 */
import type { Geometry } from "../../model/geojson.js";

export const EXPORT_FORMATS = ["geojson", "shp", "fgb", "gpkg", "kml", "csv", "parquet"] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/**
 * The formats whose export is one file a client can read as it downloads, or by ranges
 * (raw-data-api's "streamable", cloud-optimised ones): only these can be served bare, without
 * the zip (bindZip false).
 */
export const BARE_FORMATS: readonly ExportFormat[] = ["geojson", "fgb", "parquet"];
/** "geojson, fgb, and parquet": for messages and docs. */
export const BARE_FORMATS_TEXT = new Intl.ListFormat("en").format(BARE_FORMATS);

/**
 * One attribute of the export. The type matters to the formats with a schema (shp, gpkg, fgb, parquet):
 * osm_id is an "integer" (ids beyond 2^31 must survive), tags are "text". A "json" value is JSON
 * text: GeoJSON nests it as a value, the other formats write the text.
 */
export interface ExportColumn {
  name: string;
  type: "integer" | "text" | "json";
}

/** One feature, its properties already chosen by the caller (keys are column names; a missing key is null). */
export interface ExportFeature {
  geometry: Geometry;
  properties: Record<string, string | number | null>;
}

export interface ExportOptions {
  /** Every property a feature may carry, in the order the output lists them. */
  columns: readonly ExportColumn[];
  /**
   * Every feature has one kind of geometry (a custom export's type): a format that keeps each
   * kind apart (shapefile) names its one file after the base alone, as upstream's custom exports do.
   */
  oneGeometryKind?: boolean;
}

/**
 * Writes one export, streaming: a feature is written and forgotten. Calls must be sequential
 * (await each write). After finish() or abort(), every call but abort() throws.
 */
export interface ExportWriter {
  write(feature: ExportFeature): Promise<void>;
  /** Completes the files and returns their paths (a shapefile export has several). */
  finish(): Promise<string[]>;
  /** Gives up: every file the writer made, finished or not, is removed. */
  abort(): Promise<void>;
}

/** An export that a format cannot hold (a shapefile over 2 GB, too many columns): the message says why. */
export class ExportLimitError extends Error {
  override name = "ExportLimitError";
}
