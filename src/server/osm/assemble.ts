/**
 * Turns OSM entities into the features of HOT's raw-data tables, with the classification
 * HOT's raw-data-api import applies (re-implemented from its description, not its code):
 *
 * - tags `odbl` and `source:ref` are dropped; an object with no tags left is not a feature
 *   (an untagged node still gives ways their coordinates, an untagged way its relations);
 * - tagged node -> nodes (Point);
 * - closed way with more than 3 nodes -> ways_poly (Polygon, whatever its tags); any other
 *   way -> ways_line (LineString);
 * - relation of type multipolygon or boundary -> relations, as a Polygon or MultiPolygon
 *   with holes; any other relation -> relations, as a MultiLineString of its member ways.
 *
 * Memory: the importer reads the file twice. Pass 1 (ReferenceCollector) records which
 * nodes some way uses and which ways some relation uses, as sorted id arrays. Pass 2
 * (FeatureAssembler) keeps locations only for those nodes (fixed-point Int32, 16 bytes per
 * node with its id) and coordinates only for relation member ways (a Float64Array each),
 * writing every feature out as soon as it is built. Input must be ordered nodes, then
 * ways, then relations, as every OSM dump and extract is.
 *
 * Broken data is counted per kind (see ProblemKind), never fatal: extracts are clipped,
 * so ways lose nodes and relations lose members at the edges.
 */
import type { Geometry, Position } from "../../model/geojson.js";
import type { FeatureTable, OsmFeature } from "../../model/features.js";
import { IdCollector, NodeLocations, SortedIdSet } from "./id-index.js";
import { buildPolygons, joinRings, samePosition, withWinding } from "./rings.js";
import type { Ring } from "./rings.js";
import { formatOsmTimestamp } from "../../model/osm.js";
import type { OsmEntity, OsmRelation, OsmTags, OsmWay } from "../../model/osm.js";

export const PROBLEM_KINDS = [
  /** A way refers to nodes absent from the file; its geometry is built from the others. */
  "way_missing_nodes",
  /** A tagged way has too few located nodes for its geometry; not stored. */
  "way_without_geometry",
  /** A relation refers to ways absent from the file; it is built from the others. */
  "relation_missing_members",
  /** An area relation's member ways do not close into rings; not stored (as HOT: no geometry). */
  "relation_unclosed_ring",
  /** An area relation has rings of fewer than 4 positions; those are dropped. */
  "relation_degenerate_ring",
  /** An inner ring lies inside no outer ring; it is dropped. */
  "relation_inner_outside_outer",
  /** A tagged relation has no member way with a geometry (or no outer ring); not stored. */
  "relation_without_geometry",
] as const;
export type ProblemKind = (typeof PROBLEM_KINDS)[number];
export type ProblemCounts = Record<ProblemKind, number>;

/** Tags HOT's import removes before deciding whether an object is tagged. */
const DROPPED_TAGS = ["odbl", "source:ref"];

const AREA_RELATION_TYPES = new Set(["multipolygon", "boundary"]);

export interface AssembledFeature {
  table: FeatureTable;
  feature: OsmFeature;
}

/** The ids pass 2 has to keep geometry for. */
export interface References {
  nodes: SortedIdSet;
  ways: SortedIdSet;
}

/** Pass 1: collects the nodes used by ways and the ways used by relations. */
export class ReferenceCollector {
  private readonly nodes = new IdCollector();
  private readonly ways = new IdCollector();

  add(entity: OsmEntity): void {
    if (entity.type === "way") {
      for (const ref of entity.refs) this.nodes.add(ref);
    } else if (entity.type === "relation") {
      for (const member of entity.members) if (member.type === "way") this.ways.add(member.ref);
    }
  }

  finish(): References {
    return { nodes: this.nodes.toSortedSet(), ways: this.ways.toSortedSet() };
  }
}

/**
 * Where geometry comes from: the importer's in-memory index of the file, or the store when a
 * change file is applied. Both answer the same two questions.
 */
export interface LocationSource {
  /** [lon, lat] of a node, or null when unknown. */
  node(id: number): Position | null;
  /** The positions of a way a relation uses, or null when unknown. */
  memberWay(id: number): Position[] | null;
}

/** Pass 2: builds the features, one entity at a time. */
export class FeatureAssembler implements LocationSource {
  readonly problems: ProblemCounts = emptyProblemCounts();
  private readonly nodeLocations: NodeLocations;
  /** Coordinates of relation member ways, interleaved lon/lat. */
  private readonly memberWays = new Map<number, Float64Array>();

  constructor(private readonly references: References) {
    this.nodeLocations = new NodeLocations(references.nodes);
  }

  node(id: number): Position | null {
    return this.nodeLocations.get(id);
  }

  memberWay(id: number): Position[] | null {
    const coordinates = this.memberWays.get(id);
    return coordinates === undefined ? null : unflatten(coordinates);
  }

  add(entity: OsmEntity): AssembledFeature | null {
    if (entity.type === "node") this.nodeLocations.set(entity.id, entity.lon, entity.lat);
    if (entity.type === "way" && this.references.ways.has(entity.id)) {
      // Located once for both uses, so that its missing nodes count once.
      const positions = wayPositions(entity, this, this.problems);
      this.memberWays.set(entity.id, Float64Array.from(positions.flat()));
      const tags = cleanTags(entity.tags);
      return tags === null ? null : wayFeature(entity, tags, positions, this.problems);
    }
    return assemble(entity, this, this.problems);
  }
}

export function emptyProblemCounts(): ProblemCounts {
  return Object.fromEntries(PROBLEM_KINDS.map((kind) => [kind, 0])) as ProblemCounts;
}

