import initGeosJs from "geos-wasm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadGeos } from "../../../src/server/geometry/geos.js";
import type { FoundFeature } from "../../../src/model/query.js";
import { QUALITY_STATUSES, createQualityChecker } from "../../../src/server/quality/check.js";
import type { QualityChecker, QualityIssue } from "../../../src/server/quality/check.js";
import { loadQualityRules, parseQualityRules } from "../../../src/server/quality/rules.js";
import type { BBox, Geometry, Position } from "../../../src/model/geojson.js";
import { geometryBBox } from "../../../src/model/geojson.js";
import { closed, feature, fromMetres, polygon, polygonAt, quadrilateral } from "./helpers.js";

let checker: QualityChecker;
beforeAll(async () => {
  checker = await createQualityChecker(await loadQualityRules());
});
afterAll(() => checker.dispose());

const intersects = (a: BBox, b: BBox): boolean => a.minX <= b.maxX && b.minX <= a.maxX && a.minY <= b.maxY && b.minY <= a.maxY;

/** The issues of `found`, its neighbours taken from `world` (which may include it) as a store would give them. */
function issuesOf(found: FoundFeature, world: FoundFeature[] = [], using: QualityChecker = checker): QualityIssue[] {
  return using.check(found, (bbox) => world.filter(({ feature }) => intersects(bbox, geometryBBox(feature.geometry))));
}

const building = (osmId: number, geometry: Geometry, value = "yes"): FoundFeature => feature(osmId, { building: value }, geometry);

// Buildings of 10 m × 10 m in Monaco, placed in metres.
const LON = 7.42;
const LAT = 43.73;
const block = (east: number, north: number, width = 10, height = 10): Geometry =>
  polygonAt(LON, LAT, quadrilateral(width, height).map(([x, y]) => [x + east, y + north]));

