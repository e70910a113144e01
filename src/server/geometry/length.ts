/** Lengths on the sphere whose radius areas use (src/model/area.ts), by the haversine formula. */
import type { Position } from "../../model/geojson.js";
import { EARTH_RADIUS_M } from "../../model/area.js";

const RADIANS = Math.PI / 180;

/** The length of lines of [longitude, latitude] positions, in km. */
export function lengthKm(lines: readonly Position[][]): number {
  let metres = 0;
  for (const line of lines) {
    for (let i = 1; i < line.length; i++) {
      const [lon1, lat1] = line[i - 1]!;
      const [lon2, lat2] = line[i]!;
      const sinLat = Math.sin(((lat2 - lat1) * RADIANS) / 2);
      const sinLon = Math.sin(((lon2 - lon1) * RADIANS) / 2);
      const h = sinLat * sinLat + Math.cos(lat1 * RADIANS) * Math.cos(lat2 * RADIANS) * sinLon * sinLon;
      metres += 2 * EARTH_RADIUS_M * Math.asin(Math.min(1, Math.sqrt(h)));
    }
  }
  return metres / 1000;
}
