/**
 * Squareness: buildings are mostly drawn with right angles, so a corner a few degrees off 90°
 * is usually a tracing slip. A corner counts as square when it is within the threshold of
 * 90°, and as no corner at all when it is within the threshold of 180° (a node on a straight
 * wall). Anything else (a 70° corner, a 135° bevel, a 20° spike) is reported.
 *
 * Angles are measured in metres, not degrees: a degree of longitude shrinks with the cosine
 * of the latitude, so a square at 60°N is twice as wide in degrees as it is tall. Each
 * polygon is projected equirectangularly around its own first position, which is exact
 * enough for angles at the scale of a building.
 */
import { EARTH_RADIUS_M } from "../../model/area.js";
import type { PolygonalGeometry } from "../../model/geojson.js";
import type { Position } from "../../model/geojson.js";

const RADIANS = Math.PI / 180;
const METRES_PER_DEGREE = EARTH_RADIUS_M * RADIANS;

/** A corner that is neither square nor straight: its angle between the two walls (0° to 180°) and its position. */
export interface BadCorner {
  angle: number;
  position: Position;
}

/** The corner furthest from square or straight among those off by more than `threshold` degrees; null when there is none. */
export function worstCorner(geometry: PolygonalGeometry, threshold: number): BadCorner | null {
  const polygons = geometry.type === "Polygon" ? [geometry.coordinates] : geometry.coordinates;
  const origin = polygons[0]?.[0]?.[0];
  if (!origin) return null;
  const project = projection(origin);
  let worst: BadCorner | null = null;
  let worstDeviation = threshold;
  for (const ring of polygons.flat()) {
    const corners = distinctCorners(ring);
    const projected = corners.map(project);
    for (let i = 0; i < corners.length; i++) {
      const angle = cornerAngle(projected.at(i - 1)!, projected[i]!, projected[(i + 1) % corners.length]!);
      const deviation = Math.min(Math.abs(angle - 90), 180 - angle);
      if (deviation > worstDeviation) {
        worst = { angle, position: corners[i]! };
        worstDeviation = deviation;
      }
    }
  }
  return worst;
}

/** Lon/lat to metres east and north of `origin`. */
function projection([originLon, originLat]: Position): (position: Position) => Position {
  const xScale = METRES_PER_DEGREE * Math.cos(originLat * RADIANS);
  return ([lon, lat]) => {
    let east = lon - originLon;
    // A polygon across the antimeridian must not become one spanning the globe.
    if (east > 180) east -= 360;
    else if (east < -180) east += 360;
    return [east * xScale, (lat - originLat) * METRES_PER_DEGREE];
  };
}

/** The ring's vertices without the closing repeat and without repeated nodes, which have no angle; too few to turn, none. */
function distinctCorners(ring: Position[]): Position[] {
  const corners: Position[] = [];
  for (const position of ring) {
    const previous = corners.at(-1);
    if (!previous || previous[0] !== position[0] || previous[1] !== position[1]) corners.push(position);
  }
  const first = corners[0];
  const last = corners.at(-1);
  if (corners.length > 1 && first![0] === last![0] && first![1] === last![1]) corners.pop();
  return corners.length >= 3 ? corners : [];
}

/** The angle at `corner` between the walls to `before` and `after`, in degrees from 0 to 180. */
function cornerAngle(before: Position, corner: Position, after: Position): number {
  const ax = before[0] - corner[0];
  const ay = before[1] - corner[1];
  const bx = after[0] - corner[0];
  const by = after[1] - corner[1];
  // atan2 of cross and dot products stays accurate near 0° and 180°, where acos does not.
  return Math.atan2(Math.abs(ax * by - ay * bx), ax * bx + ay * by) / RADIANS;
}
