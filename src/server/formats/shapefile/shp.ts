/**
 * .shp/.shx record encoding (ESRI Shapefile Technical Description, 1998). Big-endian record
 * headers and file code, little-endian everything else; lengths are counted in 16-bit words.
 */
import type { BBox, Geometry, Position } from "../../../model/geojson.js";

export type ShapeKind = "point" | "line" | "poly";
export const SHAPE_TYPES: Record<ShapeKind, number> = { point: 1, line: 3, poly: 5 };
export const HEADER_BYTES = 100;

export function shapeKind(geometry: Geometry): ShapeKind {
  if (geometry.type === "Point") return "point";
  return geometry.type === "LineString" || geometry.type === "MultiLineString" ? "line" : "poly";
}

/** Twice the signed area: positive when the ring runs counter-clockwise (x east, y north). */
function signedArea(ring: Position[]): number {
  let sum = 0;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) sum += ring[j]![0] * ring[i]![1] - ring[i]![0] * ring[j]![1];
  return sum;
}

/** The spec's orientation: readers tell outer rings from holes by it (outer clockwise, holes counter-clockwise). */
function oriented(ring: Position[], clockwise: boolean): Position[] {
  return signedArea(ring) < 0 === clockwise ? ring : [...ring].reverse();
}

function parts(geometry: Exclude<Geometry, { type: "Point" }>): Position[][] {
  switch (geometry.type) {
    case "LineString":
      return [geometry.coordinates];
    case "MultiLineString":
      return geometry.coordinates;
    case "Polygon":
      return geometry.coordinates.map((ring, i) => oriented(ring, i === 0));
    case "MultiPolygon":
      return geometry.coordinates.flatMap((polygon) => polygon.map((ring, i) => oriented(ring, i === 0)));
  }
}

/** One record's content (without its 8-byte record header). */
export function shapeContent(geometry: Geometry, box: BBox): Buffer {
  if (geometry.type === "Point") {
    const content = Buffer.alloc(20);
    content.writeInt32LE(SHAPE_TYPES.point, 0);
    content.writeDoubleLE(geometry.coordinates[0], 4);
    content.writeDoubleLE(geometry.coordinates[1], 12);
    return content;
  }
  const lines = parts(geometry);
  const pointCount = lines.reduce((sum, line) => sum + line.length, 0);
  const content = Buffer.alloc(44 + 4 * lines.length + 16 * pointCount);
  content.writeInt32LE(SHAPE_TYPES[shapeKind(geometry)], 0);
  writeBox(content, 4, box);
  content.writeInt32LE(lines.length, 36);
  content.writeInt32LE(pointCount, 40);
  let partOffset = 44;
  let pointOffset = 44 + 4 * lines.length;
  let first = 0;
  for (const line of lines) {
    content.writeInt32LE(first, partOffset);
    partOffset += 4;
    first += line.length;
    for (const [x, y] of line) {
      content.writeDoubleLE(x, pointOffset);
      content.writeDoubleLE(y, pointOffset + 8);
      pointOffset += 16;
    }
  }
  return content;
}

function writeBox(buffer: Buffer, offset: number, box: BBox): void {
  buffer.writeDoubleLE(box.minX, offset);
  buffer.writeDoubleLE(box.minY, offset + 8);
  buffer.writeDoubleLE(box.maxX, offset + 16);
  buffer.writeDoubleLE(box.maxY, offset + 24);
}

/** The 100-byte header shared by .shp and .shx, once the file's length and extent are known. */
export function fileHeader(kind: ShapeKind, fileBytes: number, box: BBox): Buffer {
  const header = Buffer.alloc(HEADER_BYTES);
  header.writeInt32BE(9994, 0);
  header.writeInt32BE(fileBytes / 2, 24);
  header.writeInt32LE(1000, 28);
  header.writeInt32LE(SHAPE_TYPES[kind], 32);
  writeBox(header, 36, box);
  return header;
}
