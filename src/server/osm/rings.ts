/**
 * Planar ring geometry for multipolygon assembly: joining way pieces into closed rings,
 * orientation, and containment. Coordinates are lon/lat degrees on OSM's 1e-7 grid, so
 * shared nodes have bit-identical positions and can be matched exactly.
 */
import type { Position } from "../../model/geojson.js";

export type Ring = Position[];

const keyOf = (position: Position): string => `${position[0]},${position[1]}`;

export const samePosition = (a: Position, b: Position): boolean => a[0] === b[0] && a[1] === b[1];

export interface JoinResult {
  /** Closed rings (first position repeated last), each with at least 4 positions. */
  rings: Ring[];
  /** Chains of pieces that could not be closed (a piece missing, or dangling). */
  openChains: number;
  /** Closed rings with fewer than 4 positions (a piece and its way back), dropped. */
  degenerateRings: number;
}

/**
 * Joins line pieces (member ways) end to end into closed rings. Pieces may run in either
 * direction and a ring may consist of any number of them.
 *
 * The chain being built remembers the positions where pieces meet. When the chain comes
 * back to one of them (not only its start), the loop from there is cut off as a ring of its
 * own: that is how rings touching at a node (figure-eights, an inner touching its outer)
 * come out as separate simple rings whatever order the pieces are taken in.
 */
export function joinRings(pieces: readonly Position[][]): JoinResult {
  const result: JoinResult = { rings: [], openChains: 0, degenerateRings: 0 };
  const keepRing = (ring: Ring): void => {
    if (ring.length >= 4) result.rings.push(ring);
    else result.degenerateRings++;
  };

  const open: Position[][] = [];
  for (const piece of pieces) {
    if (piece.length < 2) continue;
    if (samePosition(piece[0]!, piece[piece.length - 1]!)) keepRing([...piece]);
    else open.push(piece);
  }

  const used = new Array<boolean>(open.length).fill(false);
  const piecesAt = new Map<string, number[]>();
  open.forEach((piece, index) => {
    for (const end of [piece[0]!, piece[piece.length - 1]!]) {
      const key = keyOf(end);
      const list = piecesAt.get(key);
      if (list) list.push(index);
      else piecesAt.set(key, [index]);
    }
  });
  const takePieceAt = (position: Position): Position[] | null => {
    const candidates = piecesAt.get(keyOf(position)) ?? [];
    for (const index of candidates) {
      if (used[index]) continue;
      used[index] = true;
      const piece = open[index]!;
      // Orient the piece so that it starts where the chain ends.
      return samePosition(piece[0]!, position) ? piece : [...piece].reverse();
    }
    return null;
  };

  for (let start = 0; start < open.length; start++) {
    if (used[start]) continue;
    used[start] = true;
    const chain: Position[] = [...open[start]!];
    // Joint position (where pieces meet) -> its index in the chain.
    const joints = new Map<string, number>([
      [keyOf(chain[0]!), 0],
      [keyOf(chain[chain.length - 1]!), chain.length - 1],
    ]);
    for (;;) {
      const next = takePieceAt(chain[chain.length - 1]!);
      if (next === null) {
        result.openChains++;
        break;
      }
      for (let i = 1; i < next.length; i++) chain.push(next[i]!);
      const endKey = keyOf(chain[chain.length - 1]!);
      const loopStart = joints.get(endKey);
      if (loopStart === undefined) {
        joints.set(endKey, chain.length - 1);
        continue;
      }
      keepRing(chain.slice(loopStart));
      chain.length = loopStart + 1;
      for (const [key, index] of joints) if (index > loopStart) joints.delete(key);
      if (loopStart === 0) break;
    }
  }
  return result;
}

/** Shoelace formula: positive for counter-clockwise rings (in lon/lat axes). */
export function signedArea(ring: Ring): number {
  let twiceArea = 0;
  for (let i = 0; i < ring.length - 1; i++) {
    const [x1, y1] = ring[i]!;
    const [x2, y2] = ring[i + 1]!;
    twiceArea += x1 * y2 - x2 * y1;
  }
  return twiceArea / 2;
}

/** The ring with the requested winding (RFC 7946: exterior counter-clockwise, holes clockwise). */
export function withWinding(ring: Ring, counterClockwise: boolean): Ring {
  const isCounterClockwise = signedArea(ring) > 0;
  return isCounterClockwise === counterClockwise ? ring : [...ring].reverse();
}

/** 1 inside, 0 on the boundary, -1 outside (even-odd rule). */
export function pointInRing(point: Position, ring: Ring): 1 | 0 | -1 {
  const [px, py] = point;
  let inside = false;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    const [xi, yi] = ring[i]!;
    const [xj, yj] = ring[j]!;
    if (onSegment(px, py, xi, yi, xj, yj)) return 0;
    if (yi > py !== yj > py && px < ((xj - xi) * (py - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside ? 1 : -1;
}

function onSegment(px: number, py: number, x1: number, y1: number, x2: number, y2: number): boolean {
  if (px < Math.min(x1, x2) || px > Math.max(x1, x2) || py < Math.min(y1, y2) || py > Math.max(y1, y2)) return false;
  return (x2 - x1) * (py - y1) - (y2 - y1) * (px - x1) === 0;
}

/**
 * Whether `inner` lies inside `outer`. Rings of a valid multipolygon do not cross, so the
 * first vertex of `inner` that is not on `outer`'s boundary decides; vertices shared with the
 * outer (touching rings) are skipped.
 */
export function ringInsideRing(inner: Ring, outer: Ring): boolean {
  for (const vertex of inner) {
    const location = pointInRing(vertex, outer);
    if (location !== 0) return location === 1;
  }
  // Every vertex is on the outer's boundary: decide on an edge midpoint instead.
  for (let i = 0; i < inner.length - 1; i++) {
    const [x1, y1] = inner[i]!;
    const [x2, y2] = inner[i + 1]!;
    const location = pointInRing([(x1 + x2) / 2, (y1 + y2) / 2], outer);
    if (location !== 0) return location === 1;
  }
  return false;
}

export interface PolygonsResult {
  /** Each polygon: the exterior ring (counter-clockwise), then its holes (clockwise). */
  polygons: Ring[][];
  /** Inner rings inside no outer ring, dropped. */
  orphanInners: number;
}

/** Puts every inner ring into the smallest outer ring that contains it. */
export function buildPolygons(outers: readonly Ring[], inners: readonly Ring[]): PolygonsResult {
  const polygons = outers.map((outer) => [withWinding(outer, true)]);
  const outerAreas = outers.map((outer) => Math.abs(signedArea(outer)));
  let orphanInners = 0;
  for (const inner of inners) {
    let best = -1;
    outers.forEach((outer, index) => {
      if ((best === -1 || outerAreas[index]! < outerAreas[best]!) && ringInsideRing(inner, outer)) best = index;
    });
    if (best === -1) orphanInners++;
    else polygons[best]!.push(withWinding(inner, false));
  }
  return { polygons, orphanInners };
}
