/**
 * What is wrong with a query polygon, in words a caller can act on and with a path to the
 * offending part (so the HTTP layer can answer 422 with a `loc`).
 *
 * The structural checks run first, in plain JS: GEOS cannot even build a geometry from an
 * unclosed ring or a NaN, and its messages would not say which position is at fault. Only a
 * structurally sound polygon is handed to GEOS for the topological rules (self-intersection,
 * holes outside the shell, ...).
 */
import { preview } from "../../diagnostics/messages.js";
import type { Position } from "../../model/geojson.js";
import { loadGeos } from "./geos.js";
import type { GeosInvalidity } from "./geos.js";
import type { PolygonalGeometry } from "../../model/geojson.js";

export type ProblemCode =
  | "not-polygonal"
  | "empty"
  | "not-a-position"
  | "not-finite"
  | "longitude-out-of-range"
  | "latitude-out-of-range"
  | "ring-too-short"
  | "ring-not-closed"
  | "invalid-topology";

export interface GeometryProblem {
  code: ProblemCode;
  /** From the geometry object down to the offending member, e.g. ["coordinates", 0, 3, 1]. */
  path: Array<string | number>;
  message: string;
}

/** Past this many, one more problem says how many were left out: a huge broken polygon must not make a huge answer. */
export const MAX_PROBLEMS = 100;

interface RingRef {
  path: Array<string | number>;
  /** "the outer ring", "hole 2", "polygon 3's outer ring", ... */
  name: string;
  positions: Position[];
}

/** Every problem found with a Polygon or MultiPolygon; an empty list means it is a valid area. */
export async function polygonProblems(geometry: PolygonalGeometry): Promise<GeometryProblem[]> {
  const { rings, problems } = structure(geometry);
  if (problems.length > 0) return capped(problems);
  const geos = await loadGeos();
  const invalidity = geos.with(geometry, (pointer) => geos.invalidity(pointer));
  return invalidity ? [describeInvalidity(invalidity, rings)] : [];
}

function capped(problems: GeometryProblem[]): GeometryProblem[] {
  if (problems.length <= MAX_PROBLEMS) return problems;
  const left = problems.length - MAX_PROBLEMS;
  return [...problems.slice(0, MAX_PROBLEMS), { code: problems[MAX_PROBLEMS]!.code, path: [], message: `and ${left} more problem${left === 1 ? "" : "s"}` }];
}

