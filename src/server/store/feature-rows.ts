/** A feature table's row as a store's query returns it, and the feature it holds: the same eight columns in every store. */
import type { BBox, Geometry } from "../../model/geojson.js";
import type { FeatureAnnotations, OsmFeature, StoredForm } from "../../model/features.js";

/**
 * A feature table's row as an array (better-sqlite3's raw mode, pg's rowMode "array"): an
 * object row costs the SQLite store's candidate query a third more time. Stores select these
 * columns in this order (the SQLite store's FEATURE_ROW_COLUMNS, the PostGIS store's FEATURE_COLUMNS).
 */
export type FeatureRow = [
  osmId: number,
  version: number | null,
  changeset: number | null,
  timestamp: string | null,
  uid: number | null,
  user: string | null,
  tags: string,
  geometry: string,
];

/**
 * A FeatureRow followed by the geometry's bounding box: the SQLite store reads it beside the row
 * (its R*Tree's) and tests the area on it in JS first. A store that tests the area in SQL has no
 * use for it, and computing it costs PostGIS a pass over every geometry.
 */
export type BoxedFeatureRow = [...FeatureRow, minX: number, minY: number, maxX: number, maxY: number];

/** Every geometry a store writes (JSON.stringify of our objects, PostGIS's ST_AsGeoJSON) starts with its type. */
const LEADING_TYPE = /^\{"type":"(Point|LineString|MultiLineString|Polygon|MultiPolygon)"/;

/**
 * The feature of a row (a FeatureRow, perhaps followed by more columns). Tags and geometry
 * are parsed on first read only: an answer that copies their JSON text (OsmFeature.stored)
 * never pays for parsing them. There are no setters, so that the text can never disagree with
 * the values.
 */
export function toFeature(row: readonly [...FeatureRow, ...unknown[]]): OsmFeature {
  return new RowFeature(row, undefined);
}

/** The feature of a BoxedFeatureRow (perhaps followed by more columns), its box kept in `stored`. */
export function toBoxedFeature(row: readonly [...BoxedFeatureRow, ...unknown[]]): OsmFeature {
  const [, , , , , , , , minX, minY, maxX, maxY] = row;
  return new RowFeature(row, { minX, minY, maxX, maxY });
}

/** A class rather than an object literal with closures: candidates are made by the thousand per request. */
class RowFeature implements OsmFeature {
  readonly osmId: number;
  readonly version: number | null;
  readonly changeset: number | null;
  readonly timestamp: string | null;
  readonly uid: number | null;
  readonly user: string | null;
  readonly stored: StoredForm;
  // Declared only: a feature read without annotations has no such member at all.
  declare annotations?: FeatureAnnotations;
  #tags: Record<string, string> | undefined;
  #geometry: Geometry | undefined;

  constructor(row: readonly [...FeatureRow, ...unknown[]], bbox: BBox | undefined) {
    const [osmId, version, changeset, timestamp, uid, user, tagsJson, geometryJson] = row;
    this.osmId = osmId;
    this.version = version;
    this.changeset = changeset;
    this.timestamp = timestamp;
    this.uid = uid;
    this.user = user;
    const type = LEADING_TYPE.exec(geometryJson)?.[1] as Geometry["type"] | undefined;
    // Text not written by this store (no leading type) is parsed at once for its type.
    if (type === undefined) this.#geometry = JSON.parse(geometryJson) as Geometry;
    this.stored = { tagsJson, geometryJson, geometryType: type ?? this.#geometry!.type, bbox };
  }

  get tags(): Record<string, string> {
    return (this.#tags ??= JSON.parse(this.stored.tagsJson) as Record<string, string>);
  }

  get geometry(): Geometry {
    return (this.#geometry ??= JSON.parse(this.stored.geometryJson) as Geometry);
  }
}
