/**
 * An area from GeoJSON text, as /latest/snapshot/ takes one: a Polygon or MultiPolygon, a Feature
 * of one, or a FeatureCollection of them. What the text is instead is said in words; whether its
 * rings are valid, the server says (a self-intersection, say, is a 422 naming where).
 */
import type { PolygonalGeometry, Position } from "../../../src/model/geojson.js";
import type { Area } from "./area.js";

export class NotAnArea extends Error {}

interface GeoJsonObject {
  type?: unknown;
  coordinates?: unknown;
  geometry?: unknown;
  features?: unknown;
}

const isObject = (value: unknown): value is GeoJsonObject => typeof value === "object" && value !== null && !Array.isArray(value);

const isPosition = (value: unknown) => Array.isArray(value) && value.length >= 2 && value.every((number) => typeof number === "number" && Number.isFinite(number));
const isRing = (value: unknown) => Array.isArray(value) && value.every(isPosition);
const isPolygon = (value: unknown): value is Position[][] => Array.isArray(value) && value.length > 0 && value.every(isRing);

/** The polygons of one GeoJSON object; `where` names it in messages ("the file", "feature 3"). */
function polygonsOf(value: unknown, where: string): Position[][][] {
  if (!isObject(value)) throw new NotAnArea(`${where} is not a GeoJSON object`);
  const shape = `its coordinates must be rings of [longitude, latitude] positions`;
  switch (value.type) {
    case "Polygon":
      if (!isPolygon(value.coordinates)) throw new NotAnArea(`${where} is a Polygon, but ${shape}`);
      return [value.coordinates];
    case "MultiPolygon":
      if (!Array.isArray(value.coordinates) || !value.coordinates.every(isPolygon)) throw new NotAnArea(`${where} is a MultiPolygon, but ${shape}`);
      return value.coordinates as Position[][][];
    case "Feature":
      if (value.geometry === null || value.geometry === undefined) throw new NotAnArea(`${where} is a Feature without a geometry`);
      return polygonsOf(value.geometry, `the geometry of ${where}`);
    case "FeatureCollection": {
      if (!Array.isArray(value.features) || value.features.length === 0) throw new NotAnArea(`${where} is a FeatureCollection without features`);
      return value.features.flatMap((feature, index) => polygonsOf(feature, `feature ${index + 1}`));
    }
    default:
      throw new NotAnArea(
        typeof value.type === "string" ? `${where} is a GeoJSON ${value.type}, not an area: give a Polygon or MultiPolygon (or a Feature or FeatureCollection of them)` : `${where} has no GeoJSON "type"`,
      );
  }
}

export function areaFromGeoJson(text: string, origin: string): Area {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new NotAnArea(`${origin} is not JSON: ${(error as Error).message}`);
  }
  return areaFromValue(value, origin);
}

/** An area from GeoJSON already read (an earlier export's, say). */
export function areaFromValue(value: unknown, origin: string): Area {
  const polygons = polygonsOf(value, origin);
  const geometry: PolygonalGeometry = polygons.length === 1 ? { type: "Polygon", coordinates: polygons[0]! } : { type: "MultiPolygon", coordinates: polygons };
  // A bare geometry is sent as it is; a Feature or FeatureCollection too, and the server reads it as its own.
  return { geometry, request: value, origin };
}
