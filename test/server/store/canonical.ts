/**
 * Features in a form two stores can be compared in, feature for feature: what differs only in
 * how a geometry is written (where a ring starts, the order of rings, parts and member lines,
 * coordinates' last bits, the order of tag keys) is written one way.
 */
import type { Geometry, Position } from "../../../src/model/geojson.js";
import type { OsmFeature } from "../../../src/model/features.js";

/** OSM keeps 7 decimals; a store may print more (PostGIS: up to 9) of the same double. */
const round = ([x, y]: Position): Position => [Math.round(x * 1e7) / 1e7, Math.round(y * 1e7) / 1e7];

const byJson = <T>(a: T, b: T): number => {
  const [x, y] = [JSON.stringify(a), JSON.stringify(b)];
  return x < y ? -1 : x > y ? 1 : 0;
};

/** A closed ring from its smallest vertex, in its own direction (the direction is kept: it is part of the answer). */
function ring(positions: readonly Position[]): Position[] {
  const open = positions.slice(0, -1).map(round);
  let start = 0;
  open.forEach((position, index) => {
    if (byJson(position, open[start]) < 0) start = index;
  });
  const rotated = [...open.slice(start), ...open.slice(0, start)];
  return [...rotated, rotated[0]!];
}

function polygon(rings: readonly Position[][]): Position[][] {
  const [outer, ...inner] = rings.map(ring);
  return [outer!, ...inner.sort(byJson)];
}

export function canonicalGeometry(geometry: Geometry): Geometry {
  switch (geometry.type) {
    case "Point":
      return { type: "Point", coordinates: round(geometry.coordinates) };
    case "LineString":
      return { type: "LineString", coordinates: geometry.coordinates.map(round) };
    case "MultiLineString":
      return { type: "MultiLineString", coordinates: geometry.coordinates.map((line) => line.map(round)).sort(byJson) };
    case "Polygon":
      return { type: "Polygon", coordinates: polygon(geometry.coordinates) };
    case "MultiPolygon":
      return { type: "MultiPolygon", coordinates: geometry.coordinates.map(polygon).sort(byJson) };
  }
}

/** Tags with their keys in one order. */
export function canonicalTags(tags: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(tags).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

export function canonicalFeature(feature: OsmFeature): Omit<OsmFeature, "stored"> {
  const { osmId, version, changeset, timestamp, uid, user, annotations } = feature;
  return { osmId, version, changeset, timestamp, uid, user, tags: canonicalTags(feature.tags), geometry: canonicalGeometry(feature.geometry), ...(annotations && { annotations }) };
}
