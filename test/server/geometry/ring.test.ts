import { describe, expect, it } from "vitest";
import { AreaSyntaxError, parseAreaRing } from "../../../src/server/geometry/ring.js";

function failure(text: string): AreaSyntaxError {
  try {
    parseAreaRing(text);
  } catch (error) {
    if (error instanceof AreaSyntaxError) return error;
    throw error;
  }
  throw new Error(`parsed ${JSON.stringify(text)}`);
}

describe("parseAreaRing", () => {
  it("reads a closed ring, tolerant of whitespace", () => {
    const expected = { type: "Polygon", coordinates: [[[7.41, 43.72], [7.43, 43.72], [7.43, 43.74], [7.41, 43.72]]] };
    expect(parseAreaRing("7.41 43.72, 7.43 43.72, 7.43 43.74, 7.41 43.72")).toEqual(expected);
    expect(parseAreaRing("  7.41\t43.72,7.43   43.72 ,\n7.43 43.74 ,7.41 43.72  ")).toEqual(expected);
    expect(parseAreaRing("-1.5e1 -.5, +10 -0.5, 10. 20, -15 -0.5").coordinates[0]).toEqual([[-15, -0.5], [10, -0.5], [10, 20], [-15, -0.5]]);
  });

  it.each([
    ["", "the area is empty: write the ring as \"lon lat, lon lat, ...\" with at least 4 pairs, the last equal to the first", null],
    ["   \n ", "the area is empty: write the ring as \"lon lat, lon lat, ...\" with at least 4 pairs, the last equal to the first", null],
    ["7.41 43.72", "the area has 1 pair, too few for a closed ring: write the ring as \"lon lat, lon lat, ...\" with at least 4 pairs, the last equal to the first", null],
    ["7.41 43.72, 7.43 43.72, 7.41 43.72", "the area has 3 pairs, too few for a closed ring: write the ring as \"lon lat, lon lat, ...\" with at least 4 pairs, the last equal to the first", null],
    ["7.41 43.72, 7.43 43.72, 7.42, 7.41 43.72", 'pair 3 ("7.42") needs a longitude and a latitude', 3],
    ["7.41 43.72, 7.43 43.72 7.43 43.74, 7.41 43.72", 'pair 2 ("7.43 43.72 7.43 43.74") has 4 values; give a longitude and a latitude, and separate pairs with commas', 2],
    ["7.41 43.72, 7.43 abc, 7.43 43.74, 7.41 43.72", 'pair 2 ("7.43 abc"): "abc" is not a number', 2],
    ["7.41 43.72, 0x10 1, 7.43 43.74, 7.41 43.72", 'pair 2 ("0x10 1"): "0x10" is not a number', 2],
    ["7.41 43.72, Infinity 1, 7.43 43.74, 7.41 43.72", 'pair 2 ("Infinity 1"): "Infinity" is not a number', 2],
    ["7.41 43.72, NaN 1, 7.43 43.74, 7.41 43.72", 'pair 2 ("NaN 1"): "NaN" is not a number', 2],
    ["7.41 43.72, 7.43 43.72, 7.43 43.74, 7.41 43.72,", "pair 5 is empty: remove the extra comma", 5],
    ["7.41 43.72,, 7.43 43.72, 7.43 43.74, 7.41 43.72", "pair 2 is empty: remove the extra comma", 2],
    ["7.41 43.72, 181 43.72, 7.43 43.74, 7.41 43.72", 'pair 2 ("181 43.72"): the longitude 181 is outside [-180, 180]', 2],
    ["7.41 43.72, 7.43 -91, 7.43 43.74, 7.41 43.72", 'pair 2 ("7.43 -91"): the latitude -91 is outside [-90, 90]', 2],
    ["7.41 43.72, 7.43 43.72, 7.43 43.74, 7.41 43.74", "the ring is not closed: pair 1 (7.41 43.72) differs from the last pair, 4 (7.41 43.74); repeat the first pair at the end", 4],
    ["'; DROP TABLE nodes; --", 'pair 1 ("\'; DROP TABLE nodes; --") has 5 values; give a longitude and a latitude, and separate pairs with commas', 1],
  ])("rejects %j", (text, message, pair) => {
    const error = failure(text);
    expect(error.message).toBe(message);
    expect(error.pair).toBe(pair);
  });
});
