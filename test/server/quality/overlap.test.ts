import { describe, expect, it } from "vitest";
import { geometryKey } from "../../../src/server/quality/overlap.js";
import type { Geometry, Position } from "../../../src/model/geojson.js";
import { square } from "../geometry/helpers.js";

const turn = (ring: Position[], by: number): Position[] => {
  const open = ring.slice(0, -1);
  const turned = [...open.slice(by), ...open.slice(0, by)];
  return [...turned, turned[0]!];
};
const reverse = (ring: Position[]): Position[] => [...ring].reverse();

describe("geometryKey", () => {
  it("ignores where rings start, their direction, the order of holes and of parts", () => {
    const shell = square(0, 0, 10, 10);
    const holeA = square(1, 1, 2, 2);
    const holeB = square(5, 5, 6, 7);
    const other = square(20, 20, 21, 21);
    const original: Geometry = { type: "MultiPolygon", coordinates: [[shell, holeA, holeB], [other]] };
    const shuffled: Geometry = { type: "MultiPolygon", coordinates: [[reverse(other)], [turn(shell, 3), turn(reverse(holeB), 1), holeA]] };
    expect(geometryKey(shuffled)).toBe(geometryKey(original));
    // A hole is not a shell: swapping their roles is another shape.
    expect(geometryKey({ type: "Polygon", coordinates: [holeA, shell] })).not.toBe(geometryKey({ type: "Polygon", coordinates: [shell, holeA] }));
  });

  it("takes a one-part Multi* geometry for its part, and lines in either direction", () => {
    const line: Position[] = [[0, 0], [1, 1], [2, 0]];
    expect(geometryKey({ type: "MultiLineString", coordinates: [reverse(line)] })).toBe(geometryKey({ type: "LineString", coordinates: line }));
    expect(geometryKey({ type: "MultiLineString", coordinates: [line, [[5, 5], [6, 6]]] })).toBe(
      geometryKey({ type: "MultiLineString", coordinates: [[[6, 6], [5, 5]], reverse(line)] }),
    );
    expect(geometryKey({ type: "MultiPolygon", coordinates: [[square(0, 0, 1, 1)]] })).toBe(geometryKey({ type: "Polygon", coordinates: [turn(square(0, 0, 1, 1), 2)] }));
  });

  it("tells apart what differs by a position, a vertex or a type", () => {
    const ring = square(0, 0, 1, 1);
    const key = geometryKey({ type: "Polygon", coordinates: [ring] });
    expect(geometryKey({ type: "Polygon", coordinates: [square(0, 0, 1, 1.0000001)] })).not.toBe(key);
    expect(geometryKey({ type: "Polygon", coordinates: [[[0, 0], [0.5, 0], [1, 0], [1, 1], [0, 1], [0, 0]]] })).not.toBe(key);
    expect(geometryKey({ type: "LineString", coordinates: ring })).not.toBe(key);
    expect(geometryKey({ type: "Point", coordinates: [0, 0] })).toBe(geometryKey({ type: "Point", coordinates: [0, 0] }));
    expect(geometryKey({ type: "Point", coordinates: [0, 0] })).not.toBe(geometryKey({ type: "Point", coordinates: [0, 1e-9] }));
  });

  it("reads a ring that touches itself from the same start whichever way it is drawn", () => {
    // The vertex (0, 0) appears twice: an hourglass-like ring through one node.
    const ring: Position[] = [[0, 0], [2, 1], [2, -1], [0, 0], [-2, 1], [-2, -1], [0, 0]];
    const key = geometryKey({ type: "Polygon", coordinates: [ring] });
    expect(geometryKey({ type: "Polygon", coordinates: [reverse(ring)] })).toBe(key);
    expect(geometryKey({ type: "Polygon", coordinates: [turn(ring, 3)] })).toBe(key);
    expect(geometryKey({ type: "Polygon", coordinates: [turn(ring, 1)] })).toBe(key);
  });
});
