/**
 * The feature store contract. The embedded SQLite store implements it, and a PostGIS store
 * must provide the same: the importer and the server only ever talk to this interface.
 */
import type { TagFilter } from "../query/types.js";
import type { BBox, Geometry } from "./geojson.js";

/** The four tables of HOT's raw-data schema. */
export const FEATURE_TABLES = ["nodes", "ways_line", "ways_poly", "relations"] as const;
export type FeatureTable = (typeof FEATURE_TABLES)[number];

/** One row of a feature table: an OSM object with its geometry. */
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
}

/** What an import records about itself next to the data. */
export interface StoreMeta {
  /** ISO-8601 UTC time of the data's last complete update (what /status/ reports). */
  replicationTimestamp: string | null;
  /** Free-form import statistics (counts, problems, source, duration). */
  statistics: Record<string, unknown>;
}

/** Bulk loading into a fresh store. Nothing is visible to readers before finish(). */
export interface FeatureWriter {
  insert(table: FeatureTable, feature: OsmFeature): Promise<void>;
  /** Records the metadata and commits everything. */
  finish(meta: StoreMeta): Promise<void>;
  /** Gives up: nothing written by this writer is kept. */
  abort(): Promise<void>;
}

export interface CandidateOptions {
  tags?: TagFilter | undefined;
  /** "id" (the default): osm_id ascending. "newest": timestamp descending, features without one last, then osm_id descending. */
  order?: "id" | "newest";
}

export interface FeatureStore {
  /** Starts a bulk load; a store accepts one writer at a time. */
  writer(): FeatureWriter;
  /** Rows whose geometry's bounding box intersects `bbox` (a candidate set: callers test exact geometry). */
  queryBBox(table: FeatureTable, bbox: BBox): Promise<OsmFeature[]>;
  /**
   * The same candidates, restricted by `options.tags` and streamed in `options.order`. Asynchronous
   * so that a server-backed store can stream from a cursor; stopping early (break, return())
   * releases the query.
   */
  candidates(table: FeatureTable, bbox: BBox, options?: CandidateOptions): AsyncIterable<OsmFeature>;
  /** How many candidates `candidates()` would stream, without reading them (for progress). */
  countCandidates(table: FeatureTable, bbox: BBox, options?: Pick<CandidateOptions, "tags">): Promise<number>;
  readMeta(): Promise<StoreMeta | null>;
  close(): Promise<void>;
}

/** How a store implementation is opened: `create` makes a new, empty store at `location`. */
export interface FeatureStoreFactory {
  create(location: string): Promise<FeatureStore>;
  open(location: string): Promise<FeatureStore>;
}
