import initGeosJs from "geos-wasm";
import { describe, expect, it } from "vitest";
import { centroid } from "../../../src/server/geometry/centroid.js";
import { loadGeos } from "../../../src/server/geometry/geos.js";
import { toOsmPrecision } from "../../../src/model/osm.js";
import type { Geometry, Position } from "../../../src/model/geojson.js";
import { square } from "./helpers.js";


/** GEOSGetCentroid, as an independent reference. */
async function geosCentroid(geometry: Geometry): Promise<Position> {
  const geos = await loadGeos();
  const module = await initGeosJs();
  return geos.with(geometry, (pointer) => {
    const point = module.GEOSGetCentroid(pointer);
    const out = module.Module._malloc(16);
    try {
      module.GEOSGeomGetX(point, out);
      module.GEOSGeomGetY(point, out + 8);
      return [module.Module.HEAPF64[out / 8]!, module.Module.HEAPF64[out / 8 + 1]!];
    } finally {
      module.Module._free(out);
      module.GEOSGeom_destroy(point);
    }
  });
}

describe("centroid", () => {
  it("is the point itself for a point", () => {
    expect(centroid({ type: "Point", coordinates: [7.42, 43.73] })).toEqual([7.42, 43.73]);
  });

  it("weights lines by length and polygons by area, holes subtracted", () => {
    expect(centroid({ type: "LineString", coordinates: [[0, 0], [10, 0], [10, 1]] })).toEqual([toOsmPrecision((5 * 10 + 10 * 1) / 11), toOsmPrecision(0.5 / 11)]);
    expect(centroid({ type: "MultiLineString", coordinates: [[[0, 0], [2, 0]], [[10, 0], [10, 2]]] })).toEqual([5.5, 0.5]);
    expect(centroid({ type: "Polygon", coordinates: [square(0, 0, 4, 2)] })).toEqual([2, 1]);
    // A hole in the right half pulls the centroid left.
    const [x, y] = centroid({ type: "Polygon", coordinates: [square(0, 0, 4, 4), square(2, 1, 4, 3)] });
    expect(x).toBe(toOsmPrecision((16 * 2 - 4 * 3) / 12));
    expect(y).toBe(2);
    expect(centroid({ type: "MultiPolygon", coordinates: [[square(0, 0, 1, 1)], [square(2, 0, 5, 1)]] })).toEqual([(0.5 + 3 * 3.5) / 4, 0.5]);
  });

  it("agrees with GEOS on small real-world-sized shapes far from the origin", async () => {
    const shapes: Geometry[] = [
      { type: "Polygon", coordinates: [[[7.4201, 43.7301], [7.4203, 43.7301], [7.4203, 43.7302], [7.4202, 43.73025], [7.4201, 43.7302], [7.4201, 43.7301]]] },
      { type: "Polygon", coordinates: [[...square(7.42, 43.73, 7.43, 43.74)].reverse(), square(7.421, 43.731, 7.422, 43.732)] },
      { type: "MultiPolygon", coordinates: [[square(1.5, 42.5, 1.5001, 42.5001)], [square(1.6, 42.6, 1.6003, 42.6001)]] },
      { type: "LineString", coordinates: [[7.41, 43.72], [7.4105, 43.7203], [7.411, 43.7201]] },
      { type: "MultiLineString", coordinates: [[[7.41, 43.72], [7.4105, 43.7203]], [[7.5, 43.8], [7.5002, 43.8]]] },
    ];
    for (const shape of shapes) {
      const [x, y] = centroid(shape);
      const [gx, gy] = await geosCentroid(shape);
      // Half a step of OSM's grid, where our centroid lies.
      expect(Math.abs(x - gx), JSON.stringify(shape)).toBeLessThanOrEqual(0.5e-7 + 1e-12);
      expect(Math.abs(y - gy), JSON.stringify(shape)).toBeLessThanOrEqual(0.5e-7 + 1e-12);
    }
  });

  it("lies on OSM's 1e-7 degree grid: no floating-point noise in the digits an answer shows", () => {
    // A building of the demo town's size whose centroid comes out as 22.995849999999997 in floating point.
    const building = { type: "Polygon", coordinates: [[[1.1969846, 22.9958], [1.1971603, 22.9958], [1.1971603, 22.9959], [1.1969846, 22.9959], [1.1969846, 22.9958]]] } as const;
    const [lon, lat] = centroid({ type: "Polygon", coordinates: building.coordinates.map((ring) => ring.map(([x, y]) => [x, y])) });
    for (const degrees of [lon, lat]) expect(String(degrees)).toMatch(/^\d+\.\d{1,7}$/);
    expect(lat).toBe(22.99585);
  });

  it("falls back for degenerate shapes", () => {
    // Zero area: the rings' lines instead.
    expect(centroid({ type: "Polygon", coordinates: [[[0, 0], [2, 0], [4, 0], [0, 0]]] })).toEqual([2, 0]);
    // Zero length: the point it collapses to.
    expect(centroid({ type: "LineString", coordinates: [[3, 4], [3, 4]] })).toEqual([3, 4]);
    expect(centroid({ type: "Polygon", coordinates: [[[3, 4], [3, 4], [3, 4], [3, 4]]] })).toEqual([3, 4]);
    expect(centroid({ type: "LineString", coordinates: [] })).toEqual([NaN, NaN]);
    expect(centroid({ type: "MultiPolygon", coordinates: [] })).toEqual([NaN, NaN]);
  });
});