describe("createQualityChecker with the default quality rules", () => {
  it("lists its statuses", () => {
    expect(QUALITY_STATUSES).toEqual(["badgeom", "overlapping", "duplicate", "badvalue", "incomplete"]);
  });

  it("finds nothing wrong with a square building at the equator or at 60°N", () => {
    expect(issuesOf(building(1, polygonAt(10, 0, quadrilateral(12, 9, { rotation: 30 }))))).toEqual([]);
    expect(issuesOf(building(1, polygonAt(10, 60, quadrilateral(12, 9, { rotation: 30 }))))).toEqual([]);
  });

  it("gives a 20°-skewed building badgeom with its worst corner", () => {
    const issues = issuesOf(building(1, polygonAt(10, 60, quadrilateral(12, 9, { skew: 20, rotation: 10 }))));
    expect(issues).toHaveLength(1);
    expect(issues[0]).toMatchObject({ status: "badgeom", source: "building" });
    expect(issues[0]!.values).toHaveLength(1);
    expect(issues[0]!.values[0]).toMatch(/^not square: (70\.0|110\.0)° corner at 10(\.\d{1,7})? 60(\.\d{1,7})?$/);
  });

  it("follows the squareness threshold of the quality rules", async () => {
    const lenient = await createQualityChecker(parseQualityRules({ sources: { building: { squareness: { threshold: 25 } } } }, "lenient"));
    const strict = await createQualityChecker(parseQualityRules({ sources: { building: { squareness: { threshold: 2 } } } }, "strict"));
    try {
      const skewed = building(1, polygonAt(10, 60, quadrilateral(12, 9, { skew: 20 })));
      expect(issuesOf(skewed, [], lenient)).toEqual([]);
      const slightly = building(2, polygonAt(10, 60, quadrilateral(12, 9, { skew: 5 })));
      expect(issuesOf(slightly)).toEqual([]);
      expect(issuesOf(slightly, [], strict)).toEqual([{ status: "badgeom", values: [expect.stringMatching(/^not square: (85\.0|95\.0)°/)], source: "building" }]);
    } finally {
      lenient.dispose();
      strict.dispose();
    }
  });

  it("gives a bow-tie badgeom with GEOS's reason and where, in one issue with its squareness", () => {
    const bowTie = building(1, polygon([7.42, 43.73], [7.4202, 43.7302], [7.4202, 43.73], [7.42, 43.7302]));
    const issues = issuesOf(bowTie);
    expect(issues).toHaveLength(1);
    expect(issues[0]!.status).toBe("badgeom");
    expect(issues[0]!.source).toBe("building");
    expect(issues[0]!.values[0]).toBe("invalid: Self-intersection at 7.4201 43.7301");
    expect(issues[0]!.values[1]).toMatch(/^not square: /);
  });

  it("gives a collapsed ring, and one GEOS cannot even build, badgeom rather than failing", () => {
    const collapsed: Geometry = { type: "Polygon", coordinates: [[[7.42, 43.73], [7.4201, 43.73], [7.42, 43.73]]] };
    const neighbour = building(2, block(0, 0));
    expect(issuesOf(building(1, collapsed), [neighbour])).toEqual([
      { status: "badgeom", values: ["invalid: Too few points in geometry component at 7.42 43.73"], source: "building" },
    ]);
    const unclosed: Geometry = { type: "Polygon", coordinates: [fromMetres(LON, LAT, [[2, 2], [8, 2], [8, 8], [2, 8]])] };
    const [issue] = issuesOf(building(1, unclosed), [neighbour]);
    expect(issue).toMatchObject({ status: "badgeom", source: "building" });
    expect(issue!.values).toEqual([expect.stringMatching(/^invalid: GEOS could not create a ring: .*closed/)]);
    // The neighbour's overlap test skips what GEOS cannot build.
    expect(issuesOf(neighbour, [neighbour, building(1, unclosed)])).toEqual([]);
  });

  it("gives two overlapping buildings overlapping, each naming the other", () => {
    const a = building(1, block(0, 0));
    const b = building(2, block(5, 5));
    const world = [a, b];
    expect(issuesOf(a, world)).toEqual([{ status: "overlapping", values: ["way/2"], source: "building" }]);
    expect(issuesOf(b, world)).toEqual([{ status: "overlapping", values: ["way/1"], source: "building" }]);
  });

  it("counts a building inside another as overlapping, and lists all it overlaps in one issue", () => {
    const big = building(1, block(0, 0, 30, 30));
    const inside = building(2, block(10, 10));
    const across = feature(3, { building: "house" }, { type: "MultiPolygon", coordinates: [[closed(fromMetres(LON, LAT, quadrilateral(10, 10).map(([x, y]) => [x + 25, y - 5])))]] }, "relations");
    expect(issuesOf(big, [across, inside, big])).toEqual([{ status: "overlapping", values: ["relation/3", "way/2"], source: "building" }]);
    expect(issuesOf(inside, [big, inside, across])).toEqual([{ status: "overlapping", values: ["way/1"], source: "building" }]);
  });

  it("does not count buildings sharing an edge or a corner as overlapping", () => {
    // Shared positions, as terraced houses drawn on shared nodes have.
    const left = building(1, polygon([0, 0], [0.0001, 0], [0.0001, 0.0001], [0, 0.0001]));
    const right = building(2, polygon([0.0001, 0], [0.0002, 0], [0.0002, 0.0001], [0.0001, 0.0001]));
    const corner = building(3, polygon([0.0002, 0.0001], [0.0003, 0.0001], [0.0003, 0.0002], [0.0002, 0.0002]));
    const world = [left, right, corner];
    for (const found of world) expect(issuesOf(found, world)).toEqual([]);
  });

  it("does not test invalid polygons for overlap: their interior is not defined", () => {
    const bowTie = building(1, polygon(...fromMetres(LON, LAT, [[0, 0], [10, 10], [10, 0], [0, 10]])));
    const square = building(2, block(2, 0, 6, 6));
    expect(issuesOf(bowTie, [bowTie, square]).map(({ status }) => status)).toEqual(["badgeom"]);
    expect(issuesOf(square, [bowTie, square])).toEqual([]);
  });

  it("compares buildings with buildings only", () => {
    const house = building(1, block(0, 0));
    const park = feature(2, { leisure: "park" }, block(-5, -5, 50, 50));
    const shopNode = feature(3, { building: "retail" }, { type: "Point", coordinates: fromMetres(LON, LAT, [[5, 5]])[0]! });
    expect(issuesOf(house, [house, park, shopNode])).toEqual([]);
  });

  it("does not mistake the feature itself for a duplicate, but tells tables apart", () => {
    const way = building(7, block(0, 0));
    expect(issuesOf(way, [way, { ...way, feature: { ...way.feature } }])).toEqual([]);
    const relation = feature(7, { building: "yes" }, way.feature.geometry, "relations");
    expect(issuesOf(way, [way, relation])).toEqual([{ status: "duplicate", values: ["relation/7"], source: "building" }]);
  });

  it("gives identical geometries duplicate, whatever the ring's start and direction, and not overlapping", () => {
    const ring = (block(0, 0) as { coordinates: Position[][] }).coordinates[0]!.slice(0, -1);
    const original = building(1, { type: "Polygon", coordinates: [closed(ring)] });
    const shifted = building(2, { type: "Polygon", coordinates: [closed([...ring.slice(2), ...ring.slice(0, 2)])] });
    const reversed = building(3, { type: "Polygon", coordinates: [closed([...ring].reverse())] });
    const asRelation = feature(4, { building: "yes" }, { type: "MultiPolygon", coordinates: [[closed([...ring.slice(1), ring[0]!].reverse())]] }, "relations");
    const world = [original, shifted, reversed, asRelation];
    expect(issuesOf(original, world)).toEqual([{ status: "duplicate", values: ["relation/4", "way/2", "way/3"], source: "building" }]);
    expect(issuesOf(reversed, world)).toEqual([{ status: "duplicate", values: ["relation/4", "way/1", "way/2"], source: "building" }]);
  });

  it("tells a duplicate from an overlap and from a shape with one more vertex", () => {
    const a = building(1, polygon([0, 0], [0.0001, 0], [0.0001, 0.0001], [0, 0.0001]));
    const same = building(2, polygon([0.0001, 0.0001], [0, 0.0001], [0, 0], [0.0001, 0]));
    const extraVertex = building(3, polygon([0, 0], [0.00005, 0], [0.0001, 0], [0.0001, 0.0001], [0, 0.0001]));
    expect(issuesOf(a, [a, same, extraVertex])).toEqual([
      { status: "overlapping", values: ["way/3"], source: "building" },
      { status: "duplicate", values: ["way/2"], source: "building" },
    ]);
  });

  it("finds duplicate highways drawn in either direction", () => {
    const line: Position[] = [[7.42, 43.73], [7.421, 43.731], [7.422, 43.7305]];
    const road = feature(1, { highway: "residential" }, { type: "LineString", coordinates: line });
    const copy = feature(2, { highway: "service" }, { type: "LineString", coordinates: [...line].reverse() });
    const other = feature(3, { highway: "residential" }, { type: "LineString", coordinates: line.slice(0, 2) });
    expect(issuesOf(road, [road, copy, other])).toEqual([{ status: "duplicate", values: ["way/2"], source: "highway" }]);
  });

  it("gives a value outside the allowed list badvalue, naming the tag", () => {
    expect(issuesOf(building(1, block(0, 0), "houes"))).toEqual([{ status: "badvalue", values: ["building=houes"], source: "building" }]);
    expect(issuesOf(feature(2, { highway: "primary_road" }, { type: "LineString", coordinates: [[0, 0], [1, 1]] }))).toEqual([
      { status: "badvalue", values: ["highway=primary_road"], source: "highway" },
    ]);
  });

  it("gives a feature lacking a required key incomplete, naming the key", () => {
    const school = feature(1, { amenity: "school" }, { type: "Point", coordinates: [7.42, 43.73] });
    expect(issuesOf(school)).toEqual([{ status: "incomplete", values: ["name"], source: "amenity" }]);
    expect(issuesOf(feature(1, { amenity: "school", name: "École" }, { type: "Point", coordinates: [7.42, 43.73] }))).toEqual([]);
    // Only the amenities the quality rules name.
    expect(issuesOf(feature(2, { amenity: "bench" }, { type: "Point", coordinates: [7.42, 43.73] }))).toEqual([]);
  });

  it("reports each source's issues separately, in the order of the quality rules", () => {
    const village = feature(1, { place: "vilage", building: "houes", amenity: "hospital" }, block(0, 0));
    expect(issuesOf(village)).toEqual([
      { status: "badvalue", values: ["building=houes"], source: "building" },
      { status: "badvalue", values: ["place=vilage"], source: "place" },
      { status: "incomplete", values: ["name"], source: "place" },
      { status: "incomplete", values: ["name"], source: "amenity" },
    ]);
  });

  it("asks for neighbours only when a check needs them, around the feature's bounding box", () => {
    const asked: BBox[] = [];
    const nearby = (bbox: BBox): FoundFeature[] => {
      asked.push(bbox);
      return [];
    };
    checker.check(feature(1, { amenity: "school", name: "A" }, { type: "Point", coordinates: [1, 2] }), nearby);
    expect(asked).toEqual([]);
    checker.check(building(1, block(0, 0)), nearby);
    expect(asked).toEqual([geometryBBox(block(0, 0))]);
  });
});

