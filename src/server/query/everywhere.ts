/** The area of a query without one. */
import type { AreaFilter } from "../../model/query.js";

/** Everywhere: no index restriction and no exact test to pay for. */
export const EVERYWHERE: AreaFilter = {
  geometry: null,
  bbox: { minX: -180, minY: -90, maxX: 180, maxY: 90 },
  intersects: () => true,
  containsBox: () => true,
  within: () => true,
  interiorContainsBox: () => true,
};
