/**
 * The exact area and geometry-kind test, in process: for a store whose index finds candidates
 * by bounding box and that tests each one here (the SQLite store).
 */
import type { GeometryKind, SpatialRelation } from "../../model/query.js";
import type { PreparedArea } from "../geometry/geos.js";
import type { BBox, Geometry } from "../../model/geojson.js";
import { geometryTypeOf, type OsmFeature } from "../../model/features.js";

/** The GeoJSON types of each kind of geometry. */
export const GEOMETRY_TYPES: Record<GeometryKind, ReadonlySet<Geometry["type"]>> = {
  point: new Set(["Point"]),
  line: new Set(["LineString", "MultiLineString"]),
  polygon: new Set(["Polygon", "MultiPolygon"]),
};

/** True for a feature that lies in `area` as `relation` says and is of the `kind` asked for (any when absent). */
export function areaMatcher(area: PreparedArea, relation: SpatialRelation = "intersects", kind?: GeometryKind): (feature: OsmFeature) => boolean {
  const types = kind === undefined ? undefined : GEOMETRY_TYPES[kind];
  const [boxInside, exact] =
    relation === "within"
      ? [(bbox: BBox) => area.interiorContainsBox(bbox), (geometry: Geometry) => area.within(geometry)]
      : [(bbox: BBox) => area.containsBox(bbox), (geometry: Geometry) => area.intersects(geometry)];
  // Cheapest first: the type, then a box wholly inside the area; only features on the area's
  // edge need the exact test (and their geometry parsed for it).
  return (feature) => {
    if (types !== undefined && !types.has(geometryTypeOf(feature))) return false;
    const bbox = feature.stored?.bbox;
    return (bbox !== undefined && boxInside(bbox)) || exact(feature.geometry);
  };
}