describe("tag rules", () => {
  it("look keys up as tags, never as Object.prototype members", async () => {
    const rules = parseQualityRules({ sources: { odd: { match: "toString", required: ["constructor"], values: { hasOwnProperty: ["x"] } } } }, "odd");
    const odd = await createQualityChecker(rules);
    try {
      expect(issuesOf(feature(1, { name: "x" }, { type: "Point", coordinates: [0, 0] }), [], odd)).toEqual([]);
      expect(issuesOf(feature(1, { toString: "1", hasOwnProperty: "y" }, { type: "Point", coordinates: [0, 0] }), [], odd)).toEqual([
        { status: "badvalue", values: ["hasOwnProperty=y"], source: "odd" },
        { status: "incomplete", values: ["constructor"], source: "odd" },
      ]);
    } finally {
      odd.dispose();
    }
  });
});

describe("QualityChecker.dispose", () => {
  it("refuses checks afterwards, and a second dispose() is harmless", async () => {
    const disposable = await createQualityChecker(await loadQualityRules());
    disposable.dispose();
    disposable.dispose();
    expect(() => disposable.check(building(1, block(0, 0)), () => [])).toThrow(/disposed/);
  });

  it("keeps GEOS memory flat over many checks and checkers", async () => {
    await loadGeos();
    const bytes = async (): Promise<number> => (await initGeosJs()).Module.HEAPU8.length;
    const rules = await loadQualityRules();
    const world: FoundFeature[] = [];
    for (let i = 0; i < 30; i++) world.push(building(i, block((i % 6) * 8, Math.floor(i / 6) * 8)));
    world.push(building(99, polygon([7.42, 43.73], [7.4202, 43.7302], [7.4202, 43.73], [7.42, 43.7302])));
    const round = async (): Promise<number> => {
      const local = await createQualityChecker(rules);
      let issues = 0;
      for (const found of world) issues += issuesOf(found, world, local).length;
      local.dispose();
      return issues;
    };
    for (let i = 0; i < 5; i++) await round();
    const before = await bytes();
    let issues = 0;
    for (let i = 0; i < 30; i++) issues += await round();
    expect(await bytes()).toBe(before);
    expect(issues).toBeGreaterThan(0);
  });
});
