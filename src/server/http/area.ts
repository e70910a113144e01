/** The two ways a request names its area (a bbox, a ring string), checked and prepared for the exact test. */
import type { ValidationError } from "../api/errors.js";
import { prepareArea } from "../geometry/geos.js";
import { parseAreaRing, AreaSyntaxError } from "../geometry/ring.js";
import { polygonProblems } from "../geometry/validity.js";
import { EVERYWHERE } from "../query/everywhere.js";
import type { AreaFilter } from "../../model/query.js";
import type { Geometry } from "../../model/geojson.js";
import { problem, RequestProblem } from "./problems.js";

async function prepared(polygon: Geometry & { type: "Polygon" | "MultiPolygon" }, loc: Array<string | number>): Promise<AreaFilter> {
  const problems = await polygonProblems(polygon);
  if (problems.length > 0) throw new RequestProblem(problems.map((found) => ({ loc, msg: found.message, type: "value_error" })));
  return prepareArea(polygon);
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
  return prepared({ type: "Polygon", coordinates: [ring] }, loc);
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
  return prepared(polygon, loc);
}
