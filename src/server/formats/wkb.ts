/** ISO WKB, little-endian, 2D: the geometry encoding inside GeoPackage blobs. */
import type { Geometry, Position } from "../../model/geojson.js";

const WKB_TYPES = { Point: 1, LineString: 2, Polygon: 3, MultiLineString: 5, MultiPolygon: 6 } as const;

function byteLength(geometry: Geometry): number {
  const line = (points: Position[]): number => 4 + 16 * points.length;
  const polygon = (rings: Position[][]): number => 4 + rings.reduce((sum, ring) => sum + line(ring), 0);
  switch (geometry.type) {
    case "Point":
      return 5 + 16;
    case "LineString":
      return 5 + line(geometry.coordinates);
    case "Polygon":
      return 5 + polygon(geometry.coordinates);
    case "MultiLineString":
      return 5 + 4 + geometry.coordinates.reduce((sum, part) => sum + 5 + line(part), 0);
    case "MultiPolygon":
      return 5 + 4 + geometry.coordinates.reduce((sum, part) => sum + 5 + polygon(part), 0);
  }
}

/** Writes `geometry` as WKB into `view` at `offset`; returns the offset after it. */
function writeWkb(view: DataView, offset: number, geometry: Geometry): number {
  const header = (type: number): void => {
    view.setUint8(offset, 1);
    view.setUint32(offset + 1, type, true);
    offset += 5;
  };
  const count = (n: number): void => {
    view.setUint32(offset, n, true);
    offset += 4;
  };
  const point = ([x, y]: Position): void => {
    view.setFloat64(offset, x, true);
    view.setFloat64(offset + 8, y, true);
    offset += 16;
  };
  const line = (points: Position[]): void => {
    count(points.length);
    points.forEach(point);
  };
  const polygon = (rings: Position[][]): void => {
    count(rings.length);
    rings.forEach(line);
  };
  header(WKB_TYPES[geometry.type]);
  switch (geometry.type) {
    case "Point":
      point(geometry.coordinates);
      break;
    case "LineString":
      line(geometry.coordinates);
      break;
    case "Polygon":
      polygon(geometry.coordinates);
      break;
    case "MultiLineString":
      count(geometry.coordinates.length);
      for (const part of geometry.coordinates) {
        header(WKB_TYPES.LineString);
        line(part);
      }
      break;
    case "MultiPolygon":
      count(geometry.coordinates.length);
      for (const part of geometry.coordinates) {
        header(WKB_TYPES.Polygon);
        polygon(part);
      }
      break;
  }
  return offset;
}

/** The geometry as WKB after `prefixLength` bytes that the caller fills (a GeoPackage header). */
export function toWkb(geometry: Geometry, prefixLength = 0): Buffer {
  const buffer = Buffer.alloc(prefixLength + byteLength(geometry));
  writeWkb(new DataView(buffer.buffer, buffer.byteOffset, buffer.byteLength), prefixLength, geometry);
  return buffer;
}
