/**
 * Neighbour checks: the same geometry drawn twice (duplicate), and polygons whose interiors
 * overlap (overlapping).
 *
 * Duplicates are found in plain JS by comparing canonical forms: the same polygon may start
 * its rings at another vertex or run the other way, and the same line may be drawn in either
 * direction, without being any less of a copy.
 *
 * Overlap is GEOS's relate with the DE-9IM pattern "T********": the interiors intersect.
 * That is exact (no area tolerance to choose), allocates no intersection geometry, cannot
 * raise the topology errors an intersection can, and, unlike OGC "overlaps", also holds when
 * one polygon lies inside the other. Polygons sharing an edge or a corner only touch:
 * their interiors do not meet, so terraced houses drawn on shared nodes are not reported.
 */
import type { Geos, GeosPattern } from "../geometry/geos.js";
import type { PolygonalGeometry } from "../../model/geojson.js";
import { GeosError } from "../geometry/geos.js";
import type { FoundFeature } from "../../model/query.js";
import type { Geometry, Position } from "../../model/geojson.js";
import { bboxesIntersect, geometryBBox } from "../../model/geojson.js";

const INTERIORS_INTERSECT = "T********";

export function isPolygonal(geometry: Geometry): geometry is PolygonalGeometry {
  return geometry.type === "Polygon" || geometry.type === "MultiPolygon";
}

/**
 * A text equal for two geometries exactly when they have the same positions, whatever the
 * start vertex and direction of their rings and lines and the order of their parts. A
 * one-part Multi* geometry equals its single part.
 */
export function geometryKey(geometry: Geometry): string {
  switch (geometry.type) {
    case "Point":
      return `P ${point(geometry.coordinates)}`;
    case "LineString":
      return `L ${line(geometry.coordinates)}`;
    case "MultiLineString":
      return geometry.coordinates.length === 1 ? `L ${line(geometry.coordinates[0]!)}` : `ML ${geometry.coordinates.map(line).sort().join(" | ")}`;
    case "Polygon":
      return `A ${polygon(geometry.coordinates)}`;
    case "MultiPolygon":
      return geometry.coordinates.length === 1 ? `A ${polygon(geometry.coordinates[0]!)}` : `MA ${geometry.coordinates.map(polygon).sort().join(" | ")}`;
  }
}

const point = ([x, y]: Position): string => `${x} ${y}`;

function line(positions: Position[]): string {
  const forward = positions.map(point).join(",");
  const backward = positions.map(point).reverse().join(",");
  return forward < backward ? forward : backward;
}

/** The outer ring stays first; the holes are a set. */
function polygon([outer, ...holes]: Position[][]): string {
  return [outer ? ring(outer) : "", ...holes.map(ring).sort()].join(";");
}

/** The ring read from its smallest vertex (as text), in whichever direction gives the smaller text. */
function ring(positions: Position[]): string {
  const open = positions.slice(0, -1).map(point);
  if (open.length === 0) return positions.map(point).join(",");
  const smallest = open.reduce((a, b) => (b < a ? b : a));
  let best: string | undefined;
  open.forEach((vertex, start) => {
    if (vertex !== smallest) return;
    const rotated = [...open.slice(start), ...open.slice(0, start)];
    const reversed = [rotated[0]!, ...rotated.slice(1).reverse()];
    for (const candidate of [rotated.join(","), reversed.join(",")]) if (best === undefined || candidate < best) best = candidate;
  });
  return best!;
}

/** The overlap test, holding its DE-9IM pattern in GEOS memory until dispose(). */
export class OverlapTest {
  private readonly pattern: GeosPattern;

  constructor(private readonly geos: Geos) {
    this.pattern = geos.pattern(INTERIORS_INTERSECT);
  }

  /**
   * The candidates whose polygon interior overlaps `polygon`'s. An invalid polygon overlaps
   * nothing: its interior is not defined (GEOS's answers for a bow-tie or a collapsed ring are
   * arbitrary), and the validity check reports it. So does one GEOS cannot even build.
   */
  overlapping(polygon: PolygonalGeometry, candidates: readonly FoundFeature[]): FoundFeature[] {
    const box = geometryBBox(polygon);
    const near = candidates.filter(({ feature }) => isPolygonal(feature.geometry) && bboxesIntersect(box, geometryBBox(feature.geometry)));
    if (near.length === 0) return [];
    const { geos, pattern } = this;
    return unlessGeosFails([], () =>
      geos.with(polygon, (pointer) => {
        if (geos.invalidity(pointer)) return [];
        const prepared = geos.prepare(pointer);
        try {
          return near.filter(({ feature }) =>
            unlessGeosFails(false, () => geos.with(feature.geometry, (other) => !geos.invalidity(other) && geos.preparedRelatePattern(prepared, other, pattern))),
          );
        } finally {
          geos.destroyPrepared(prepared);
        }
      }),
    );
  }

  dispose(): void {
    this.geos.freePattern(this.pattern);
  }
}

// Broken data must cost one answer, not a whole scan.
function unlessGeosFails<T>(fallback: T, run: () => T): T {
  try {
    return run();
  } catch (error) {
    if (error instanceof GeosError) return fallback;
    throw error;
  }
}
