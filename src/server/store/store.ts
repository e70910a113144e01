/**
 * The feature store contract. The embedded SQLite store implements it, and a PostGIS store
 * must provide the same: the importer and the server only ever talk to this interface.
 */
import type {
  Changeset,
  ChangesetFilter,
  FeatureTable,
  FindingRow,
  FindingValueCount,
  FindingValueRow,
  OsmFeature,
  OsmType,
  QualityFinding,
  RawEntity,
  RawOf,
  StoredFeature,
  StoreMeta,
} from "../../model/features.js";
import type { BBox } from "../../model/geojson.js";
import type { AreaFilter, GeometryKind, SpatialRelation, TagFilter } from "../../model/query.js";
import type { BasemodelError } from "../errors.js";

/** Bulk loading into a fresh store. Nothing is visible to readers before finish(). */
export interface FeatureWriter {
  insert(table: FeatureTable, feature: OsmFeature): Promise<void>;
  /** Records an OSM object, feature or not (see RawNode). */
  insertRaw(raw: RawEntity): Promise<void>;
  insertChangeset(changeset: Changeset): Promise<void>;
  /** Records the data quality findings of a feature (replacing earlier ones). */
  setFindings(found: StoredFeature, findings: readonly QualityFinding[]): Promise<void>;
  /** Records the metadata and commits everything. */
  finish(meta: StoreMeta): Promise<void>;
  /** Gives up: nothing written by this writer is kept. */
  abort(): Promise<void>;
}

/**
 * One change file applied as one transaction: reads see the writes made so far, and nothing
 * is visible to other readers before commit().
 */
export interface StoreUpdate {
  /*
   * Reads take many ids at once: a change file names thousands of objects, and one read per
   * object would cost a round trip each in a store that is not in the process.
   */
  /** The stored objects among these, by id; an id the store does not have (never had, or deleted) is absent. */
  getRaws<T extends OsmType>(type: T, ids: readonly number[]): Promise<Map<number, RawOf<T>>>;
  /** The version each of these objects was deleted at (null when unknown), by id; one never deleted is absent. */
  deletedVersions(type: OsmType, ids: readonly number[]): Promise<Map<number, number | null>>;
  /** Stores these objects, replacing what the store had of them. */
  putRaws(raws: readonly RawEntity[]): Promise<void>;
  /** Removes these objects and their features, remembering each deletion (at its version) so that a repeat is recognised. */
  deleteRaws(deletions: ReadonlyArray<{ type: OsmType; id: number; version: number | null }>): Promise<void>;
  /** The ways that use each of these nodes, by node; a node no way uses is absent. */
  waysUsingNodes(nodeIds: readonly number[]): Promise<Map<number, number[]>>;
  /** The relations that have any of these ways as a member. */
  relationsUsingWays(wayIds: readonly number[]): Promise<number[]>;
  /** The features of these objects, by id; an object without one is absent. */
  getFeatures(type: OsmType, ids: readonly number[]): Promise<Map<number, StoredFeature>>;
  /** Stores each object's feature in its table (leaving any other table), or removes it where `found` is null. */
  putFeatures(features: ReadonlyArray<{ type: OsmType; id: number; found: StoredFeature | null }>): Promise<void>;
  /** Features of any table whose bounding box intersects `bbox`, restricted by `tags` when given. */
  featuresInBBox(bbox: BBox, tags?: TagFilter): Promise<StoredFeature[]>;
  setFindings(found: StoredFeature, findings: readonly QualityFinding[]): Promise<void>;
  putChangeset(changeset: Changeset): Promise<void>;
  /** Moves the replication timestamp forward to `timestamp`, never back; answers the timestamp now stored. */
  advanceReplicationTimestamp(timestamp: string): Promise<string>;
  commit(): Promise<void>;
  rollback(): Promise<void>;
}

export interface CandidateOptions {
  /** How a feature must lie in the area (default "intersects"). */
  relation?: SpatialRelation | undefined;
  /** Only this kind of geometry. */
  geometry?: GeometryKind | undefined;
  tags?: TagFilter | undefined;
  /** Filters on the feature's changeset and data quality (see ChangesetFilter). */
  changesets?: ChangesetFilter | undefined;
  /** Only features with this data quality status. */
  status?: string | undefined;
  /** Read FeatureAnnotations with every feature. */
  annotated?: boolean;
  /** "id" (the default): osm_id ascending. "newest": timestamp descending, features without one last, then osm_id descending. */
  order?: "id" | "newest";
  /** The caller reads no more than this many matches: a store may stop its query there. */
  limit?: number | undefined;
  /** Called for every row the store reads for the query, matching or not: what countCandidates() counts (for progress). */
  onRead?: (() => void) | undefined;
}

