/** Web Mercator tiles (z/x/y, as slippy maps number them) and the longitudes and latitudes they cover. */
import type { BBox } from "../../model/geojson.js";

/** True when x and y name a tile of zoom z: integers from 0 to 2^z - 1. */
export function isTile(z: number, x: number, y: number): boolean {
  const size = 2 ** z;
  return Number.isInteger(z) && z >= 0 && [x, y].every((value) => Number.isInteger(value) && value >= 0 && value < size);
}

/**
 * The box of longitudes and latitudes a tile covers, grown by `margin` (a fraction of the tile's
 * side) on every side. Mercator maps longitude and latitude each on its own axis, so a box of
 * the projection is a box of degrees too.
 */
export function tileBBox(z: number, x: number, y: number, margin = 0): BBox {
  const size = 2 ** z;
  const lon = (column: number) => (column / size) * 360 - 180;
  const lat = (row: number) => (Math.atan(Math.sinh(Math.PI * (1 - (2 * row) / size))) * 180) / Math.PI;
  return { minX: lon(x - margin), minY: lat(y + 1 + margin), maxX: lon(x + 1 + margin), maxY: lat(y - margin) };
}
