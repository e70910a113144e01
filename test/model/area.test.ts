import { describe, expect, it } from "vitest";
import { areaKm2, EARTH_RADIUS_M } from "../../src/model/area.js";
import type { Position } from "../../src/model/geojson.js";

const cell = (minX: number, minY: number, maxX: number, maxY: number): Position[] => [
  [minX, minY],
  [maxX, minY],
  [maxX, maxY],
  [minX, maxY],
  [minX, minY],
];

/** A lon/lat rectangle on a sphere, in closed form: R² Δλ (sin φ2 − sin φ1). */
const exact = (minX: number, minY: number, maxX: number, maxY: number): number =>
  (EARTH_RADIUS_M ** 2 * ((maxX - minX) * Math.PI) / 180 * (Math.sin((maxY * Math.PI) / 180) - Math.sin((minY * Math.PI) / 180))) / 1e6;

describe("areaKm2", () => {
  it("gives 12,391 km² for a 1°×1° cell at the equator", () => {
    expect(areaKm2({ type: "Polygon", coordinates: [cell(0, 0, 1, 1)] })).toBeCloseTo(12391.4, 0);
  });

  it("matches the closed form for rectangles anywhere, whichever way the ring winds", () => {
    for (const [minX, minY, maxX, maxY] of [[7.4, 43.7, 7.45, 43.75], [-180, -90, 180, 90], [100, -60, 130, -10], [1.4, 42.4, 1.8, 42.7]] as const) {
      const ring = cell(minX, minY, maxX, maxY);
      const expected = exact(minX, minY, maxX, maxY);
      expect(areaKm2({ type: "Polygon", coordinates: [ring] })).toBeCloseTo(expected, 6);
      expect(areaKm2({ type: "Polygon", coordinates: [[...ring].reverse()] })).toBeCloseTo(expected, 6);
    }
  });

  it("matches turf's published example (with turf v6's radius, 6378137 m)", () => {
    // turf.area docs: polygon([[[125, -15], [113, -22], [154, -27], [144, -15], [125, -15]]]);
    // turf 6.5 returns 3339946239196.927 m² for it.
    const area = areaKm2({ type: "Polygon", coordinates: [[[125, -15], [113, -22], [154, -27], [144, -15], [125, -15]]] });
    expect(area).toBeCloseTo(3339946.239196927, 3);
  });

  it("subtracts holes and adds the parts of a MultiPolygon", () => {
    const outer = cell(0, 0, 1, 1);
    const hole = cell(0.25, 0.25, 0.75, 0.75);
    const withHole = areaKm2({ type: "Polygon", coordinates: [outer, hole] });
    expect(withHole).toBeCloseTo(exact(0, 0, 1, 1) - exact(0.25, 0.25, 0.75, 0.75), 6);
    // A hole wound the same way as its shell still subtracts.
    expect(areaKm2({ type: "Polygon", coordinates: [outer, [...hole].reverse()] })).toBeCloseTo(withHole, 6);
    expect(areaKm2({ type: "MultiPolygon", coordinates: [[outer, hole], [cell(10, 10, 11, 11)]] })).toBeCloseTo(withHole + exact(10, 10, 11, 11), 6);
  });

  it("is zero for degenerate input", () => {
    expect(areaKm2({ type: "Polygon", coordinates: [] })).toBe(0);
    expect(areaKm2({ type: "MultiPolygon", coordinates: [] })).toBe(0);
    expect(areaKm2({ type: "Polygon", coordinates: [[[0, 0], [1, 1], [0, 0]]] })).toBe(0);
    expect(areaKm2({ type: "Polygon", coordinates: [[[0, 0], [1, 0], [2, 0], [0, 0]]] })).toBe(0);
  });
});