/** The options countCandidates() takes: those that decide which rows a query reads. */
export type CountOptions = Pick<CandidateOptions, "relation" | "geometry" | "tags" | "changesets" | "status">;

/** Which data quality findings a report covers. */
export interface FindingFilter {
  /** Only findings of these statuses. */
  statuses: readonly string[];
  /**
   * ISO-8601 UTC bounds, inclusive, on when the finding's edit was made: its changeset's closing
   * time when the store has the changeset (closed), else the finding's timestamp. A finding with
   * neither is outside any bound.
   */
  from?: string | undefined;
  to?: string | undefined;
  /** Findings whose changeset has any of these hashtags (case-insensitive, a leading `#` ignored); absent or empty = no hashtag filter. */
  hashtags?: readonly string[] | undefined;
  /** Findings whose location lies in the area (exactly, not by bounding box); absent = everywhere. */
  area?: AreaFilter | undefined;
}

export interface Page {
  offset: number;
  limit: number;
}

export interface Paged<T> {
  rows: T[];
  /** More rows exist after this page. */
  hasMore: boolean;
}

/** What an export reads: candidates and their counts, as of one moment (see FeatureStore.snapshot). */
export interface FeatureSnapshot extends Pick<FeatureStore, "candidates" | "countCandidates" | "readMeta"> {
  /** Ends the snapshot; later reads see the store as it is then. */
  close(): Promise<void>;
}

/**
 * What every store answers: the read contract the server, the exports and the reports use.
 * How a store is filled differs by store (see WritableFeatureStore and src/server/store/open.ts).
 */
export interface FeatureStore {
  /** Rows whose geometry's bounding box intersects `bbox`, by osm_id. */
  queryBBox(table: FeatureTable, bbox: BBox): Promise<OsmFeature[]>;
  /** The features with this OSM id, in table order (a node, a way and a relation may share an id). */
  featuresWithId(osmId: number): Promise<StoredFeature[]>;
  /**
   * The features of `table` that lie in `area` as `options.relation` says (exact geometry),
   * restricted by the other options and streamed in `options.order`. The area reaches the store
   * as data, so that a database can test it in its query and stop at `options.limit`; a store
   * that tests it in process prepares its own test for the query. Asynchronous so that a
   * server-backed store can stream from a cursor; stopping early (break, return()) releases the
   * query and whatever it prepared.
   */
  candidates(table: FeatureTable, area: AreaFilter, options?: CandidateOptions): AsyncIterable<OsmFeature>;
  /**
   * How many rows candidates() would read (call `onRead` for) without a limit, without reading
   * them: the matches, or more where the store tests the area on rows its index found (for progress).
   */
  countCandidates(table: FeatureTable, area: AreaFilter, options?: CountOptions): Promise<number>;
  /**
   * One page of the findings `filter` selects, newest first: timestamp descending (none last),
   * then osm_id, table, status and source ascending.
   */
  qualityFindings(filter: FindingFilter, page: Page): Promise<Paged<FindingRow>>;
  /** The same findings, one row per value, in the same order (values in their finding's order). */
  findingValues(filter: FindingFilter, page: Page): Promise<Paged<FindingValueRow>>;
  /** One page of the counts of those values by value, source and status: count descending, then value, source and status ascending. */
  findingValueCounts(filter: FindingFilter, page: Page): Promise<Paged<FindingValueCount>>;
  readMeta(): Promise<StoreMeta | null>;
  /**
   * The vector tile z/x/y (Mapbox Vector Tile 2.1, uncompressed): the layers of
   * src/model/tile-layers.ts that zoom z holds, each feature clipped to the tile and its buffer,
   * at most MAX_LAYER_FEATURES per layer (the smallest feature ids), layers without features left
   * out; no bytes at all for a tile that holds nothing. The same features on every store.
   */
  tile(z: number, x: number, y: number): Promise<Uint8Array>;
  /**
   * Where the data is (extent.ts): the box of the middle 98% of the point features, by
   * longitude and latitude; for a store without points, the box of every feature; null for a
   * store without any. The same box on every store.
   */
  extent(): Promise<BBox | null>;
  /**
   * A token that differs from the one read before whenever the data changed since (written by
   * this process or another): what a cache of answers keys on. Compare for equality only.
   */
  dataVersion(): Promise<string>;
  /**
   * The store as it is now, for a long read that must see one state of the data: updates that
   * commit meanwhile neither wait for it nor show in it. Close it when done.
   */
  snapshot(): Promise<FeatureSnapshot>;
  close(): Promise<void>;
}

/** What checking the data quality of a whole store needs: the features, and their findings replaced in one transaction. */
export type FindingsUpdate = Pick<StoreUpdate, "featuresInBBox" | "setFindings" | "commit" | "rollback">;

