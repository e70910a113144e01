import { describe, expect, it } from "vitest";
import { prepareArea } from "../../../src/server/geometry/geos.js";
import { type PolygonalGeometry } from "../../../src/model/geojson.js";
import { boxWithin, isBoxShaped } from "../../../src/server/geometry/rectangle.js";
import { geometryBBox, type BBox, type Position } from "../../../src/model/geojson.js";
import { square } from "./helpers.js";

const polygon = (...rings: Position[][]): PolygonalGeometry => ({ type: "Polygon", coordinates: rings });
const boxShaped = (geometry: PolygonalGeometry): boolean => isBoxShaped(geometry, geometryBBox(geometry));

describe("isBoxShaped", () => {
  it("recognises a box ring from any corner, in either direction", () => {
    const ring = square(7.41, 43.73, 7.43, 43.74);
    for (let start = 0; start < 4; start++) {
      const rotated = [...ring.slice(start, 4), ...ring.slice(0, start)];
      const closed = [...rotated, rotated[0]!];
      expect(boxShaped(polygon(closed)), JSON.stringify(closed)).toBe(true);
      expect(boxShaped(polygon([...closed].reverse())), JSON.stringify(closed)).toBe(true);
    }
  });

  it("refuses every other polygon", () => {
    const cases: Array<[string, PolygonalGeometry]> = [
      ["a trapezoid", polygon([[0, 0], [4, 0], [3, 2], [1, 2], [0, 0]])],
      ["a square turned 45°", polygon([[1, 0], [2, 1], [1, 2], [0, 1], [1, 0]])],
      ["a box with a hole", polygon(square(0, 0, 10, 10), square(2, 2, 8, 8))],
      ["a box with an extra vertex on a side", polygon([[0, 0], [5, 0], [10, 0], [10, 10], [0, 10], [0, 0]])],
      ["a box drawn across itself", polygon([[0, 0], [10, 0], [0, 10], [10, 10], [0, 0]])],
      ["a ring that repeats a corner", polygon([[0, 0], [10, 0], [10, 10], [10, 0], [0, 0]])],
      ["a ring that does not close", polygon([[0, 0], [10, 0], [10, 10], [0, 10], [0, 1]])],
      ["a MultiPolygon of one box", { type: "MultiPolygon", coordinates: [[square(0, 0, 1, 1)]] }],
    ];
    for (const [name, geometry] of cases) expect(boxShaped(geometry), name).toBe(false);
  });
});

describe("boxWithin", () => {
  it("counts boundaries as inside", () => {
    const outer: BBox = { minX: 0, minY: 0, maxX: 10, maxY: 10 };
    expect(boxWithin({ minX: 0, minY: 0, maxX: 10, maxY: 10 }, outer)).toBe(true);
    expect(boxWithin({ minX: 2, minY: 2, maxX: 2, maxY: 2 }, outer)).toBe(true);
    expect(boxWithin({ minX: -0.1, minY: 2, maxX: 3, maxY: 3 }, outer)).toBe(false);
    expect(boxWithin({ minX: 2, minY: 2, maxX: 3, maxY: 10.1 }, outer)).toBe(false);
  });
});

describe("a box-shaped area", () => {
  /** Boxes on a coarse grid, so that many share a side or a corner with the area. */
  function* boxes(): Generator<BBox> {
    for (let minX = -2; minX <= 10; minX += 2)
      for (let maxX = minX + 1; maxX <= 12; maxX += 3)
        for (let minY = -2; minY <= 10; minY += 2) for (let maxY = minY + 1; maxY <= 12; maxY += 3) yield { minX, minY, maxX, maxY };
  }

  it("answers containsBox and point tests as GEOS does for the same area drawn with an extra vertex", async () => {
    const fast = await prepareArea({ geometry: polygon(square(0, 0, 10, 10)) });
    // The same region, but not box-shaped to isBoxShaped: every answer comes from GEOS.
    const exact = await prepareArea({ geometry: polygon([[0, 0], [5, 0], [10, 0], [10, 10], [0, 10], [0, 0]]) });
    try {
      let inside = 0;
      for (const box of boxes()) {
        expect(fast.containsBox(box), JSON.stringify(box)).toBe(exact.containsBox(box));
        if (fast.containsBox(box)) inside++;
        for (const coordinates of [[box.minX, box.minY], [box.maxX, box.maxY]] as Position[]) {
          expect(fast.intersects({ type: "Point", coordinates }), JSON.stringify(coordinates)).toBe(exact.intersects({ type: "Point", coordinates }));
        }
      }
      // Both answers occur, boundaries among them.
      expect(inside).toBeGreaterThan(20);
      expect(fast.containsBox({ minX: 0, minY: 0, maxX: 10, maxY: 10 })).toBe(true);
      expect(fast.containsBox({ minX: 9, minY: 9, maxX: 11, maxY: 11 })).toBe(false);
    } finally {
      fast.dispose();
      exact.dispose();
    }
  });

  it("still tests lines and polygons exactly", async () => {
    const area = await prepareArea({ geometry: polygon(square(0, 0, 10, 10)) });
    try {
      // The line's box overlaps the area; the line itself passes outside the corner.
      expect(area.intersects({ type: "LineString", coordinates: [[9, 12], [12, 9]] })).toBe(false);
      expect(area.intersects({ type: "LineString", coordinates: [[9, 11], [11, 9]] })).toBe(true);
    } finally {
      area.dispose();
    }
  });

  it("refuses to be used after dispose()", async () => {
    const area = await prepareArea({ geometry: polygon(square(0, 0, 1, 1)) });
    area.dispose();
    expect(() => area.containsBox({ minX: 0.2, minY: 0.2, maxX: 0.3, maxY: 0.3 })).toThrow(/disposed/);
    expect(() => area.intersects({ type: "Point", coordinates: [0.5, 0.5] })).toThrow(/disposed/);
  });
});
