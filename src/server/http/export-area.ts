/**
 * The area of a request with a GeoJSON `geometry` (/snapshot/, the newer /snapshot/plain/): a
 * Polygon or MultiPolygon as it is, a Feature's geometry, or the union of a FeatureCollection's
 * (as raw-data-api's ST_Union makes it). Each polygon is checked where the request has it, so
 * that a 422 points into the request; then the whole area against the route's limit.
 */
import type { ValidationError } from "../api/errors.js";
import type { ExportArea, PolygonalGeometry } from "../api/snapshot.js";
import { areaKm2 } from "../../model/area.js";
import { loadGeos } from "../geometry/geos.js";
import { polygonProblems } from "../geometry/validity.js";

/** The largest area a route takes, and what the 422 advises above it. */
export interface AreaLimit {
  km2: number;
  /** Follows "above the limit of N km²", e.g. "for one export; split it into smaller areas". */
  advice: string;
}

type Loc = Array<string | number>;

/** The polygons of the area, each with where the request has it. */
function polygonsOf(area: ExportArea, loc: Loc): Array<{ polygon: PolygonalGeometry; loc: Loc }> {
  switch (area.type) {
    case "Feature":
      return [{ polygon: area.geometry, loc: [...loc, "geometry"] }];
    case "FeatureCollection":
      return area.features.map((feature, index) => ({ polygon: feature.geometry, loc: [...loc, "features", index, "geometry"] }));
    default:
      return [{ polygon: area, loc }];
  }
}

/** The area as one Polygon or MultiPolygon. Only for an area without problems (exportAreaProblems). */
export async function polygonalArea(area: ExportArea): Promise<PolygonalGeometry> {
  const polygons = polygonsOf(area, []).map(({ polygon }) => polygon);
  const [first] = polygons;
  if (polygons.length === 1 && first) return first;
  return (await loadGeos()).unionPolygons(polygons);
}

/** Every problem of the area at `loc`: each polygon's, or else its size above `limit`. */
export async function exportAreaProblems(area: ExportArea, loc: Loc, limit: AreaLimit): Promise<ValidationError[]> {
  const found = await Promise.all(
    polygonsOf(area, loc).map(async (part) => (await polygonProblems(part.polygon)).map((problem) => ({ loc: [...part.loc, ...problem.path], msg: problem.message, type: "value_error" }))),
  );
  const problems = found.flat();
  if (problems.length > 0) return problems;
  const km2 = areaKm2(await polygonalArea(area));
  if (km2 <= limit.km2) return [];
  // Whole km² where that cannot read as the limit itself (6.4 above a limit of 6).
  const size = km2.toLocaleString("en-US", { maximumFractionDigits: km2 < 100 ? 2 : 0 });
  return [{ loc, msg: `the area is ${size} km², above the limit of ${limit.km2.toLocaleString("en-US")} km² ${limit.advice}`, type: "value_error" }];
}
