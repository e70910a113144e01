import { describe, expect, it } from "vitest";
import { MAX_PROBLEMS, polygonProblems } from "../../../src/server/geometry/validity.js";
import type { PolygonalGeometry } from "../../../src/model/geojson.js";
import type { Position } from "../../../src/model/geojson.js";
import { square } from "./helpers.js";

const polygon = (...rings: unknown[]): PolygonalGeometry => ({ type: "Polygon", coordinates: rings as Position[][] });

describe("polygonProblems", () => {
  it("finds nothing wrong with valid polygons and multipolygons", async () => {
    expect(await polygonProblems(polygon(square(7.41, 43.72, 7.43, 43.74)))).toEqual([]);
    expect(await polygonProblems(polygon(square(0, 0, 10, 10), square(2, 2, 4, 4)))).toEqual([]);
    expect(await polygonProblems({ type: "MultiPolygon", coordinates: [[square(0, 0, 1, 1)], [square(2, 2, 3, 3)]] })).toEqual([]);
    // Positions with an altitude are allowed by GeoJSON.
    expect(await polygonProblems(polygon([[0, 0, 5], [1, 0, 5], [1, 1, 5], [0, 0, 5]]))).toEqual([]);
  });

  it("names the location where a bow-tie crosses itself", async () => {
    const problems = await polygonProblems(polygon([[7.42, 43.73], [7.4224, 43.7322], [7.4224, 43.73], [7.42, 43.7322], [7.42, 43.73]]));
    expect(problems).toEqual([{ code: "invalid-topology", path: ["coordinates", 0], message: "the outer ring crosses itself near 7.4212 43.7311" }]);
  });

  it("says which rings are involved in topological errors", async () => {
    const crossing = await polygonProblems(polygon(square(0, 0, 10, 10), square(5, 5, 15, 6)));
    expect(crossing).toHaveLength(1);
    expect(crossing[0]!.message).toMatch(/^(the outer ring crosses hole 1|hole 1 crosses the outer ring) near 10 (5|6)$/);
    const outside = await polygonProblems(polygon(square(0, 0, 10, 10), square(20, 20, 21, 21)));
    expect(outside).toEqual([{ code: "invalid-topology", path: ["coordinates", 1], message: "hole 1 lies outside its outer ring near 20 20" }]);
    const nested = await polygonProblems({ type: "MultiPolygon", coordinates: [[square(0, 0, 10, 10)], [square(2, 2, 3, 3)]] });
    expect(nested[0]!.message).toMatch(/lies inside another polygon of the MultiPolygon near/);
    expect(nested[0]!.path).toEqual(["coordinates", 1, 0]);
    const collapsed = await polygonProblems(polygon([[1, 1], [1, 1], [1, 1], [1, 1]]));
    expect(collapsed[0]!.message).toMatch(/the outer ring has fewer than 3 distinct positions/);
  });

  it("reports unclosed and short rings with their path", async () => {
    expect(await polygonProblems(polygon([[0, 0], [1, 0], [1, 1], [0, 1]]))).toEqual([
      {
        code: "ring-not-closed",
        path: ["coordinates", 0, 3],
        message: "the outer ring is not closed: it starts at 0 0 but ends at 0 1; repeat the first position at the end",
      },
    ]);
    expect(await polygonProblems(polygon(square(0, 0, 10, 10), [[1, 1], [2, 2], [1, 1]]))).toEqual([
      { code: "ring-too-short", path: ["coordinates", 1], message: "hole 1 has 3 positions; a closed ring needs at least 4 (the first repeated at the end)" },
    ]);
    expect((await polygonProblems(polygon([[0, 0]])))[0]!.message).toBe(
      "the outer ring has 1 position; a closed ring needs at least 4 (the first repeated at the end)",
    );
  });

  it("reports out-of-range and non-finite coordinates at the coordinate itself", async () => {
    const problems = await polygonProblems(polygon([[0, 0], [181, 0], [1, -90.5], [NaN, 1], [0, Infinity], [0, 0]]));
    expect(problems).toEqual([
      { code: "longitude-out-of-range", path: ["coordinates", 0, 1, 0], message: "position 2 of the outer ring: the longitude 181 is outside [-180, 180]" },
      { code: "latitude-out-of-range", path: ["coordinates", 0, 2, 1], message: "position 3 of the outer ring: the latitude -90.5 is outside [-90, 90]" },
      { code: "not-finite", path: ["coordinates", 0, 3, 0], message: "position 4 of the outer ring: the longitude must be a finite number; found NaN" },
      { code: "not-finite", path: ["coordinates", 0, 4, 1], message: "position 5 of the outer ring: the latitude must be a finite number; found Infinity" },
    ]);
  });

  it("reports malformed structure instead of throwing", async () => {
    expect(await polygonProblems(polygon([[0, "1"], [1, 0], [1, 1], [0, "1"]]))).toContainEqual({
      code: "not-finite",
      path: ["coordinates", 0, 0, 1],
      message: 'position 1 of the outer ring: the latitude must be a finite number; found "1"',
    });
    expect(await polygonProblems(polygon([[0], [1, 0], [1, 1], [0]]))).toContainEqual({
      code: "not-a-position",
      path: ["coordinates", 0, 0],
      message: "position 1 of the outer ring must be a [longitude, latitude] pair; found [0]",
    });
    expect(await polygonProblems(polygon("ring"))).toEqual([{ code: "not-polygonal", path: ["coordinates", 0], message: "the outer ring must be a list of positions" }]);
    expect(await polygonProblems(polygon())).toEqual([{ code: "empty", path: ["coordinates"], message: "the polygon has no rings: it needs an outer ring" }]);
    expect(await polygonProblems({ type: "MultiPolygon", coordinates: [] })).toEqual([{ code: "empty", path: ["coordinates"], message: "the MultiPolygon has no polygons" }]);
    expect(await polygonProblems({ type: "MultiPolygon", coordinates: [[]] })).toEqual([
      { code: "empty", path: ["coordinates", 0], message: "polygon 1 has no rings: it needs an outer ring" },
    ]);
    const point = { type: "Point", coordinates: [0, 0] } as unknown as PolygonalGeometry;
    expect(await polygonProblems(point)).toEqual([{ code: "not-polygonal", path: ["type"], message: 'the area must be a Polygon or a MultiPolygon, not "Point"' }]);
  });

  it("describes a wrong position briefly, however deep or large it is", async () => {
    let deep: unknown = [7.42, 43.73];
    for (let level = 0; level < 100_000; level++) deep = [deep];
    const [nested] = await polygonProblems(polygon([[7.42, 43.73], deep, [7.43, 43.74], [7.42, 43.73]]));
    expect(nested).toEqual({ code: "not-a-position", path: ["coordinates", 0, 1], message: "position 2 of the outer ring must be a [longitude, latitude] pair; found [[[[…]]]]" });
    const [large] = await polygonProblems(polygon([[7.42, 43.73], [7.43, "x".repeat(1_000_000)], [7.43, 43.74], [7.42, 43.73]]));
    expect(large!.path).toEqual(["coordinates", 0, 1, 1]);
    expect(large!.message).toMatch(/^position 2 of the outer ring: the latitude must be a finite number; found "x{50,}…$/);
  });

  it("prefixes multipolygon parts and caps the number of problems", async () => {
    const problems = await polygonProblems({ type: "MultiPolygon", coordinates: [[square(0, 0, 1, 1)], [[[0, 0], [200, 0], [1, 1], [0, 0]]]] });
    expect(problems).toEqual([
      { code: "longitude-out-of-range", path: ["coordinates", 1, 0, 1, 0], message: "position 2 of polygon 2's outer ring: the longitude 200 is outside [-180, 180]" },
    ]);
    const broken = Array.from({ length: 500 }, (): Position => [NaN, 0]);
    const many = await polygonProblems(polygon(broken));
    expect(many).toHaveLength(MAX_PROBLEMS + 1);
    expect(many.at(-1)!.message).toBe("and 400 more problems");
  });
});
