import type { Geometry, Position } from "../../model/geojson.js";
import { formatNumber } from "./numbers.js";

const points = (line: Position[]): string => `(${line.map(([x, y]) => `${formatNumber(x)} ${formatNumber(y)}`).join(", ")})`;
const rings = (polygon: Position[][]): string => `(${polygon.map(points).join(", ")})`;

export function toWkt(geometry: Geometry): string {
  switch (geometry.type) {
    case "Point":
      return `POINT (${formatNumber(geometry.coordinates[0])} ${formatNumber(geometry.coordinates[1])})`;
    case "LineString":
      return `LINESTRING ${points(geometry.coordinates)}`;
    case "MultiLineString":
      return `MULTILINESTRING ${rings(geometry.coordinates)}`;
    case "Polygon":
      return `POLYGON ${rings(geometry.coordinates)}`;
    case "MultiPolygon":
      return `MULTIPOLYGON (${geometry.coordinates.map(rings).join(", ")})`;
  }
}
