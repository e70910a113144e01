/** The two ways a request names its area (a bbox, a ring string), checked and read as an AreaFilter. */
import type { ValidationError } from "../api/errors.js";
import { parseAreaRing, AreaSyntaxError } from "../geometry/ring.js";
import { polygonProblems } from "../geometry/validity.js";
import { EVERYWHERE } from "../query/everywhere.js";
import { areaOf, type AreaFilter } from "../../model/query.js";
import type { PolygonalGeometry } from "../../model/geojson.js";
import { problem, RequestProblem } from "./problems.js";

/** The area of a valid polygon; a 422 at `loc` with every problem of one that is not. */
async function checkedArea(polygon: PolygonalGeometry, loc: Array<string | number>): Promise<AreaFilter> {
  const problems = await polygonProblems(polygon);
  if (problems.length > 0) throw new RequestProblem(problems.map((found) => ({ loc, msg: found.message, type: "value_error" })));
  return areaOf(polygon);
}

/** What is wrong with a bbox the schema accepted (four numbers). */
export function bboxProblems(bbox: readonly number[], loc: Array<string | number>): ValidationError[] {
  const [minX, minY, maxX, maxY] = bbox as [number, number, number, number];
  if (minX < -180 || maxX > 180 || minY < -90 || maxY > 90) {
    return [{ loc, msg: `bbox must lie within longitudes -180..180 and latitudes -90..90; found [${bbox.join(", ")}]`, type: "value_error" }];
  }
  if (minX >= maxX || minY >= maxY) {
    return [{ loc, msg: `bbox must be [xmin, ymin, xmax, ymax] with xmin < xmax and ymin < ymax; found [${bbox.join(", ")}]`, type: "value_error" }];
  }
  return [];
}

export async function areaFromBBox(bbox: readonly number[] | undefined, loc: Array<string | number>): Promise<AreaFilter> {
  if (bbox === undefined) return EVERYWHERE;
  const problems = bboxProblems(bbox, loc);
  if (problems.length > 0) throw new RequestProblem(problems);
  const [minX, minY, maxX, maxY] = bbox as [number, number, number, number];
  const ring: Array<[number, number]> = [
    [minX, minY],
    [maxX, minY],
    [maxX, maxY],
    [minX, maxY],
    [minX, minY],
  ];
  return checkedArea({ type: "Polygon", coordinates: [ring] }, loc);
}

export async function areaFromRing(area: string | undefined, loc: Array<string | number>): Promise<AreaFilter> {
  if (area === undefined) return EVERYWHERE;
  let polygon;
  try {
    polygon = parseAreaRing(area);
  } catch (error) {
    if (error instanceof AreaSyntaxError) throw problem(loc, error.message);
    throw error;
  }
  return checkedArea(polygon, loc);
}
