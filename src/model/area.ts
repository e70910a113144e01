/**
 * Area on a sphere, as turf's `area` (v6) computes it: Chamberlain & Duquette, "Some
 * Algorithms for Polygons on a Sphere" (JPL Publication 07-03), with the WGS84 semi-major axis
 * as the radius. Matching turf keeps our area limits in step with what raw-data-api clients
 * compute in the browser.
 */
import type { Position } from "./geojson.js";
import type { PolygonalGeometry } from "./geojson.js";

export const EARTH_RADIUS_M = 6378137;

const RADIANS = Math.PI / 180;

/** The area of a Polygon or MultiPolygon in km², holes subtracted; ring orientation does not matter. */
export function areaKm2(geometry: PolygonalGeometry): number {
  const polygons = geometry.type === "Polygon" ? [geometry.coordinates] : geometry.coordinates;
  let squareMetres = 0;
  for (const [outer, ...holes] of polygons) {
    if (!outer) continue;
    squareMetres += Math.abs(ringArea(outer));
    for (const hole of holes) squareMetres -= Math.abs(ringArea(hole));
  }
  return squareMetres / 1e6;
}

/** Signed area in m² of a closed ring (first position repeated last). */
function ringArea(ring: Position[]): number {
  // The distinct vertices, taken cyclically: λ(next) − λ(previous), weighted by sin φ.
  const count = ring.length - 1;
  if (count < 3) return 0;
  let total = 0;
  for (let i = 0; i < count; i++) {
    const previous = ring[(i + count - 1) % count]!;
    const next = ring[(i + 1) % count]!;
    total += (next[0] - previous[0]) * RADIANS * Math.sin(ring[i]![1] * RADIANS);
  }
  return (total * EARTH_RADIUS_M * EARTH_RADIUS_M) / 2;
}
