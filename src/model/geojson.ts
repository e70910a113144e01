/** The GeoJSON geometry shapes (RFC 7946) the store holds, in WGS84 lon/lat degrees. */

export type Position = [number, number];

export type Geometry =
  | { type: "Point"; coordinates: Position }
  | { type: "LineString"; coordinates: Position[] }
  | { type: "MultiLineString"; coordinates: Position[][] }
  | { type: "Polygon"; coordinates: Position[][] }
  | { type: "MultiPolygon"; coordinates: Position[][][] };

export interface BBox {
  minX: number;
  minY: number;
  maxX: number;
  maxY: number;
}

/** A box that holds nothing yet: extending it by a box gives that box. */
export function emptyBBox(): BBox {
  return { minX: Infinity, minY: Infinity, maxX: -Infinity, maxY: -Infinity };
}

/** Grows `target` in place to hold `box` too. */
export function extendBBox(target: BBox, box: BBox): void {
  target.minX = Math.min(target.minX, box.minX);
  target.minY = Math.min(target.minY, box.minY);
  target.maxX = Math.max(target.maxX, box.maxX);
  target.maxY = Math.max(target.maxY, box.maxY);
}

/** The bounding box of every position of a geometry. */
export function geometryBBox(geometry: Geometry): BBox {
  const box = emptyBBox();
  const extend = ([x, y]: Position): void => {
    if (x < box.minX) box.minX = x;
    if (x > box.maxX) box.maxX = x;
    if (y < box.minY) box.minY = y;
    if (y > box.maxY) box.maxY = y;
  };
  switch (geometry.type) {
    case "Point":
      extend(geometry.coordinates);
      break;
    case "LineString":
      geometry.coordinates.forEach(extend);
      break;
    case "MultiLineString":
    case "Polygon":
      for (const line of geometry.coordinates) line.forEach(extend);
      break;
    case "MultiPolygon":
      for (const polygon of geometry.coordinates) for (const ring of polygon) ring.forEach(extend);
      break;
  }
  return box;
}

/** True when the boxes share at least a point (touching counts). */
export function bboxesIntersect(a: BBox, b: BBox): boolean {
  return a.minX <= b.maxX && b.minX <= a.maxX && a.minY <= b.maxY && b.minY <= a.maxY;
}

/** Polygonal GeoJSON: what an area may be. */
export type PolygonalGeometry = Extract<Geometry, { type: "Polygon" | "MultiPolygon" }>;
