/** The GeoJSON shapes of query answers (RFC 7946), with the foreign members our routes add. */

const position = { type: "array", minItems: 2, maxItems: 3, items: { type: "number" } } as const;

export const geometrySchema = {
  $id: "Geometry",
  type: "object",
  required: ["type", "coordinates"],
  properties: {
    type: { enum: ["Point", "LineString", "MultiLineString", "Polygon", "MultiPolygon"] },
    coordinates: {
      description: "Positions as [longitude, latitude], nested as the geometry type requires",
      anyOf: [
        position,
        { type: "array", items: position },
        { type: "array", items: { type: "array", items: position } },
        { type: "array", items: { type: "array", items: { type: "array", items: position } } },
      ],
    },
  },
} as const;

import type { Geometry } from "../../model/geojson.js";

export type { Geometry, Position } from "../../model/geojson.js";

export interface Feature<Properties> {
  type: "Feature";
  id: number;
  geometry: Geometry;
  properties: Properties;
}

export interface FeatureCollection<Properties> {
  type: "FeatureCollection";
  features: Array<Feature<Properties>>;
}

/** The schema of a FeatureCollection whose features carry `properties`, plus any foreign members. */
export function featureCollectionSchema<Id extends string, Properties extends object, Extra extends Record<string, object>>(
  $id: Id,
  description: string,
  properties: Properties,
  foreign: Extra,
) {
  return {
    $id,
    description,
    type: "object",
    required: ["type", "features", ...Object.keys(foreign)],
    properties: {
      type: { const: "FeatureCollection" },
      ...foreign,
      features: {
        type: "array",
        items: {
          type: "object",
          required: ["type", "id", "geometry", "properties"],
          properties: { type: { const: "Feature" }, id: { type: "integer" }, geometry: { $ref: "Geometry#" }, properties },
        },
      },
    },
  } as const;
}