/** The rings of the geometry and everything structurally wrong with them. */
function structure(geometry: PolygonalGeometry): { rings: RingRef[]; problems: GeometryProblem[] } {
  const problems: GeometryProblem[] = [];
  const rings: RingRef[] = [];
  const value = geometry as unknown as { type?: unknown; coordinates?: unknown };
  const polygons: Array<{ rings: unknown; path: Array<string | number>; prefix: string }> = [];
  if (value.type === "Polygon") {
    polygons.push({ rings: value.coordinates, path: ["coordinates"], prefix: "" });
  } else if (value.type === "MultiPolygon") {
    if (!Array.isArray(value.coordinates)) {
      problems.push({ code: "not-polygonal", path: ["coordinates"], message: "a MultiPolygon's coordinates must be a list of polygons" });
    } else if (value.coordinates.length === 0) {
      problems.push({ code: "empty", path: ["coordinates"], message: "the MultiPolygon has no polygons" });
    } else {
      value.coordinates.forEach((polygon, index) => polygons.push({ rings: polygon, path: ["coordinates", index], prefix: `polygon ${index + 1}'s ` }));
    }
  } else {
    problems.push({ code: "not-polygonal", path: ["type"], message: `the area must be a Polygon or a MultiPolygon, not ${JSON.stringify(value.type)}` });
  }
  for (const polygon of polygons) {
    const where = polygon.prefix === "" ? "the polygon" : polygon.prefix.replace(/'s $/, "");
    if (!Array.isArray(polygon.rings)) {
      problems.push({ code: "not-polygonal", path: polygon.path, message: `${where} must be a list of rings` });
      continue;
    }
    if (polygon.rings.length === 0) {
      problems.push({ code: "empty", path: polygon.path, message: `${where} has no rings: it needs an outer ring` });
      continue;
    }
    polygon.rings.forEach((ring, index) => {
      const name = `${polygon.prefix}${index === 0 ? "outer ring" : `hole ${index}`}`;
      const ref = { path: [...polygon.path, index], name: polygon.prefix === "" && index === 0 ? `the ${name}` : name, positions: ring as Position[] };
      if (checkRing(ring, ref, problems)) rings.push(ref);
    });
  }
  return { rings, problems };
}

/** Adds the ring's problems; true when it has none. */
function checkRing(ring: unknown, ref: RingRef, problems: GeometryProblem[]): boolean {
  const before = problems.length;
  if (!Array.isArray(ring)) {
    problems.push({ code: "not-polygonal", path: ref.path, message: `${ref.name} must be a list of positions` });
    return false;
  }
  ring.forEach((position: unknown, index) => checkPosition(position, [...ref.path, index], `position ${index + 1} of ${ref.name}`, problems));
  if (problems.length > before) return false;
  const positions = ring as Position[];
  if (positions.length < 4) {
    problems.push({
      code: "ring-too-short",
      path: ref.path,
      message: `${ref.name} has ${positions.length} position${positions.length === 1 ? "" : "s"}; a closed ring needs at least 4 (the first repeated at the end)`,
    });
    return false;
  }
  const first = positions[0]!;
  const last = positions[positions.length - 1]!;
  if (first[0] !== last[0] || first[1] !== last[1]) {
    problems.push({
      code: "ring-not-closed",
      path: [...ref.path, positions.length - 1],
      message: `${ref.name} is not closed: it starts at ${formatPoint(first[0], first[1])} but ends at ${formatPoint(last[0], last[1])}; repeat the first position at the end`,
    });
    return false;
  }
  return true;
}

function checkPosition(position: unknown, path: Array<string | number>, where: string, problems: GeometryProblem[]): void {
  if (!Array.isArray(position) || position.length < 2) {
    problems.push({ code: "not-a-position", path, message: `${where} must be a [longitude, latitude] pair; found ${describe(position)}` });
    return;
  }
  const [longitude, latitude] = position as unknown[];
  const axes = [
    { value: longitude, name: "longitude", limit: 180, code: "longitude-out-of-range" },
    { value: latitude, name: "latitude", limit: 90, code: "latitude-out-of-range" },
  ] as const;
  axes.forEach(({ value, name, limit, code }, axis) => {
    if (typeof value !== "number" || !Number.isFinite(value)) {
      problems.push({ code: "not-finite", path: [...path, axis], message: `${where}: the ${name} must be a finite number; found ${describe(value)}` });
    } else if (value < -limit || value > limit) {
      problems.push({ code, path: [...path, axis], message: `${where}: the ${name} ${value} is outside [-${limit}, ${limit}]` });
    }
  });
}

/** Short whatever the value: a position may be a huge or deeply nested array. */
function describe(value: unknown): string {
  return value === undefined ? "nothing" : preview(value);
}

/** Coordinates as people read them: at most 7 decimals (about 1 cm), no trailing zeros. */
function formatPoint(x: number, y: number): string {
  return `${Number(x.toFixed(7))} ${Number(y.toFixed(7))}`;
}

// GEOS's reasons (TopologyValidationError) reworded; `rings` are those passing through the location.
const REASONS: Record<string, (rings: RingRef[]) => string> = {
  "Self-intersection": (rings) =>
    rings.length >= 2 ? `${rings[0]!.name} crosses ${rings[1]!.name}` : `${rings[0]?.name ?? "the ring"} crosses itself`,
  "Ring Self-intersection": (rings) => `${rings[0]?.name ?? "the ring"} touches itself`,
  "Hole lies outside shell": (rings) => `${rings[0]?.name ?? "a hole"} lies outside its outer ring`,
  "Holes are nested": (rings) => `${rings[0]?.name ?? "a hole"} lies inside another hole`,
  "Interior is disconnected": () => "the holes cut the polygon's interior into pieces",
  "Nested shells": (rings) => `${rings[0]?.name ?? "a polygon"} lies inside another polygon of the MultiPolygon`,
  "Duplicate Rings": (rings) => `${rings[0]?.name ?? "a ring"} is repeated`,
  "Too few points in geometry component": (rings) => `${rings[0]?.name ?? "a ring"} has fewer than 3 distinct positions`,
};

function describeInvalidity({ reason, x, y }: GeosInvalidity, rings: RingRef[]): GeometryProblem {
  const located = Number.isFinite(x) && Number.isFinite(y);
  const near = located ? ringsThrough(rings, x, y) : [];
  const what = REASONS[reason]?.(near) ?? `the polygon is invalid (${reason})`;
  return {
    code: "invalid-topology",
    path: near[0]?.path ?? ["coordinates"],
    message: located ? `${what} near ${formatPoint(x, y)}` : what,
  };
}

/** The rings nearest to (x, y), closest first: those the location lies on. */
function ringsThrough(rings: RingRef[], x: number, y: number): RingRef[] {
  const distances = rings.map((ring) => ({ ring, distance: distanceToRing(ring.positions, x, y) }));
  const nearest = Math.min(...distances.map(({ distance }) => distance));
  // GEOS computes the location from the segments, so a ring it lies on is at rounding distance.
  const tolerance = nearest + 1e-9;
  return distances.filter(({ distance }) => distance <= tolerance).sort((a, b) => a.distance - b.distance).map(({ ring }) => ring);
}

function distanceToRing(positions: Position[], x: number, y: number): number {
  let best = Infinity;
  for (let i = 1; i < positions.length; i++) {
    const [ax, ay] = positions[i - 1]!;
    const [bx, by] = positions[i]!;
    const dx = bx - ax;
    const dy = by - ay;
    const length = dx * dx + dy * dy;
    const t = length === 0 ? 0 : Math.max(0, Math.min(1, ((x - ax) * dx + (y - ay) * dy) / length));
    best = Math.min(best, Math.hypot(ax + t * dx - x, ay + t * dy - y));
  }
  return best;
}
