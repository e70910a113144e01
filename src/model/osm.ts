/**
 * The entity shapes both readers (PBF and XML) produce. They mirror the OSM data model
 * closely and carry no geometry beyond node locations: building geometries is the
 * assembler's job.
 */

export type OsmTags = Record<string, string>;

/**
 * Shared by all untagged entities, which are the vast majority of nodes: one tag object per
 * node would be most of the decoding garbage. Tag objects have no prototype so that any key
 * (even "__proto__") is an ordinary key.
 */
export const NO_TAGS: OsmTags = Object.freeze(Object.create(null));

export function newTags(): OsmTags {
  return Object.create(null);
}

/** Metadata as found in the file. Extracts often strip parts of it, hence the nulls. */
export interface OsmMetadata {
  version: number | null;
  /** Milliseconds since the epoch, UTC. */
  timestamp: number | null;
  changeset: number | null;
  uid: number | null;
  user: string | null;
}

export interface OsmNode extends OsmMetadata {
  type: "node";
  id: number;
  /** Degrees, rounded to the 1e-7 grid OSM stores coordinates on. */
  lon: number;
  lat: number;
  tags: OsmTags;
}

export interface OsmWay extends OsmMetadata {
  type: "way";
  id: number;
  refs: number[];
  tags: OsmTags;
}

export type OsmMemberType = "node" | "way" | "relation";

export interface OsmMember {
  type: OsmMemberType;
  ref: number;
  role: string;
}

export interface OsmRelation extends OsmMetadata {
  type: "relation";
  id: number;
  members: OsmMember[];
  tags: OsmTags;
}

export type OsmEntity = OsmNode | OsmWay | OsmRelation;

export interface OsmHeader {
  /** ISO-8601 UTC, or null when the file does not say. */
  replicationTimestamp: string | null;
  /** [minLon, minLat, maxLon, maxLat] in degrees, or null when absent. */
  bbox: [number, number, number, number] | null;
}

/** What a reader yields: the header first (exactly once), then batches of entities. */
export type OsmBlock =
  | { kind: "header"; header: OsmHeader }
  | { kind: "entities"; entities: OsmEntity[] };

export interface OsmReadOptions {
  /**
   * Do not decode nodes. The importer's first pass only needs ways and relations, and
   * nodes are by far the most numerous (and most expensive to decode) entities.
   */
  skipNodes?: boolean;
  /** Called as input bytes (compressed bytes for .gz) are consumed, with the running total. */
  onBytesRead?(bytes: number): void;
}

export type OsmReader = (path: string, options?: OsmReadOptions) => AsyncGenerator<OsmBlock>;

/** Formats epoch milliseconds the way OSM tools do: ISO-8601 UTC without fractional seconds. */
export function formatOsmTimestamp(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, "Z");
}

/** Snaps a coordinate in degrees to OSM's 1e-7 degree grid. */
export function toOsmPrecision(degrees: number): number {
  return Math.round(degrees * 1e7) / 1e7;
}
