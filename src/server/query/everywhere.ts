/** The area of a query without one. */
import type { AreaFilter } from "../../model/query.js";

/** Everywhere: no index restriction, and nothing to test exactly. */
export const EVERYWHERE: AreaFilter = {
  geometry: null,
  bbox: { minX: -180, minY: -90, maxX: 180, maxY: 90 },
};
