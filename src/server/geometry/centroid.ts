/**
 * The centroid of a stored geometry, for list answers that give one point per feature.
 * Computed in the plane of lon/lat degrees, as GEOS and PostGIS's ST_Centroid do for
 * EPSG:4326, so both stores agree: area-weighted for polygons, length-weighted for lines.
 */
import { toOsmPrecision } from "../../model/osm.js";
import type { Geometry, Position } from "../../model/geojson.js";

/**
 * On OSM's grid of 1e-7 degrees (about a centimetre), as OSM keeps coordinates: the digits
 * beyond it are floating-point noise (1.1970724499999998), not precision.
 */
export function centroid(geometry: Geometry): Position {
  const [lon, lat] = exactCentroid(geometry);
  return [toOsmPrecision(lon), toOsmPrecision(lat)];
}

function exactCentroid(geometry: Geometry): Position {
  switch (geometry.type) {
    case "Point":
      return [geometry.coordinates[0], geometry.coordinates[1]];
    case "LineString":
      return linesCentroid([geometry.coordinates]);
    case "MultiLineString":
      return linesCentroid(geometry.coordinates);
    case "Polygon":
      return polygonsCentroid([geometry.coordinates]);
    case "MultiPolygon":
      return polygonsCentroid(geometry.coordinates);
  }
}

function polygonsCentroid(polygons: Position[][][]): Position {
  const origin = polygons[0]?.[0]?.[0];
  if (!origin) return [NaN, NaN];
  // Relative to one of its own vertices: small buildings far from (0, 0) would otherwise lose
  // most of their digits to cancellation in the cross products.
  const [ox, oy] = origin;
  let area = 0;
  let mx = 0;
  let my = 0;
  for (const [outer, ...holes] of polygons) {
    const rings = outer ? [{ ring: outer, sign: 1 }, ...holes.map((ring) => ({ ring, sign: -1 }))] : [];
    for (const { ring, sign } of rings) {
      let ringArea = 0;
      let ringX = 0;
      let ringY = 0;
      for (let i = 1; i < ring.length; i++) {
        const ax = ring[i - 1]![0] - ox;
        const ay = ring[i - 1]![1] - oy;
        const bx = ring[i]![0] - ox;
        const by = ring[i]![1] - oy;
        const cross = ax * by - bx * ay;
        ringArea += cross;
        ringX += (ax + bx) * cross;
        ringY += (ay + by) * cross;
      }
      // Outer rings add and holes subtract whatever way they wind.
      const weight = ringArea < 0 ? -sign : sign;
      area += (weight * ringArea) / 2;
      mx += (weight * ringX) / 6;
      my += (weight * ringY) / 6;
    }
  }
  if (area === 0) return linesCentroid(polygons.flat());
  return [ox + mx / area, oy + my / area];
}

function linesCentroid(lines: Position[][]): Position {
  let length = 0;
  let mx = 0;
  let my = 0;
  for (const line of lines) {
    for (let i = 1; i < line.length; i++) {
      const [ax, ay] = line[i - 1]!;
      const [bx, by] = line[i]!;
      const segment = Math.hypot(bx - ax, by - ay);
      length += segment;
      mx += ((ax + bx) / 2) * segment;
      my += ((ay + by) / 2) * segment;
    }
  }
  // A line of zero length is a point: any of its positions.
  if (length === 0) {
    const first = lines.find((line) => line.length > 0)?.[0];
    return first ? [first[0], first[1]] : [NaN, NaN];
  }
  return [mx / length, my / length];
}
