/**
 * The feature query API's `area` parameter: one closed ring written as text,
 * "lon lat, lon lat, ...", turned into a GeoJSON Polygon. Messages number the pairs from 1,
 * as a person counts them in the string.
 */
import type { Position } from "../../model/geojson.js";

/** The `area` text cannot be read as a closed ring; `pair` (from 1) says where, when one pair is at fault. */
export class AreaSyntaxError extends Error {
  override name = "AreaSyntaxError";
  constructor(
    message: string,
    readonly pair: number | null,
  ) {
    super(message);
  }
}

// Plain decimal numbers only: Number() would also accept "", "0x1f", "Infinity" and "1_0".
const NUMBER = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;

const HOW = 'write the ring as "lon lat, lon lat, ..." with at least 4 pairs, the last equal to the first';

/** The ring as a Polygon; throws AreaSyntaxError. Topology (self-intersection) is left to polygonProblems(). */
export function parseAreaRing(text: string): { type: "Polygon"; coordinates: Position[][] } {
  if (text.trim() === "") throw new AreaSyntaxError(`the area is empty: ${HOW}`, null);
  const ring = text.split(",").map((part, index) => parsePair(part.trim(), index + 1));
  if (ring.length < 4) {
    throw new AreaSyntaxError(`the area has ${ring.length} pair${ring.length === 1 ? "" : "s"}, too few for a closed ring: ${HOW}`, null);
  }
  const first = ring[0]!;
  const last = ring[ring.length - 1]!;
  if (first[0] !== last[0] || first[1] !== last[1]) {
    throw new AreaSyntaxError(
      `the ring is not closed: pair 1 (${first.join(" ")}) differs from the last pair, ${ring.length} (${last.join(" ")}); repeat the first pair at the end`,
      ring.length,
    );
  }
  return { type: "Polygon", coordinates: [ring] };
}

function parsePair(text: string, pair: number): Position {
  if (text === "") throw new AreaSyntaxError(`pair ${pair} is empty: remove the extra comma`, pair);
  const quoted = `pair ${pair} (${JSON.stringify(text)})`;
  const parts = text.split(/\s+/);
  if (parts.length === 1) throw new AreaSyntaxError(`${quoted} needs a longitude and a latitude`, pair);
  if (parts.length > 2) {
    throw new AreaSyntaxError(`${quoted} has ${parts.length} values; give a longitude and a latitude, and separate pairs with commas`, pair);
  }
  const [longitude, latitude] = parts.map((part) => {
    if (!NUMBER.test(part)) throw new AreaSyntaxError(`${quoted}: ${JSON.stringify(part)} is not a number`, pair);
    return Number(part);
  }) as [number, number];
  if (longitude < -180 || longitude > 180) throw new AreaSyntaxError(`${quoted}: the longitude ${longitude} is outside [-180, 180]`, pair);
  if (latitude < -90 || latitude > 90) throw new AreaSyntaxError(`${quoted}: the latitude ${latitude} is outside [-90, 90]`, pair);
  return [longitude, latitude];
}
