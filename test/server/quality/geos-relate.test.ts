import { describe, expect, it } from "vitest";
import { GeosError, loadGeos } from "../../../src/server/geometry/geos.js";
import type { Geometry } from "../../../src/model/geojson.js";
import { square } from "../geometry/helpers.js";

const box = (minX: number, minY: number, maxX: number, maxY: number): Geometry => ({ type: "Polygon", coordinates: [square(minX, minY, maxX, maxY)] });

describe("Geos relate patterns", () => {
  it("matches DE-9IM patterns against a prepared geometry", async () => {
    const geos = await loadGeos();
    const interiors = geos.pattern("T********");
    const touchOnly = geos.pattern("F***T****");
    try {
      const relate = (a: Geometry, b: Geometry, pattern: number): boolean =>
        geos.with(a, (pointer) => {
          const prepared = geos.prepare(pointer);
          try {
            return geos.with(b, (other) => geos.preparedRelatePattern(prepared, other, pattern));
          } finally {
            geos.destroyPrepared(prepared);
          }
        });
      const unit = box(0, 0, 1, 1);
      expect(relate(unit, box(0.5, 0.5, 2, 2), interiors)).toBe(true); // overlap
      expect(relate(unit, box(0.2, 0.2, 0.4, 0.4), interiors)).toBe(true); // inside
      expect(relate(unit, box(1, 0, 2, 1), interiors)).toBe(false); // shared edge
      expect(relate(unit, box(1, 0, 2, 1), touchOnly)).toBe(true);
      expect(relate(unit, box(1, 1, 2, 2), interiors)).toBe(false); // shared corner
      expect(relate(unit, box(3, 3, 4, 4), interiors)).toBe(false);
      expect(relate(unit, { type: "Point", coordinates: [0.5, 0.5] }, interiors)).toBe(true);
      expect(relate(unit, { type: "Point", coordinates: [1, 0.5] }, interiors)).toBe(false);
    } finally {
      geos.freePattern(interiors);
      geos.freePattern(touchOnly);
    }
  });

  it("refuses what is not a DE-9IM pattern", async () => {
    const geos = await loadGeos();
    for (const text of ["T*******", "T*********", "t********", "X********"]) {
      expect(() => geos.pattern(text), text).toThrow(GeosError);
      expect(() => geos.pattern(text), text).toThrow(`${JSON.stringify(text)} is not a DE-9IM pattern`);
    }
  });
});