/** A store whose data quality `basemodel check` can record: every store. */
export interface CheckableFeatureStore extends FeatureStore {
  /** Starts replacing findings; nothing is visible to readers before commit(). */
  findings(): Promise<FindingsUpdate>;
}

/** A store that basemodel's own importer and change application fill, object by object. */
export interface WritableFeatureStore extends CheckableFeatureStore {
  /** Starts a bulk load; a store accepts one writer at a time. */
  writer(): FeatureWriter;
  /** Starts applying a change; one at a time, and not beside a writer. */
  update(): StoreUpdate;
}

/**
 * What every store factory says of itself, so that nothing outside src/server/store needs to
 * know which stores there are (see open.ts).
 */
interface StoreAdapter {
  /** True for a location that names a store of this kind. */
  takes(location: string): boolean;
  /** The optional packages the store loads (its drivers): what to install before it is used. */
  drivers: readonly string[];
  /**
   * The typed error (src/server/errors.ts) for `error`, met while the store at `location` was
   * read or written, or undefined for an error that is none of the store's (a bug).
   */
  failure(location: string, error: unknown): BasemodelError | undefined;
}

/** How the embedded store is made and opened: a file basemodel's own importer writes. */
export interface EmbeddedStoreFactory extends StoreAdapter {
  kind: "embedded";
  /** A new, empty store at `location`, which must not exist. */
  create(location: string): Promise<WritableFeatureStore>;
  open(location: string): Promise<WritableFeatureStore>;
}

/** What a loader that is not basemodel's own is told about the file it loads. */
export interface LoadOptions {
  /** The file's replication timestamp, when its header says; else the store derives one from the data. */
  replicationTimestamp: string | null;
  /** Recorded with the import's statistics (the file's name, when it was imported). */
  statistics: Record<string, unknown>;
  /** Progress as a fraction from 0 to 1. */
  onProgress?(fraction: number): void;
  /** Stops the load: it fails, and the store is left as a failed load leaves it (see the factory). */
  signal?: AbortSignal;
}

export interface LoadSummary {
  counts: Record<FeatureTable, number>;
  replicationTimestamp: string | null;
}

/** A feature as a change found it and left it: null where there was none, or is none now. */
export interface RebuiltFeature {
  before: StoredFeature | null;
  after: StoredFeature | null;
}

/** What a loader that is not basemodel's own is told about the change file it applies. */
export interface AppendOptions {
  /** The ids of the objects the change file names, by type. */
  objects: Record<OsmType, readonly number[]>;
  /** Changesets to record with the change. */
  changesets?: readonly Changeset[];
  /** The newest time in the change: the store's replication timestamp advances to it. */
  newest: string | null;
  /**
   * Checks the data quality of the features the change rebuilt (those of the objects it names,
   * and of ways and relations whose geometry changed through them), recording the findings in
   * `findings`, which commits with the changesets and the timestamp.
   */
  check?(rebuilt: readonly RebuiltFeature[], findings: FindingsUpdate): Promise<void>;
}

export interface AppendSummary {
  /** Features that exist after the change among those it rebuilt, and those it removed. */
  featuresWritten: number;
  featuresRemoved: number;
  /** The store's replication timestamp after the change. */
  replicationTimestamp: string | null;
}

/** How a database store follows a replication server. */
export interface ReplicateOptions {
  /** The replication server's URL (the folder of state.txt); needed the first time, then the one set up is used. */
  server?: string | undefined;
  /** Apply one batch of diffs and stop, instead of everything the server has. */
  once: boolean;
  /** The executable that applies each downloaded change file, called as osm2pgsql would be (the file last). */
  applyCommand: string;
  /** Environment for that command. */
  env: Record<string, string>;
  /** What the replication tool says on standard error, as it says it. */
  onLog?(text: string): void;
}

export interface ReplicateSummary {
  server: string;
  /** The sequence the store was at, and is at now. */
  from: number;
  to: number;
}

/** How a database store is opened and loaded: osm2pgsql fills it, with our style and our own steps after it. */
export interface Osm2pgsqlStoreFactory extends StoreAdapter {
  kind: "osm2pgsql";
  open(location: string): Promise<CheckableFeatureStore>;
  /** Replaces the store's data with the OSM file's. */
  load(input: string, location: string, options: LoadOptions): Promise<LoadSummary>;
  /** Applies an OSM change file (osm2pgsql --append), then records its findings, changesets and time. */
  append(change: string, location: string, options: AppendOptions): Promise<AppendSummary>;
  /** Applies what the replication server has past the store's state, change by change, through `applyCommand`. */
  replicate(location: string, options: ReplicateOptions): Promise<ReplicateSummary>;
}
