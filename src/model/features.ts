/**
 * The OpenStreetMap data as the server holds it: features in HOT's four raw-data tables, the raw
 * objects kept beside them, changesets and data quality findings. Every store, import and answer
 * speaks these types.
 */
import type { BBox, Geometry } from "./geojson.js";
import type { OsmMember } from "./osm.js";

/** The four tables of HOT's raw-data schema. */
export const FEATURE_TABLES = ["nodes", "ways_line", "ways_poly", "relations"] as const;
export type FeatureTable = (typeof FEATURE_TABLES)[number];

/**
 * One row of a feature table: an OSM object with its geometry. A store may hand out features
 * whose `tags` and `geometry` are parsed on first read (accessors): copy one member by member,
 * since a spread would leave those two out.
 */
export interface OsmFeature {
  osmId: number;
  version: number | null;
  changeset: number | null;
  /** ISO-8601 UTC, e.g. "2025-01-01T21:21:00Z". */
  timestamp: string | null;
  uid: number | null;
  user: string | null;
  tags: Record<string, string>;
  geometry: Geometry;
  /** What is known beside the object itself; read only when a query asks for it (CandidateOptions.annotated). */
  annotations?: FeatureAnnotations;
  /** How the store holds the feature, when it was read from one: answers copy this rather than serialise again. */
  stored?: StoredForm;
}

/**
 * A feature as its store holds it. A store that keeps tags and geometry as JSON text hands
 * the text over as it is, parsing it only when someone reads `tags` or `geometry`: most
 * features of an answer are copied to the wire unread.
 */
export interface StoredForm {
  /** `tags` as JSON text. */
  tagsJson: string;
  /** `geometry` as GeoJSON text. */
  geometryJson: string;
  geometryType: Geometry["type"];
  /** A box that holds the whole geometry (perhaps with a margin), when the store has one at hand. */
  bbox?: BBox;
}

/** The feature's geometry type, without parsing a stored geometry for it. */
export function geometryTypeOf(feature: OsmFeature): Geometry["type"] {
  return feature.stored?.geometryType ?? feature.geometry.type;
}

export interface FeatureAnnotations {
  /** Data quality statuses, most severe first (src/server/quality's order); empty when none. */
  statuses: string[];
  /** From the feature's changeset, when the store has it. */
  hashtags: string[];
  editor: string | null;
  createdAt: string | null;
  /** Null while the changeset is open, or when the store does not have it. */
  closedAt: string | null;
}

/**
 * The OSM objects themselves, tagged or not, kept beside the features so that a change file
 * can rebuild the geometry of every way and relation that uses a moved node.
 */
export interface RawNode {
  type: "node";
  id: number;
  version: number | null;
  lon: number;
  lat: number;
}

export interface RawWay {
  type: "way";
  id: number;
  version: number | null;
  refs: number[];
}

export interface RawRelation {
  type: "relation";
  id: number;
  version: number | null;
  members: OsmMember[];
}

export type RawEntity = RawNode | RawWay | RawRelation;
export type OsmType = RawEntity["type"];
export type RawOf<T extends OsmType> = Extract<RawEntity, { type: T }>;

/** A feature with the table it lives in: the node, way or relation it came from follows from the table. */
export interface StoredFeature {
  table: FeatureTable;
  feature: OsmFeature;
}

export function osmTypeOfTable(table: FeatureTable): OsmType {
  return table === "nodes" ? "node" : table === "relations" ? "relation" : "way";
}

/** Changeset metadata, as loaded from a changeset file. */
export interface Changeset {
  id: number;
  /** ISO-8601 UTC. */
  createdAt: string | null;
  /** Null while the changeset is open. */
  closedAt: string | null;
  uid: number | null;
  user: string | null;
  /** The `created_by` tag. */
  editor: string | null;
  /** Without the leading `#`, in the changeset's own spelling. */
  hashtags: string[];
  /** [minLon, minLat, maxLon, maxLat], or null for a changeset without changes. */
  bbox: [number, number, number, number] | null;
}

/** One data quality finding on a feature (see src/server/quality). */
export interface QualityFinding {
  status: string;
  /** The offending `key=value` strings, or the reason for a geometry status. */
  values: string[];
  /** The rule that found it, e.g. "building". */
  source: string;
}

/** What an import records about itself next to the data. */
export interface StoreMeta {
  /** ISO-8601 UTC time of the data's last complete update (what /status/ reports). */
  replicationTimestamp: string | null;
  /** Free-form import statistics (counts, problems, source, duration). */
  statistics: Record<string, unknown>;
}

/** Features whose changeset has a hashtag (case-insensitive, without `#`) and was created, or closed, in a time range. */
export interface ChangesetFilter {
  hashtag?: string | undefined;
  /** ISO-8601 UTC bounds, inclusive. */
  createdFrom?: string | undefined;
  createdTo?: string | undefined;
  /** The same on the closing time: an open changeset is outside any bound. */
  closedFrom?: string | undefined;
  closedTo?: string | undefined;
}

/** One stored finding with what the reports show beside it. */
export interface FindingRow {
  table: FeatureTable;
  osmId: number;
  status: string;
  source: string;
  values: string[];
  /** The changeset and timestamp of the feature's version that was checked. */
  changeset: number | null;
  timestamp: string | null;
  /** The finding's location: the feature's centroid. */
  lon: number;
  lat: number;
  /** The changeset's hashtags in its own spelling; [] when the store does not have the changeset. */
  hashtags: string[];
}

/** One value of a finding (a `key=value` of badvalue, a missing key of incomplete, ...). */
export interface FindingValueRow extends Omit<FindingRow, "values"> {
  value: string;
}

/** How many findings of one status and source have one value. */
export interface FindingValueCount {
  value: string;
  source: string;
  status: string;
  count: number;
}

