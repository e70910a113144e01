/** A feature table's row, and the feature it holds. */
import type { Geometry } from "./geojson.js";
import type { OsmFeature } from "./store.js";

export interface FeatureRow {
  osm_id: number;
  version: number | null;
  changeset: number | null;
  timestamp: string | null;
  uid: number | null;
  user: string | null;
  tags: string;
  geometry: string;
  /** The R*Tree's box (32-bit floats rounded outwards, so it holds the geometry). */
  minX: number;
  minY: number;
  maxX: number;
  maxY: number;
}

/** The FROM clause every FeatureRow is selected from: the table as `t`, beside its R*Tree box as `r`. */
export function featureRowsFrom(table: string): string {
  return `${table} t JOIN ${table}_rtree r ON r.id = t.osm_id`;
}

/** The columns of a FeatureRow, from featureRowsFrom(). */
export const FEATURE_ROW_COLUMNS = "t.*, r.minX, r.minY, r.maxX, r.maxY";

/** Every geometry the store writes is JSON.stringify output of an object whose first member is its type. */
const LEADING_TYPE = /^\{"type":"(Point|LineString|MultiLineString|Polygon|MultiPolygon)"/;

/**
 * The feature of a row. Tags and geometry are parsed on first read only: an answer that
 * copies their JSON text (OsmFeature.stored) never pays for parsing them. There are no
 * setters, so that the text can never disagree with the values.
 */
export function toFeature(row: FeatureRow): OsmFeature {
  let tags: Record<string, string> | undefined;
  let geometry: Geometry | undefined;
  const parsedGeometry = (): Geometry => (geometry ??= JSON.parse(row.geometry) as Geometry);
  const type = LEADING_TYPE.exec(row.geometry)?.[1] as Geometry["type"] | undefined;
  return {
    osmId: row.osm_id,
    version: row.version,
    changeset: row.changeset,
    timestamp: row.timestamp,
    uid: row.uid,
    user: row.user,
    get tags() {
      return (tags ??= JSON.parse(row.tags) as Record<string, string>);
    },
    get geometry() {
      return parsedGeometry();
    },
    stored: {
      tagsJson: row.tags,
      geometryJson: row.geometry,
      geometryType: type ?? parsedGeometry().type,
      bbox: { minX: row.minX, minY: row.minY, maxX: row.maxX, maxY: row.maxY },
    },
  };
}
