/**
 * Our import of the Monaco extract against `osmium export` with the HOT-compatible
 * configuration (docs/decisions.md). Needs osmium (Debian package osmium-tool; CI installs it).
 */
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { importOsm } from "../../../src/server/fill/import.js";
import type { ImportSummary } from "../../../src/server/fill/import.js";
import { signedArea } from "../../../src/server/osm/rings.js";
import type { Ring } from "../../../src/server/osm/rings.js";
import type { Geometry, Position } from "../../../src/model/geojson.js";
import type { FeatureTable, OsmFeature } from "../../../src/model/features.js";
import { hasTool } from "../../support/requirements.js";
import { MONACO, readAllFeatures, temporaryDirectory } from "./helpers.js";

const OSMIUM_CONFIG = { attributes: { type: true, id: true, version: true, timestamp: true }, linear_tags: false, area_tags: true };

interface OsmiumFeature {
  geometry: Geometry;
  properties: Record<string, string | number> & { "@type": string; "@id": number; "@version": number; "@timestamp": number };
}

/** osmium's output sorted into our tables (it exports no non-area relations). */
function runOsmiumExport(input: string, directory: string): Record<FeatureTable, Map<number, OsmiumFeature>> {
  const configPath = join(directory, "osmium-config.json");
  const outputPath = join(directory, "osmium.geojsonseq");
  writeFileSync(configPath, JSON.stringify(OSMIUM_CONFIG));
  execFileSync("osmium", ["export", "-c", configPath, "-f", "geojsonseq", "-u", "type_id", "-O", "-o", outputPath, input]);
  const tables: Record<FeatureTable, Map<number, OsmiumFeature>> = { nodes: new Map(), ways_line: new Map(), ways_poly: new Map(), relations: new Map() };
  for (const line of readFileSync(outputPath, "utf8").split("\n")) {
    const text = line.replace(/^\x1e/, "").trim();
    if (text === "") continue;
    const feature = JSON.parse(text) as OsmiumFeature;
    const { "@type": type, "@id": id } = feature.properties;
    const table = type === "node" ? "nodes" : type === "relation" ? "relations" : feature.geometry.type === "LineString" ? "ways_line" : "ways_poly";
    tables[table].set(id, feature);
  }
  return tables;
}

/** `count` ids drawn with a fixed-seed generator, so every run checks the same sample. */
function sample(ids: number[], count: number, seed = 20250101): number[] {
  const pool = [...ids].sort((a, b) => a - b);
  let state = seed;
  const picked: number[] = [];
  while (picked.length < count && pool.length > 0) {
    state = (state * 1103515245 + 12345) >>> 0;
    picked.push(pool.splice(state % pool.length, 1)[0]!);
  }
  return picked;
}

function expectSamePositions(ours: Position[], theirs: Position[]): void {
  expect(ours).toHaveLength(theirs.length);
  ours.forEach(([x, y], i) => {
    expect(Math.abs(x - theirs[i]![0])).toBeLessThan(1e-7);
    expect(Math.abs(y - theirs[i]![1])).toBeLessThan(1e-7);
  });
}

/** A ring as a canonical cycle: counter-clockwise, starting at its smallest vertex, unclosed. */
function canonicalRing(ring: Ring): Position[] {
  let cycle = ring.slice(0, -1);
  if (signedArea(ring) < 0) cycle.reverse();
  let start = 0;
  cycle.forEach(([x, y], i) => {
    const [sx, sy] = cycle[start]!;
    if (x < sx || (x === sx && y < sy)) start = i;
  });
  cycle = [...cycle.slice(start), ...cycle.slice(0, start)];
  return cycle;
}

/** Planar area of a (multi)polygon in square degrees: exteriors minus holes. */
function polygonalArea(geometry: Geometry): number {
  const polygons = geometry.type === "Polygon" ? [geometry.coordinates] : geometry.type === "MultiPolygon" ? geometry.coordinates : [];
  let area = 0;
  for (const [exterior, ...holes] of polygons) {
    area += Math.abs(signedArea(exterior!));
    for (const hole of holes) area -= Math.abs(signedArea(hole));
  }
  return area;
}

function expectSameAttributes(ours: OsmFeature, theirs: OsmiumFeature): void {
  const { "@type": type, "@id": id, "@version": version, "@timestamp": timestamp, ...tags } = theirs.properties;
  expect(ours.osmId).toBe(id);
  expect(ours.version).toBe(version);
  expect(ours.timestamp).toBe(new Date(timestamp * 1000).toISOString().replace(".000Z", "Z"));
  // osmium's area features drop a relation's `type` tag; HOT's relations table keeps it.
  const { type: _relationType, ...oursWithoutType } = ours.tags;
  expect(type === "relation" ? oursWithoutType : ours.tags).toEqual(tags);
}

