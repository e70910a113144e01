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
import type { Geometry, Position } from "../store/geojson.js";
import type { FeatureTable, OsmFeature } from "../store/store.js";
import { IdCollector, NodeLocations, SortedIdSet } from "./id-index.js";
import { buildPolygons, joinRings, samePosition, withWinding } from "./rings.js";
import type { Ring } from "./rings.js";
import { formatOsmTimestamp } from "./types.js";
import type { OsmEntity, OsmNode, OsmRelation, OsmTags, OsmWay } from "./types.js";

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

/** Pass 2: builds the features, one entity at a time. */
export class FeatureAssembler {
  readonly problems: ProblemCounts = Object.fromEntries(PROBLEM_KINDS.map((kind) => [kind, 0])) as ProblemCounts;
  private readonly nodeLocations: NodeLocations;
  /** Coordinates of relation member ways, interleaved lon/lat. */
  private readonly memberWays = new Map<number, Float64Array>();

  constructor(private readonly references: References) {
    this.nodeLocations = new NodeLocations(references.nodes);
  }

  add(entity: OsmEntity): AssembledFeature | null {
    switch (entity.type) {
      case "node":
        return this.addNode(entity);
      case "way":
        return this.addWay(entity);
      case "relation":
        return this.addRelation(entity);
    }
  }

  private addNode(node: OsmNode): AssembledFeature | null {
    this.nodeLocations.set(node.id, node.lon, node.lat);
    const tags = cleanTags(node.tags);
    if (tags === null) return null;
    return { table: "nodes", feature: toFeature(node, tags, { type: "Point", coordinates: [node.lon, node.lat] }) };
  }

  private addWay(way: OsmWay): AssembledFeature | null {
    const positions = this.locate(way);
    if (this.references.ways.has(way.id)) this.memberWays.set(way.id, Float64Array.from(positions.flat()));
    const tags = cleanTags(way.tags);
    if (tags === null) return null;
    const refs = way.refs;
    const closed = refs.length > 0 && refs[0] === refs[refs.length - 1];
    if (closed && refs.length > 3) {
      const ring = positions;
      if (ring.length < 4 || !samePosition(ring[0]!, ring[ring.length - 1]!)) return this.wayWithoutGeometry();
      return { table: "ways_poly", feature: toFeature(way, tags, { type: "Polygon", coordinates: [withWinding(ring, true)] }) };
    }
    if (positions.length < 2) return this.wayWithoutGeometry();
    return { table: "ways_line", feature: toFeature(way, tags, { type: "LineString", coordinates: positions }) };
  }

  private wayWithoutGeometry(): null {
    this.problems.way_without_geometry++;
    return null;
  }

  /** The way's node positions, skipping missing nodes and repeated consecutive positions. */
  private locate(way: OsmWay): Position[] {
    const positions: Position[] = [];
    let missing = false;
    for (const ref of way.refs) {
      const position = this.nodeLocations.get(ref);
      if (position === null) missing = true;
      else if (positions.length === 0 || !samePosition(positions[positions.length - 1]!, position)) positions.push(position);
    }
    if (missing) this.problems.way_missing_nodes++;
    return positions;
  }

  private addRelation(relation: OsmRelation): AssembledFeature | null {
    const tags = cleanTags(relation.tags);
    if (tags === null) return null;
    const geometry = AREA_RELATION_TYPES.has(tags["type"] ?? "") ? this.areaGeometry(relation) : this.lineGeometry(relation);
    if (geometry === null) return null;
    return { table: "relations", feature: toFeature(relation, tags, geometry) };
  }

  /** Member ways with their roles; counts the relation once if any member is missing. */
  private memberWayPositions(relation: OsmRelation): Array<{ role: string; positions: Position[] }> {
    const found: Array<{ role: string; positions: Position[] }> = [];
    let missing = false;
    for (const member of relation.members) {
      if (member.type !== "way") continue;
      const coordinates = this.memberWays.get(member.ref);
      if (coordinates === undefined) missing = true;
      else found.push({ role: member.role, positions: unflatten(coordinates) });
    }
    if (missing) this.problems.relation_missing_members++;
    return found;
  }

  private lineGeometry(relation: OsmRelation): Geometry | null {
    const lines = this.memberWayPositions(relation)
      .map((member) => member.positions)
      .filter((positions) => positions.length >= 2);
    if (lines.length === 0) {
      this.problems.relation_without_geometry++;
      return null;
    }
    return { type: "MultiLineString", coordinates: lines };
  }

  /**
   * Outer and inner rings are joined separately from the ways with those roles (an empty
   * or unexpected role counts as outer, as in OSM's multipolygon rules), then each inner
   * ring goes into the smallest outer ring containing it.
   */
  private areaGeometry(relation: OsmRelation): Geometry | null {
    const members = this.memberWayPositions(relation);
    const outer = joinRings(members.filter((m) => m.role !== "inner").map((m) => m.positions));
    const inner = joinRings(members.filter((m) => m.role === "inner").map((m) => m.positions));
    this.problems.relation_degenerate_ring += outer.degenerateRings + inner.degenerateRings;
    if (outer.openChains + inner.openChains > 0) {
      this.problems.relation_unclosed_ring++;
      return null;
    }
    if (outer.rings.length === 0) {
      this.problems.relation_without_geometry++;
      return null;
    }
    const { polygons, orphanInners } = buildPolygons(outer.rings, inner.rings);
    this.problems.relation_inner_outside_outer += orphanInners;
    // As osm2pgsql does for HOT: a multipolygon of one polygon is stored as a Polygon.
    return polygons.length === 1 ? { type: "Polygon", coordinates: polygons[0]! } : { type: "MultiPolygon", coordinates: polygons };
  }
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
