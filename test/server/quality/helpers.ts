import { EARTH_RADIUS_M } from "../../../src/model/area.js";
import type { FoundFeature } from "../../../src/model/query.js";
import type { Geometry, Position } from "../../../src/model/geojson.js";
import type { FeatureTable } from "../../../src/model/features.js";

const METRES_PER_DEGREE = (EARTH_RADIUS_M * Math.PI) / 180;

/** Positions given in metres east and north of (lon, lat), as lon/lat degrees. */
export function fromMetres(lon: number, lat: number, metres: Array<[number, number]>): Position[] {
  const xScale = METRES_PER_DEGREE * Math.cos((lat * Math.PI) / 180);
  return metres.map(([east, north]) => [lon + east / xScale, lat + north / METRES_PER_DEGREE]);
}

/** Closes a ring by repeating its first position. */
export const closed = (positions: Position[]): Position[] => [...positions, positions[0]!];

/** A width × height quadrilateral in metres, its left wall leaning right by `skew` degrees, turned anticlockwise by `rotation` degrees. */
export function quadrilateral(width: number, height: number, { skew = 0, rotation = 0 } = {}): Array<[number, number]> {
  const lean = height * Math.tan((skew * Math.PI) / 180);
  const turn = (rotation * Math.PI) / 180;
  const corners: Array<[number, number]> = [
    [0, 0],
    [width, 0],
    [width + lean, height],
    [lean, height],
  ];
  return corners.map(([x, y]) => [x * Math.cos(turn) - y * Math.sin(turn), x * Math.sin(turn) + y * Math.cos(turn)]);
}

/** A Polygon of one closed ring in metres around (lon, lat). */
export function polygonAt(lon: number, lat: number, metres: Array<[number, number]>): Geometry {
  return { type: "Polygon", coordinates: [closed(fromMetres(lon, lat, metres))] };
}

/** A Polygon of one ring given in degrees, closed here. */
export const polygon = (...ring: Position[]): Geometry => ({ type: "Polygon", coordinates: [closed(ring)] });

export function feature(osmId: number, tags: Record<string, string>, geometry: Geometry, table?: FeatureTable): FoundFeature {
  const defaultTable: FeatureTable = geometry.type === "Point" ? "nodes" : geometry.type.endsWith("Polygon") ? "ways_poly" : "ways_line";
  return {
    table: table ?? defaultTable,
    feature: { osmId, version: 1, changeset: 1, timestamp: "2025-01-01T00:00:00Z", uid: 1, user: "mapper", tags, geometry },
  };
}