describe.skipIf(!hasTool(["osmium"], "osmium-tool"))("Monaco against osmium export", { timeout: 120_000 }, () => {
  const directory = temporaryDirectory();
  let summary: ImportSummary;
  let ours: Record<FeatureTable, Map<number, OsmFeature>>;
  let osmium: Record<FeatureTable, Map<number, OsmiumFeature>>;

  beforeAll(async () => {
    const dbPath = join(directory, "monaco.db");
    summary = await importOsm(MONACO, dbPath);
    ours = await readAllFeatures(dbPath);
    osmium = runOsmiumExport(MONACO, directory);
  }, 600_000);

  it("reads the replication timestamp from the header", () => {
    expect(summary.replicationTimestamp).toBe("2025-01-01T21:21:00Z");
  });

  it("stores exactly as many nodes, lines and way polygons as osmium exports", () => {
    expect(summary.counts).toEqual({ nodes: 3654, ways_line: 3477, ways_poly: 2162, relations: 228 });
    expect(osmium.nodes.size).toBe(3654);
    expect(osmium.ways_line.size).toBe(3477);
    expect(osmium.ways_poly.size).toBe(2162);
    expect([...ours.nodes.keys()].sort()).toEqual([...osmium.nodes.keys()].sort());
    expect([...ours.ways_line.keys()].sort()).toEqual([...osmium.ways_line.keys()].sort());
    expect([...ours.ways_poly.keys()].sort()).toEqual([...osmium.ways_poly.keys()].sort());
  });

  it("stores the area relations osmium exports, plus one it cannot complete", () => {
    const areaRelations = [...ours.relations.values()].filter((f) => f.tags["type"] === "multipolygon" || f.tags["type"] === "boundary");
    expect(areaRelations).toHaveLength(57);
    expect(osmium.relations.size).toBe(56);
    // Multipolygon 5197022 (a building) lacks its inner way 128840974 in the extract.
    // osmium export only builds relations whose members are all present; we build it from
    // the members there are (as osm2pgsql does for HOT), so here it has no hole.
    const extra = areaRelations.map((f) => f.osmId).filter((id) => !osmium.relations.has(id));
    expect(extra).toEqual([5197022]);
    // The other 171 relations are routes, restrictions etc. (MultiLineStrings), which
    // osmium export does not write at all; broken ones are counted, not stored.
    expect(summary.problems).toEqual({
      way_missing_nodes: 0,
      way_without_geometry: 0,
      relation_missing_members: 86,
      relation_unclosed_ring: 32,
      relation_degenerate_ring: 0,
      relation_inner_outside_outer: 0,
      relation_without_geometry: 48,
    });
  });

  it("has the same node positions and attributes (50 sampled nodes)", () => {
    for (const id of sample([...osmium.nodes.keys()], 50)) {
      const mine = ours.nodes.get(id)!;
      const theirs = osmium.nodes.get(id)!;
      expectSameAttributes(mine, theirs);
      expectSamePositions([mine.geometry.coordinates as Position], [theirs.geometry.coordinates as Position]);
    }
  });

  it("has the same line coordinates (50 sampled lines)", () => {
    for (const id of sample([...osmium.ways_line.keys()], 50)) {
      const mine = ours.ways_line.get(id)!;
      const theirs = osmium.ways_line.get(id)!;
      expectSameAttributes(mine, theirs);
      expectSamePositions(mine.geometry.coordinates as Position[], theirs.geometry.coordinates as Position[]);
    }
  });

  it("has the same way polygon rings (50 sampled polygons; osmium writes them as MultiPolygons)", () => {
    for (const id of sample([...osmium.ways_poly.keys()], 50)) {
      const mine = ours.ways_poly.get(id)!;
      const theirs = osmium.ways_poly.get(id)!;
      expectSameAttributes(mine, theirs);
      expect(mine.geometry.type).toBe("Polygon");
      expect(signedArea((mine.geometry.coordinates as Ring[])[0]!)).toBeGreaterThanOrEqual(0);
      const theirRings = (theirs.geometry.coordinates as Ring[][]).flat();
      expect(theirRings).toHaveLength(1);
      expectSamePositions(canonicalRing((mine.geometry.coordinates as Ring[])[0]!), canonicalRing(theirRings[0]!));
    }
  });

  it("has the same multipolygon areas (every relation osmium exports)", () => {
    for (const [id, theirs] of osmium.relations) {
      const mine = ours.relations.get(id)!;
      expectSameAttributes(mine, theirs);
      const expected = polygonalArea(theirs.geometry);
      expect(Math.abs(polygonalArea(mine.geometry) - expected)).toBeLessThanOrEqual(1e-6 * expected);
    }
  });
});
