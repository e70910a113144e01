import { describe, expect, it } from "vitest";
import type { PolygonalGeometry } from "../../../src/model/geojson.js";
import { worstCorner } from "../../../src/server/quality/squareness.js";
import type { Position } from "../../../src/model/geojson.js";
import { closed, fromMetres, polygonAt, quadrilateral } from "./helpers.js";

const at = (lon: number, lat: number, metres: Array<[number, number]>): PolygonalGeometry => polygonAt(lon, lat, metres) as PolygonalGeometry;

describe("worstCorner", () => {
  it("finds no bad corner in a square, turned or not, at the equator and at 60°N", () => {
    for (const lat of [0, 60, -60]) {
      for (const rotation of [0, 30, 45]) {
        expect(worstCorner(at(10, lat, quadrilateral(12, 12, { rotation })), 10), `${lat}°, turned ${rotation}°`).toBeNull();
        expect(worstCorner(at(10, lat, quadrilateral(20, 8, { rotation })), 0.001), `${lat}°, 20 × 8 m, turned ${rotation}°`).toBeNull();
      }
    }
  });

  it("measures in metres: a square drawn square in degrees at 60°N is a skewed building", () => {
    // The equator's turned square, its degree offsets moved to 60°N: twice as narrow on the ground.
    const equator = fromMetres(0, 0, quadrilateral(12, 12, { rotation: 30 }));
    const moved: Position[] = equator.map(([lon, lat]) => [lon, lat + 60]);
    const corner = worstCorner({ type: "Polygon", coordinates: [closed(moved)] }, 10);
    expect(corner).not.toBeNull();
    expect(Math.abs(corner!.angle - 90)).toBeGreaterThan(30);
  });

  it("reports a 20°-skewed building, with its worst corner", () => {
    const corner = worstCorner(at(10, 60, quadrilateral(12, 8, { skew: 20 })), 10);
    expect(corner).not.toBeNull();
    expect([70, 110].map((angle) => Math.abs(corner!.angle - angle) < 1e-6)).toContain(true);
    const [lon, lat] = corner!.position;
    expect(Math.abs(lon - 10)).toBeLessThan(0.001);
    expect(Math.abs(lat - 60)).toBeLessThan(0.001);
  });

  it("honours the threshold", () => {
    const skewed = at(10, 45, quadrilateral(12, 8, { skew: 20 }));
    expect(worstCorner(skewed, 19.9)).not.toBeNull();
    expect(worstCorner(skewed, 20.1)).toBeNull();
    expect(worstCorner(skewed, 25)).toBeNull();
    const slightly = at(10, 45, quadrilateral(12, 8, { skew: 3 }));
    expect(worstCorner(slightly, 10)).toBeNull();
    expect(worstCorner(slightly, 2)!.angle).toBeCloseTo(93, 6);
  });

  it("ignores near-straight corners but not bevels", () => {
    // A node on the top wall, which bends by 4°.
    const bend = 6 * Math.tan((4 * Math.PI) / 180);
    const kinked = at(10, 45, [[0, 0], [12, 0], [12, 8], [6, 8 + bend], [0, 8]]);
    expect(worstCorner(kinked, 10)).toBeNull();
    expect(worstCorner(kinked, 3)!.angle).toBeCloseTo(172, 6);
    // A 45° bevel across one corner: two 135° corners.
    const bevelled = at(10, 45, [[0, 0], [12, 0], [12, 5], [9, 8], [0, 8]]);
    expect(worstCorner(bevelled, 10)!.angle).toBeCloseTo(135, 6);
  });

  it("skips repeated nodes and checks holes and every part", () => {
    const square = fromMetres(10, 45, quadrilateral(12, 12));
    const repeated = closed([square[0]!, square[1]!, square[1]!, square[2]!, square[3]!]);
    expect(worstCorner({ type: "Polygon", coordinates: [repeated] }, 10)).toBeNull();
    const skewedHole = closed(fromMetres(10.00003, 45.00003, quadrilateral(4, 4, { skew: 25 })));
    expect(worstCorner({ type: "Polygon", coordinates: [closed(square), skewedHole] }, 10)).not.toBeNull();
    const skewedPart = closed(fromMetres(10.001, 45, quadrilateral(4, 4, { skew: 25 })));
    expect(worstCorner({ type: "MultiPolygon", coordinates: [[closed(square)], [skewedPart]] }, 10)).not.toBeNull();
  });

  it("handles a building across the antimeridian", () => {
    const square = fromMetres(179.99995, -16.5, quadrilateral(12, 12)).map(([lon, lat]): Position => [lon > 180 ? lon - 360 : lon, lat]);
    expect(square.some(([lon]) => lon < 0)).toBe(true);
    expect(worstCorner({ type: "Polygon", coordinates: [closed(square)] }, 10)).toBeNull();
  });

  it("finds nothing to measure in a degenerate ring", () => {
    expect(worstCorner({ type: "Polygon", coordinates: [[[1, 1], [2, 2], [1, 1]]] }, 10)).toBeNull();
    expect(worstCorner({ type: "Polygon", coordinates: [] }, 10)).toBeNull();
  });
});
