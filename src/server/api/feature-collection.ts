/** The GeoJSON shapes of query answers (RFC 7946), with the foreign members our routes add. */
import type { Answer } from "./wire.js";

const position = { type: "array", minItems: 2, maxItems: 3, items: { type: "number" }, description: "[longitude, latitude]" } as const;
const line = { type: "array", items: position } as const;
const rings = { type: "array", items: line } as const;

/** One geometry type: its name and how its positions nest. */
const shape = <const Type extends string, const Coordinates extends object>(type: Type, coordinates: Coordinates) =>
  ({ type: "object", required: ["type", "coordinates"], additionalProperties: false, properties: { type: { const: type }, coordinates } }) as const;

export const geometrySchema = {
  $id: "Geometry",
  description: "A Point, LineString, MultiLineString, Polygon or MultiPolygon: positions as [longitude, latitude], nested as its type requires",
  oneOf: [shape("Point", position), shape("LineString", line), shape("MultiLineString", rings), shape("Polygon", rings), shape("MultiPolygon", { type: "array", items: rings })],
} as const;

export type Geometry = Answer<typeof geometrySchema>;
export type Position = Extract<Geometry, { type: "Point" }>["coordinates"];

/** The schema of a FeatureCollection whose features carry `properties`, plus any foreign members. */
export function featureCollectionSchema<const Id extends string, const Properties extends object, const Extra extends Record<string, object>>(
  $id: Id,
  description: string,
  properties: Properties,
  foreign: Extra,
) {
  return {
    $id,
    description,
    type: "object",
    required: ["type", "features", ...(Object.keys(foreign) as Array<keyof Extra & string>)],
    additionalProperties: false,
    properties: {
      type: { const: "FeatureCollection" },
      ...foreign,
      features: {
        type: "array",
        items: {
          type: "object",
          required: ["type", "id", "geometry", "properties"],
          additionalProperties: false,
          properties: { type: { const: "Feature" }, id: { type: "integer" }, geometry: { $ref: "Geometry#" }, properties },
        },
      },
    },
  } as const;
}
