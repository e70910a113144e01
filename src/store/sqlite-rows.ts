/** A feature table's row, and the feature it holds. */
import type { Geometry } from "./geojson.js";
import type { FeatureAnnotations, OsmFeature, StoredForm } from "./store.js";

/**
 * A feature table's row as its statements return it in raw mode (`.raw()`): the columns of
 * FEATURE_ROW_COLUMNS, in order. An array, not an object: better-sqlite3 defines a property per
 * column on an object row, and the candidate query reads its rows in a third less time raw.
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
  /** The geometry's bounding box. */
  minX: number,
  minY: number,
  maxX: number,
  maxY: number,
];

/** The columns of a FeatureRow, from a feature table named `t`, in the FeatureRow's order. */
export const FEATURE_ROW_COLUMNS = 't.osm_id, t.version, t.changeset, t.timestamp, t.uid, t."user", t.tags, t.geometry, t.min_x, t.min_y, t.max_x, t.max_y';

/** Every geometry the store writes is JSON.stringify output of an object whose first member is its type. */
const LEADING_TYPE = /^\{"type":"(Point|LineString|MultiLineString|Polygon|MultiPolygon)"/;

/**
 * The feature of a row (a FeatureRow, perhaps followed by more columns). Tags and geometry
 * are parsed on first read only: an answer that copies their JSON text (OsmFeature.stored)
 * never pays for parsing them. There are no setters, so that the text can never disagree with
 * the values.
 */
export function toFeature(row: readonly [...FeatureRow, ...unknown[]]): OsmFeature {
  return new RowFeature(row);
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

  constructor(row: readonly [...FeatureRow, ...unknown[]]) {
    const [osmId, version, changeset, timestamp, uid, user, tagsJson, geometryJson, minX, minY, maxX, maxY] = row;
    this.osmId = osmId;
    this.version = version;
    this.changeset = changeset;
    this.timestamp = timestamp;
    this.uid = uid;
    this.user = user;
    const type = LEADING_TYPE.exec(geometryJson)?.[1] as Geometry["type"] | undefined;
    // Text not written by this store (no leading type) is parsed at once for its type.
    if (type === undefined) this.#geometry = JSON.parse(geometryJson) as Geometry;
    this.stored = { tagsJson, geometryJson, geometryType: type ?? this.#geometry!.type, bbox: { minX, minY, maxX, maxY } };
  }

  get tags(): Record<string, string> {
    return (this.#tags ??= JSON.parse(this.stored.tagsJson) as Record<string, string>);
  }

  get geometry(): Geometry {
    return (this.#geometry ??= JSON.parse(this.stored.geometryJson) as Geometry);
  }
}
