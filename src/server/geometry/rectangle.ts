/**
 * Areas that are their own bounding box. Most queries name one (a bbox, or a ring drawn as a
 * box): for those, "does this box lie inside the area?" is four comparisons, not a GEOS call.
 */
import type { BBox, Position } from "../../model/geojson.js";
import type { PolygonalGeometry } from "../../model/geojson.js";

/** True when the polygon is one ring, without holes, tracing the four corners of `bbox` along the axes. */
export function isBoxShaped(polygon: PolygonalGeometry, bbox: BBox): boolean {
  if (polygon.type !== "Polygon" || polygon.coordinates.length !== 1) return false;
  const ring = polygon.coordinates[0]!;
  if (ring.length !== 5 || !samePosition(ring[0]!, ring[4]!)) return false;
  const corners = new Set<string>();
  for (let index = 0; index < 4; index++) {
    const [x, y] = ring[index]!;
    const [nextX, nextY] = ring[index + 1]!;
    if ((x !== bbox.minX && x !== bbox.maxX) || (y !== bbox.minY && y !== bbox.maxY)) return false;
    // Each side runs along one axis: exactly one coordinate changes.
    if ((x === nextX) === (y === nextY)) return false;
    corners.add(`${x} ${y}`);
  }
  return corners.size === 4;
}

/** True when `inner` lies in `outer`, boundaries included. */
export function boxWithin(inner: BBox, outer: BBox): boolean {
  return inner.minX >= outer.minX && inner.maxX <= outer.maxX && inner.minY >= outer.minY && inner.maxY <= outer.maxY;
}

/** True when `inner` lies in the interior of `outer`, touching none of its sides. */
export function boxInInterior(inner: BBox, outer: BBox): boolean {
  return inner.minX > outer.minX && inner.maxX < outer.maxX && inner.minY > outer.minY && inner.maxY < outer.maxY;
}

function samePosition([x1, y1]: Position, [x2, y2]: Position): boolean {
  return x1 === x2 && y1 === y2;
}