/** The feature an entity makes, or null when it makes none (untagged, or no geometry: counted in `problems`). */
export function assemble(entity: OsmEntity, source: LocationSource, problems: ProblemCounts): AssembledFeature | null {
  const tags = cleanTags(entity.tags);
  if (tags === null) return null;
  switch (entity.type) {
    case "node":
      return { table: "nodes", feature: toFeature(entity, tags, { type: "Point", coordinates: [entity.lon, entity.lat] }) };
    case "way":
      return wayFeature(entity, tags, wayPositions(entity, source, problems), problems);
    case "relation": {
      const geometry = AREA_RELATION_TYPES.has(tags["type"] ?? "") ? areaGeometry(entity, source, problems) : lineGeometry(entity, source, problems);
      return geometry === null ? null : { table: "relations", feature: toFeature(entity, tags, geometry) };
    }
  }
}

function wayFeature(way: OsmWay, tags: OsmTags, positions: Position[], problems: ProblemCounts): AssembledFeature | null {
  const refs = way.refs;
  const closed = refs.length > 0 && refs[0] === refs[refs.length - 1];
  if (closed && refs.length > 3) {
    const ring = positions;
    if (ring.length < 4 || !samePosition(ring[0]!, ring[ring.length - 1]!)) return wayWithoutGeometry(problems);
    return { table: "ways_poly", feature: toFeature(way, tags, { type: "Polygon", coordinates: [withWinding(ring, true)] }) };
  }
  if (positions.length < 2) return wayWithoutGeometry(problems);
  return { table: "ways_line", feature: toFeature(way, tags, { type: "LineString", coordinates: positions }) };
}

function wayWithoutGeometry(problems: ProblemCounts): null {
  problems.way_without_geometry++;
  return null;
}

/** The way's node positions, skipping missing nodes and repeated consecutive positions. */
export function wayPositions(way: Pick<OsmWay, "refs">, source: LocationSource, problems: ProblemCounts): Position[] {
  const positions: Position[] = [];
  let missing = false;
  for (const ref of way.refs) {
    const position = source.node(ref);
    if (position === null) missing = true;
    else if (positions.length === 0 || !samePosition(positions[positions.length - 1]!, position)) positions.push(position);
  }
  if (missing) problems.way_missing_nodes++;
  return positions;
}

/** Member ways with their roles; counts the relation once if any member is missing. */
function memberWayPositions(relation: OsmRelation, source: LocationSource, problems: ProblemCounts): Array<{ role: string; positions: Position[] }> {
  const found: Array<{ role: string; positions: Position[] }> = [];
  let missing = false;
  for (const member of relation.members) {
    if (member.type !== "way") continue;
    const positions = source.memberWay(member.ref);
    if (positions === null) missing = true;
    else found.push({ role: member.role, positions });
  }
  if (missing) problems.relation_missing_members++;
  return found;
}

function lineGeometry(relation: OsmRelation, source: LocationSource, problems: ProblemCounts): Geometry | null {
  const lines = memberWayPositions(relation, source, problems)
    .map((member) => member.positions)
    .filter((positions) => positions.length >= 2);
  if (lines.length === 0) {
    problems.relation_without_geometry++;
    return null;
  }
  return { type: "MultiLineString", coordinates: lines };
}

/**
 * Outer and inner rings are joined separately from the ways with those roles (an empty
 * or unexpected role counts as outer, as in OSM's multipolygon rules), then each inner
 * ring goes into the smallest outer ring containing it.
 */
function areaGeometry(relation: OsmRelation, source: LocationSource, problems: ProblemCounts): Geometry | null {
  const members = memberWayPositions(relation, source, problems);
  const outer = joinRings(members.filter((m) => m.role !== "inner").map((m) => m.positions));
  const inner = joinRings(members.filter((m) => m.role === "inner").map((m) => m.positions));
  problems.relation_degenerate_ring += outer.degenerateRings + inner.degenerateRings;
  if (outer.openChains + inner.openChains > 0) {
    problems.relation_unclosed_ring++;
    return null;
  }
  if (outer.rings.length === 0) {
    problems.relation_without_geometry++;
    return null;
  }
  const { polygons, orphanInners } = buildPolygons(outer.rings, inner.rings);
  problems.relation_inner_outside_outer += orphanInners;
  // As osm2pgsql does for HOT: a multipolygon of one polygon is stored as a Polygon.
  return polygons.length === 1 ? { type: "Polygon", coordinates: polygons[0]! } : { type: "MultiPolygon", coordinates: polygons };
}

/** The tags without the ones HOT drops, or null when nothing is left. */
function cleanTags(tags: OsmTags): OsmTags | null {
  let cleaned = tags;
  if (DROPPED_TAGS.some((key) => key in tags)) {
    cleaned = { ...tags };
    for (const key of DROPPED_TAGS) delete cleaned[key];
  }
  return Object.keys(cleaned).length > 0 ? cleaned : null;
}

function toFeature(entity: OsmEntity, tags: OsmTags, geometry: Geometry): OsmFeature {
  return {
    osmId: entity.id,
    version: entity.version,
    changeset: entity.changeset,
    timestamp: entity.timestamp === null ? null : formatOsmTimestamp(entity.timestamp),
    uid: entity.uid,
    user: entity.user,
    tags,
    geometry,
  };
}

function unflatten(coordinates: Float64Array): Ring {
  const positions: Position[] = [];
  for (let i = 0; i < coordinates.length; i += 2) positions.push([coordinates[i]!, coordinates[i + 1]!]);
  return positions;
}
