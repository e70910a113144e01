/**
 * A snapshot request as an export reads it and the export queue keeps it: checked, its area one
 * Polygon or MultiPolygon, its yes-or-no members booleans, and nothing it does not read.
 */
import { FLAG_DEFAULTS, type FlagName, type PolygonalGeometry, type SnapshotParams } from "../api/snapshot.js";

export type ExportParams = Omit<SnapshotParams, "geometry" | FlagName> & { geometry: PolygonalGeometry } & Partial<Record<FlagName, boolean>>;

const FLAG_NAMES = Object.keys(FLAG_DEFAULTS) as FlagName[];

/** The flag's value: as the request gave it, or its default. */
export function flagOf(params: Pick<ExportParams, FlagName>, name: FlagName): boolean {
  return params[name] ?? FLAG_DEFAULTS[name];
}

/** A checked request, with `geometry` (its area made one Polygon or MultiPolygon) in place of its own. */
export function exportParams(params: SnapshotParams, geometry: PolygonalGeometry): ExportParams {
  const { outputType, fileName, geometryType, joinFilterType, filters, countryExport, minZoom, maxZoom } = params;
  const given: ExportParams = { geometry, outputType, fileName, geometryType, joinFilterType, filters, countryExport, minZoom, maxZoom };
  for (const name of FLAG_NAMES) {
    const value = params[name];
    if (value !== undefined) given[name] = value === true || value === "true";
  }
  // Members the request left out stay out: the queue keeps the request as small as it came.
  return Object.fromEntries(Object.entries(given).filter(([, value]) => value !== undefined)) as ExportParams;
}
