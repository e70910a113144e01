import { describe, expect, it } from "vitest";
import { buildPolygons, joinRings, pointInRing, signedArea, withWinding } from "../../../src/server/osm/rings.js";
import type { Ring } from "../../../src/server/osm/rings.js";
import type { Position } from "../../../src/model/geojson.js";

const square = (x: number, y: number, size: number): Ring => [[x, y], [x + size, y], [x + size, y + size], [x, y + size], [x, y]];

describe("joinRings", () => {
  it("joins pieces in any order and direction", () => {
    const pieces: Position[][] = [
      [[0, 4], [0, 0]],
      [[0, 0], [4, 0], [4, 4]],
      [[0, 4], [4, 4]], // runs against the ring's direction
    ];
    const result = joinRings(pieces);
    expect(result).toEqual({ rings: [[[0, 4], [0, 0], [4, 0], [4, 4], [0, 4]]], openChains: 0, degenerateRings: 0 });
  });

  it("keeps closed pieces as rings of their own", () => {
    expect(joinRings([square(0, 0, 1)]).rings).toEqual([square(0, 0, 1)]);
  });

  it("splits rings that touch where pieces meet", () => {
    const result = joinRings([
      [[0, 0], [1, 0], [1, 1]],
      [[1, 1], [2, 1], [2, 2]],
      [[2, 2], [1, 2], [1, 1]],
      [[1, 1], [0, 1], [0, 0]],
    ]);
    expect(result.rings).toEqual([
      [[1, 1], [2, 1], [2, 2], [1, 2], [1, 1]],
      [[0, 0], [1, 0], [1, 1], [0, 1], [0, 0]],
    ]);
  });

  it("counts a chain that cannot close", () => {
    const result = joinRings([
      [[0, 0], [1, 0], [1, 1]],
      [[1, 1], [0, 1]],
    ]);
    expect(result).toEqual({ rings: [], openChains: 1, degenerateRings: 0 });
  });

  it("counts a piece that runs out and back as degenerate", () => {
    const result = joinRings([
      [[0, 0], [1, 0]],
      [[1, 0], [0, 0]],
    ]);
    expect(result).toEqual({ rings: [], openChains: 0, degenerateRings: 1 });
  });
});

describe("ring geometry", () => {
  it("signed area is positive for counter-clockwise rings", () => {
    expect(signedArea(square(0, 0, 2))).toBe(4);
    expect(signedArea([...square(0, 0, 2)].reverse())).toBe(-4);
  });

  it("withWinding reverses only when needed", () => {
    const ccw = square(0, 0, 1);
    expect(withWinding(ccw, true)).toBe(ccw);
    expect(withWinding(ccw, false)).toEqual([...ccw].reverse());
  });

  it("pointInRing tells inside, boundary and outside apart", () => {
    const ring = square(0, 0, 2);
    expect(pointInRing([1, 1], ring)).toBe(1);
    expect(pointInRing([2, 1], ring)).toBe(0);
    expect(pointInRing([0, 0], ring)).toBe(0);
    expect(pointInRing([3, 1], ring)).toBe(-1);
  });
});

describe("buildPolygons", () => {
  it("puts each inner ring into the smallest outer ring containing it, with RFC 7946 winding", () => {
    const big = square(0, 0, 10);
    const island = square(2, 2, 6); // an outer ring inside big's hole
    const lake = square(1, 1, 8);
    const pond = square(4, 4, 1);
    const { polygons, orphanInners } = buildPolygons([big, island], [[...lake].reverse(), pond]);
    expect(orphanInners).toBe(0);
    expect(polygons).toEqual([
      [big, [...lake].reverse()],
      [island, [...pond].reverse()],
    ]);
  });

  it("accepts an inner ring touching its outer at a vertex", () => {
    const outer = square(0, 0, 4);
    const touching: Ring = [[0, 0], [2, 1], [1, 2], [0, 0]];
    const { polygons } = buildPolygons([outer], [touching]);
    expect(polygons[0]).toHaveLength(2);
  });

  it("counts and drops an inner ring outside every outer ring", () => {
    const { polygons, orphanInners } = buildPolygons([square(0, 0, 1)], [square(5, 5, 1)]);
    expect(orphanInners).toBe(1);
    expect(polygons).toEqual([[square(0, 0, 1)]]);
  });
});
