/** The area the page works on: drawn, uploaded, pasted, a country's, or an earlier export's. */
import type { PolygonalGeometry } from "../../../src/model/geojson.js";

export interface Area {
  /** The polygons, to draw and measure. */
  geometry: PolygonalGeometry;
  /**
   * The area as requests send it: the geometry, or the GeoJSON a file held (a FeatureCollection,
   * say, which the server unites).
   */
  request: unknown;
  /** Where it came from, in words: "drawn polygon", "monaco.geojson", "Monaco". */
  origin: string;
}
