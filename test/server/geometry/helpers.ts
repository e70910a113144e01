import type { Position } from "../../../src/model/geojson.js";

/** The closed ring of an axis-aligned rectangle, counter-clockwise. */
export const square = (minX: number, minY: number, maxX: number, maxY: number): Position[] => [
  [minX, minY],
  [maxX, minY],
  [maxX, maxY],
  [minX, maxY],
  [minX, minY],
];
