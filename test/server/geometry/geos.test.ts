import initGeosJs from "geos-wasm";
import { describe, expect, it } from "vitest";
import { areaKm2 } from "../../../src/model/area.js";
import { GeosError, loadGeos, prepareArea, withPreparedArea, type PreparedArea } from "../../../src/server/geometry/geos.js";
import { areaOf } from "../../../src/model/query.js";
import type { Geometry, Position } from "../../../src/model/geojson.js";
import { square } from "./helpers.js";


/** Bytes of WebAssembly memory: it only ever grows, so a leak shows up as growth. */
async function wasmBytes(): Promise<number> {
  await loadGeos();
  // initGeosJs hands back the module loadGeos() initialised (it is created once per process).
  return (await initGeosJs()).Module.HEAPU8.length;
}

describe("prepareArea", () => {
  it("tests points, lines and polygons exactly, boundary included", async () => {
    // An L: the bounding box's top right quarter is outside.
    const filter = areaOf({ type: "Polygon", coordinates: [[[0, 0], [10, 0], [10, 5], [5, 5], [5, 10], [0, 10], [0, 0]]] });
    const area = await prepareArea(filter);
    try {
      expect(filter.bbox).toEqual({ minX: 0, minY: 0, maxX: 10, maxY: 10 });
      const cases: Array<[Geometry, boolean]> = [
        [{ type: "Point", coordinates: [2, 2] }, true],
        [{ type: "Point", coordinates: [7, 7] }, false], // in the box, outside the L
        [{ type: "Point", coordinates: [10, 2] }, true], // on the boundary
        [{ type: "Point", coordinates: [20, 2] }, false],
        [{ type: "LineString", coordinates: [[6, 6], [9, 9]] }, false],
        [{ type: "LineString", coordinates: [[6, 6], [9, 9], [9, 4]] }, true],
        [{ type: "MultiLineString", coordinates: [[[6, 6], [7, 7]], [[1, 1], [2, 2]]] }, true],
        [{ type: "Polygon", coordinates: [square(6, 6, 9, 9)] }, false],
        [{ type: "Polygon", coordinates: [square(5, 5, 9, 9)] }, true], // touches at the corner
        [{ type: "MultiPolygon", coordinates: [[square(6, 6, 9, 9)], [square(1, 1, 2, 2)]] }, true],
        // A polygon around the whole area intersects it although no vertex is inside.
        [{ type: "Polygon", coordinates: [square(-1, -1, 11, 11)] }, true],
      ];
      for (const [geometry, expected] of cases) expect(area.intersects(geometry), JSON.stringify(geometry)).toBe(expected);
    } finally {
      area.dispose();
    }
  });

  it("honours holes and every part of a MultiPolygon", async () => {
    const area = await prepareArea({
      geometry: { type: "MultiPolygon", coordinates: [[square(0, 0, 10, 10), square(2, 2, 8, 8)], [square(20, 20, 21, 21)]] },
    });
    expect(area.intersects({ type: "Point", coordinates: [5, 5] })).toBe(false);
    expect(area.intersects({ type: "Point", coordinates: [1, 5] })).toBe(true);
    expect(area.intersects({ type: "Point", coordinates: [20.5, 20.5] })).toBe(true);
    expect(area.intersects({ type: "Polygon", coordinates: [square(3, 3, 4, 4)] })).toBe(false);
    area.dispose();
  });

  it("tells what lies within the area (PostGIS's ST_Within) and which boxes lie in its interior", async () => {
    const area = await prepareArea({ geometry: { type: "Polygon", coordinates: [[[0, 0], [10, 0], [10, 5], [5, 5], [5, 10], [0, 10], [0, 0]]] } });
    try {
      const cases: Array<[Geometry, boolean]> = [
        [{ type: "Point", coordinates: [2, 2] }, true],
        [{ type: "Point", coordinates: [10, 2] }, false], // on the boundary: not within
        [{ type: "Point", coordinates: [7, 7] }, false],
        [{ type: "LineString", coordinates: [[1, 1], [4, 4]] }, true],
        [{ type: "LineString", coordinates: [[0, 0], [10, 0]] }, false], // along the edge only
        [{ type: "LineString", coordinates: [[4, 4], [6, 6]] }, false], // crosses into the notch
        [{ type: "Polygon", coordinates: [square(1, 1, 4, 4)] }, true],
        [{ type: "Polygon", coordinates: [square(0, 0, 5, 5)] }, true], // its edges on the area's: still within
        [{ type: "Polygon", coordinates: [square(4, 4, 6, 6)] }, false],
        [{ type: "MultiPolygon", coordinates: [[square(1, 1, 2, 2)], [square(20, 20, 21, 21)]] }, false],
      ];
      for (const [geometry, expected] of cases) expect(area.within(geometry), JSON.stringify(geometry)).toBe(expected);
      expect(area.interiorContainsBox({ minX: 1, minY: 1, maxX: 4, maxY: 4 })).toBe(true);
      expect(area.interiorContainsBox({ minX: 0, minY: 1, maxX: 4, maxY: 4 })).toBe(false); // touches the edge
      expect(area.interiorContainsBox({ minX: 4, minY: 4, maxX: 6, maxY: 6 })).toBe(false);
    } finally {
      area.dispose();
    }
    // A box-shaped area answers from its box, as GEOS would.
    const box = await prepareArea({ geometry: { type: "Polygon", coordinates: [square(0, 0, 10, 10)] } });
    expect(box.within({ type: "Point", coordinates: [10, 5] })).toBe(false);
    expect(box.within({ type: "Point", coordinates: [9.99, 5] })).toBe(true);
    expect(box.interiorContainsBox({ minX: 1, minY: 1, maxX: 10, maxY: 2 })).toBe(false);
    expect(box.interiorContainsBox({ minX: 1, minY: 1, maxX: 9, maxY: 2 })).toBe(true);
    box.dispose();
  });

  it("unites polygons: overlapping and adjacent ones into one polygon, apart ones into a MultiPolygon", async () => {
    const geos = await loadGeos();
    const adjacent = geos.unionPolygons([
      { type: "Polygon", coordinates: [square(0, 0, 1, 1)] },
      { type: "Polygon", coordinates: [square(1, 0, 2, 1)] },
      { type: "Polygon", coordinates: [square(0.5, 0.5, 1.5, 1.5)] },
    ]);
    expect(adjacent.type).toBe("Polygon");
    expect(areaKm2(adjacent)).toBeCloseTo(areaKm2({ type: "Polygon", coordinates: [square(0, 0, 2, 1)] }) + areaKm2({ type: "Polygon", coordinates: [square(0.5, 1, 1.5, 1.5)] }), 6);
    const apart = geos.unionPolygons([{ type: "Polygon", coordinates: [square(0, 0, 1, 1)] }, { type: "MultiPolygon", coordinates: [[square(5, 5, 6, 6), square(5.2, 5.2, 5.4, 5.4)]] }]);
    expect(apart.type).toBe("MultiPolygon");
    expect(apart.coordinates).toHaveLength(2);
    // The hole survives: its ring is the second of its polygon.
    expect((apart as Extract<typeof apart, { type: "MultiPolygon" }>).coordinates.map((polygon) => polygon.length).sort()).toEqual([1, 2]);
  });

  it("refuses to be used after dispose(), and dispose() twice is harmless", async () => {
    const area = await prepareArea({ geometry: { type: "Polygon", coordinates: [square(0, 0, 1, 1)] } });
    area.dispose();
    area.dispose();
    expect(() => area.intersects({ type: "Point", coordinates: [0.5, 0.5] })).toThrow(/disposed/);
  });

  it("holds everything everywhere (no geometry), with nothing to free", async () => {
    const everywhere = await prepareArea({ geometry: null });
    expect(everywhere.intersects({ type: "Point", coordinates: [179, -89] })).toBe(true);
    expect(everywhere.within({ type: "LineString", coordinates: [[0, 0], [1, 1]] })).toBe(true);
    expect(everywhere.containsBox({ minX: -180, minY: -90, maxX: 180, maxY: 90 })).toBe(true);
    expect(everywhere.interiorContainsBox({ minX: 0, minY: 0, maxX: 1, maxY: 1 })).toBe(true);
    everywhere.dispose();
    expect(everywhere.intersects({ type: "Point", coordinates: [0, 0] })).toBe(true);
  });

  it("frees the area withPreparedArea prepared when its use throws, and hands back what it answers", async () => {
    const filter = areaOf({ type: "Polygon", coordinates: [square(0, 0, 1, 1)] });
    expect(await withPreparedArea(filter, (area) => area.intersects({ type: "Point", coordinates: [0.5, 0.5] }))).toBe(true);
    let used: PreparedArea | undefined;
    await expect(
      withPreparedArea(filter, (area) => {
        used = area;
        throw new Error("the use failed");
      }),
    ).rejects.toThrow("the use failed");
    expect(() => used!.intersects({ type: "Point", coordinates: [0.5, 0.5] })).toThrow(/disposed/);
  });

  it("reports what GEOS cannot build as a GeosError, without leaking", async () => {
    const unclosed = { type: "Polygon" as const, coordinates: [[[0, 0], [1, 0], [1, 1], [0, 1]] as Position[]] };
    await expect(prepareArea({ geometry: unclosed })).rejects.toThrow(GeosError);
    await expect(prepareArea({ geometry: unclosed })).rejects.toThrow(/closed/);
    const before = await wasmBytes();
    for (let i = 0; i < 20_000; i++) await prepareArea({ geometry: unclosed }).catch(() => undefined);
    expect(await wasmBytes()).toBe(before);
  });

  it("keeps memory flat over 100,000 exact tests on one prepared polygon", async () => {
    const ring: Position[] = [];
    for (let i = 0; i < 200; i++) {
      const angle = (2 * Math.PI * i) / 200;
      const radius = i % 2 === 0 ? 1 : 0.5; // a star: concave
      ring.push([7.42 + radius * Math.cos(angle), 43.73 + radius * Math.sin(angle)]);
    }
    ring.push(ring[0]!);
    const area = await prepareArea({ geometry: { type: "Polygon", coordinates: [ring] } });
    const building = (x: number, y: number): Geometry => ({ type: "Polygon", coordinates: [square(x, y, x + 0.001, y + 0.001)] });
    const road = (x: number, y: number): Geometry => ({ type: "LineString", coordinates: [[x, y], [x + 0.01, y + 0.002], [x + 0.02, y]] });
    const run = (count: number): number => {
      let hits = 0;
      for (let i = 0; i < count; i++) {
        const x = 6.4 + ((i * 7919) % 2000) / 1000;
        const y = 42.7 + ((i * 104729) % 2000) / 1000;
        const geometry = i % 3 === 0 ? { type: "Point" as const, coordinates: [x, y] as Position } : i % 3 === 1 ? building(x, y) : road(x, y);
        if (area.intersects(geometry)) hits++;
      }
      return hits;
    };
    run(1_000); // let GEOS's allocator reach its working size
    const before = await wasmBytes();
    const hits = run(100_000);
    expect(await wasmBytes()).toBe(before);
    expect(hits).toBeGreaterThan(10_000);
    expect(hits).toBeLessThan(90_000);
    area.dispose();
  });

  it("keeps memory flat over many prepare/dispose cycles of a large polygon", async () => {
    const ring: Position[] = [];
    for (let i = 0; i < 5_000; i++) ring.push([Math.cos((2 * Math.PI * i) / 5_000), Math.sin((2 * Math.PI * i) / 5_000)]);
    ring.push(ring[0]!);
    const cycle = async (): Promise<void> => {
      const area = await prepareArea({ geometry: { type: "Polygon", coordinates: [ring] } });
      area.intersects({ type: "LineString", coordinates: [[0, 0], [2, 2]] }); // builds the prepared index
      area.dispose();
    };
    for (let i = 0; i < 10; i++) await cycle();
    const before = await wasmBytes();
    for (let i = 0; i < 300; i++) await cycle();
    expect(await wasmBytes()).toBe(before);
  });
});
