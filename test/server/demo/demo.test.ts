import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDemoStore, DEMO_BBOX, DEMO_CENTRE, DEMO_REPLICATION_TIMESTAMP, DEMO_TEST_AREA } from "../../../src/server/demo/index.js";
import { ringInsideRing, signedArea } from "../../../src/server/osm/rings.js";
import { QUALITY_STATUSES } from "../../../src/model/statuses.js";
import { geometryBBox } from "../../../src/model/geojson.js";
import type { Position } from "../../../src/model/geojson.js";
import { sqliteStoreFactory } from "../../../src/server/store/sqlite/store.js";
import { positions } from "../../support/geojson.js";
import { FEATURE_TABLES } from "../../../src/model/features.js";
import type { FeatureTable, OsmFeature } from "../../../src/model/features.js";
import { EVERYWHERE } from "../../../src/server/query/everywhere.js";

const dir = mkdtempSync(join(tmpdir(), "basemodel-demo-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Every row of every table, meta included, in a fixed order. */
function dump(path: string): Record<string, unknown[]> {
  const db = new Database(path, { readonly: true, fileMustExist: true });
  try {
    const tables = [...FEATURE_TABLES, ...FEATURE_TABLES.map((table) => `${table}_rtree`), "changesets", "changeset_hashtags", "quality"];
    const rows = Object.fromEntries(tables.map((table) => [table, db.prepare(`SELECT * FROM ${table} ORDER BY 1`).all()]));
    return { ...rows, meta: db.prepare("SELECT * FROM meta ORDER BY key").all() };
  } finally {
    db.close();
  }
}

const features = {} as Record<FeatureTable, OsmFeature[]>;
const all = (): OsmFeature[] => FEATURE_TABLES.flatMap((table) => features[table]);
const tagged = (table: FeatureTable, key: string, value?: string): OsmFeature[] =>
  features[table].filter((feature) => (value === undefined ? key in feature.tags : feature.tags[key] === value));

beforeAll(async () => {
  await createDemoStore(join(dir, "a.db"));
  await createDemoStore(join(dir, "b.db"));
  // Read through the store interface, as the server will.
  const store = await sqliteStoreFactory.open(join(dir, "a.db"));
  try {
    for (const table of FEATURE_TABLES) {
      features[table] = [];
      for await (const feature of store.candidates(table, EVERYWHERE, { annotated: true })) features[table].push(feature);
    }
  } finally {
    await store.close();
  }
});

describe("the demo dataset", () => {
  it("is deterministic: two generations give identical tables, and identical files", () => {
    expect(dump(join(dir, "a.db"))).toEqual(dump(join(dir, "b.db")));
    expect(readFileSync(join(dir, "a.db")).equals(readFileSync(join(dir, "b.db")))).toBe(true);
  });

  it("refuses to overwrite an existing file", async () => {
    await expect(createDemoStore(join(dir, "a.db"))).rejects.toThrow(/exists/);
  });

  it("holds a few hundred features of every table", () => {
    expect(all().length).toBeGreaterThan(300);
    expect(all().length).toBeLessThan(1000);
    for (const table of FEATURE_TABLES) expect(features[table].length).toBeGreaterThan(0);
  });

  it("has buildings of several kinds, some with addresses", () => {
    for (const kind of ["yes", "house", "residential", "school", "retail", "hospital"]) expect(tagged("ways_poly", "building", kind).length).toBeGreaterThan(0);
    const addressed = tagged("ways_poly", "addr:housenumber");
    expect(addressed.length).toBeGreaterThan(50);
    for (const building of addressed) expect(building.tags).toMatchObject({ "addr:street": expect.any(String), "addr:city": "Basemodel Demo Town" });
  });

  it("has named roads and footways", () => {
    for (const kind of ["primary", "secondary", "residential"]) {
      const roads = tagged("ways_line", "highway", kind);
      expect(roads.length).toBeGreaterThan(0);
      for (const road of roads) expect(road.tags["name"]).toBeTruthy();
    }
    expect(tagged("ways_line", "highway", "footway").length).toBeGreaterThan(0);
    for (const line of features.ways_line) expect(line.geometry.type).toBe("LineString");
  });

  it("has named points of interest: amenities and shops", () => {
    for (const kind of ["cafe", "school", "hospital"]) expect(tagged("nodes", "amenity", kind).length).toBeGreaterThan(0);
    expect(tagged("nodes", "shop").length).toBeGreaterThan(5);
    // The fountain needs no name; the unnamed ones are the deliberate "incomplete" problems.
    const unnamed = (node: OsmFeature) => node.tags["amenity"] === "fountain" || node.annotations!.statuses.includes("incomplete");
    for (const poi of [...tagged("nodes", "amenity"), ...tagged("nodes", "shop")].filter((node) => !unnamed(node))) {
      expect(poi.tags["name"]).toBeTruthy();
    }
    for (const node of features.nodes) expect(node.geometry.type).toBe("Point");
  });

  it("has a park", () => {
    expect(tagged("ways_poly", "leisure", "park")).toHaveLength(1);
  });

  it("has a multipolygon relation with a hole, and a route relation as lines", () => {
    const [townHall, ...others] = tagged("relations", "type", "multipolygon");
    expect(others).toEqual([]);
    expect(townHall!.geometry.type).toBe("Polygon");
    const [outer, hole, ...more] = townHall!.geometry.coordinates as Position[][];
    expect(more).toEqual([]);
    expect(ringInsideRing(hole!, outer!)).toBe(true);
    expect(tagged("relations", "type", "route")[0]!.geometry.type).toBe("MultiLineString");
  });

  it("has only closed, simple polygons: exteriors counter-clockwise, holes clockwise (RFC 7946)", () => {
    const polygons = [...features.ways_poly, ...features.relations].filter((feature) => feature.geometry.type === "Polygon");
    expect(polygons.length).toBeGreaterThan(200);
    for (const polygon of polygons) {
      const rings = polygon.geometry.coordinates as Position[][];
      rings.forEach((ring, index) => {
        expect(ring.length).toBeGreaterThanOrEqual(4);
        expect(ring[0]).toEqual(ring[ring.length - 1]);
        expect(selfIntersects(ring), `ring ${index} of ${polygon.osmId}`).toBe(false);
        if (index === 0) expect(signedArea(ring)).toBeGreaterThan(0);
        else expect(signedArea(ring)).toBeLessThan(0);
      });
    }
  });

  it("lies inside its bounding box, on OSM's 1e-7 degree grid", () => {
    const [lon, lat] = DEMO_CENTRE;
    expect(lon > DEMO_BBOX.minX && lon < DEMO_BBOX.maxX && lat > DEMO_BBOX.minY && lat < DEMO_BBOX.maxY).toBe(true);
    for (const feature of all()) {
      for (const [x, y] of positions(feature.geometry)) {
        expect(x >= DEMO_BBOX.minX && x <= DEMO_BBOX.maxX && y >= DEMO_BBOX.minY && y <= DEMO_BBOX.maxY, `${feature.osmId} at ${x} ${y}`).toBe(true);
        expect(Math.round(x * 1e7) / 1e7).toBe(x);
        expect(Math.round(y * 1e7) / 1e7).toBe(y);
      }
    }
  });

  it("has a test area of about 1 km² inside the town, with features of every kind in it", async () => {
    const width = (DEMO_TEST_AREA.maxX - DEMO_TEST_AREA.minX) * 111_320 * Math.cos((23 * Math.PI) / 180);
    const height = (DEMO_TEST_AREA.maxY - DEMO_TEST_AREA.minY) * 110_760;
    expect((width * height) / 1e6).toBeCloseTo(1, 1);
    expect(DEMO_TEST_AREA.minX > DEMO_BBOX.minX && DEMO_TEST_AREA.maxX < DEMO_BBOX.maxX).toBe(true);
    expect(DEMO_TEST_AREA.minY > DEMO_BBOX.minY && DEMO_TEST_AREA.maxY < DEMO_BBOX.maxY).toBe(true);
    const store = await sqliteStoreFactory.open(join(dir, "a.db"));
    try {
      expect((await store.queryBBox("ways_poly", DEMO_TEST_AREA)).length).toBeGreaterThan(100);
      for (const table of FEATURE_TABLES) expect((await store.queryBBox(table, DEMO_TEST_AREA)).length).toBeGreaterThan(0);
    } finally {
      await store.close();
    }
  });

  it("has plausible history: versions, changesets growing with time, timestamps, demo users", async () => {
    const edits = all().sort((a, b) => a.changeset! - b.changeset!);
    for (const feature of edits) {
      expect(feature.version).toBeGreaterThanOrEqual(1);
      expect(feature.timestamp).toMatch(/^20(2[0-4])-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
      expect(feature.timestamp! < DEMO_REPLICATION_TIMESTAMP).toBe(true);
      expect(feature.user).toMatch(/^demo_/);
      expect(feature.uid).toBeGreaterThan(0);
    }
    // Newer changesets, newer edits; within the hour a changeset stays open, either may come first.
    const times = edits.map((feature) => Date.parse(feature.timestamp!));
    for (let i = 1; i < times.length; i++) expect(times[i]!).toBeGreaterThan(times[i - 1]! - 3_600_000);
    expect(new Set(edits.map((feature) => feature.changeset)).size).toBeGreaterThan(20);
    expect(new Set(edits.map((feature) => feature.user)).size).toBeGreaterThan(4);
    expect(new Set(edits.map((feature) => feature.version)).size).toBeGreaterThan(2);

    const store = await sqliteStoreFactory.open(join(dir, "a.db"));
    try {
      expect((await store.readMeta())?.replicationTimestamp).toBe(DEMO_REPLICATION_TIMESTAMP);
    } finally {
      await store.close();
    }
  });
});

interface ChangesetRow {
  id: number;
  created_at: string;
  closed_at: string;
  uid: number;
  user: string;
  editor: string;
  hashtags: string;
  min_lon: number | null;
  min_lat: number | null;
  max_lon: number | null;
  max_lat: number | null;
}

interface FindingRow {
  feature_table: FeatureTable;
  osm_id: number;
  status: string;
  source: string;
  values: string;
}

function rows<T>(path: string, sql: string): T[] {
  const db = new Database(path, { readonly: true, fileMustExist: true });
  try {
    return db.prepare(sql).all() as T[];
  } finally {
    db.close();
  }
}

const findingRows = (path: string) => rows<FindingRow>(path, 'SELECT feature_table, osm_id, status, source, "values" FROM quality ORDER BY feature_table, osm_id, rank');

describe("the demo's changesets", () => {
  let changesets: Map<number, ChangesetRow>;
  beforeAll(() => {
    changesets = new Map(rows<ChangesetRow>(join(dir, "a.db"), "SELECT * FROM changesets").map((row) => [row.id, row]));
  });

  it("include every feature's changeset: its mapper's, open when the feature was edited, covering it", () => {
    for (const feature of all()) {
      const changeset = changesets.get(feature.changeset!)!;
      expect(changeset, `changeset ${feature.changeset} of ${feature.osmId}`).toBeDefined();
      expect(changeset).toMatchObject({ uid: feature.uid, user: feature.user });
      expect(changeset.created_at <= feature.timestamp! && feature.timestamp! < changeset.closed_at, `${feature.osmId} at ${feature.timestamp}`).toBe(true);
      const box = geometryBBox(feature.geometry);
      expect(changeset.min_lon! <= box.minX && changeset.min_lat! <= box.minY && changeset.max_lon! >= box.maxX && changeset.max_lat! >= box.maxY).toBe(true);
      expect(feature.annotations).toMatchObject({ editor: changeset.editor, createdAt: changeset.created_at, hashtags: JSON.parse(changeset.hashtags) });
    }
    // And no changeset without a feature in it.
    expect(new Set(all().map((feature) => feature.changeset))).toEqual(new Set(changesets.keys()));
  });

  it("were made with several editors", () => {
    const editors = [...changesets.values()].map((changeset) => changeset.editor);
    for (const editor of [/^iD 2\./, /^JOSM\/1\.5 \(/, /^StreetComplete /, /^Every Door /]) expect(editors.some((name) => editor.test(name)), String(editor)).toBe(true);
  });

  it("carry hashtags, a good share of them: HOT projects and campaigns, which the store filters on", async () => {
    const hashtagged = [...changesets.values()].map((changeset) => JSON.parse(changeset.hashtags) as string[]).filter((hashtags) => hashtags.length > 0);
    expect(hashtagged.length / changesets.size).toBeGreaterThan(0.25);
    expect(hashtagged.length / changesets.size).toBeLessThan(0.75);
    const hashtags = new Set(hashtagged.flat());
    expect([...hashtags].filter((hashtag) => /^hotosm-project-\d+$/.test(hashtag)).length).toBeGreaterThanOrEqual(2);
    expect(hashtags).toContain("MissingMaps");
    expect(hashtags).toContain("mapathon");

    const expected = features.ways_poly.filter((feature) => feature.annotations!.hashtags.includes("MissingMaps")).length;
    expect(expected).toBeGreaterThan(0);
    const store = await sqliteStoreFactory.open(join(dir, "a.db"));
    try {
      expect(await store.countCandidates("ways_poly", EVERYWHERE, { changesets: { hashtag: "#missingmaps" } })).toBe(expected);
    } finally {
      await store.close();
    }
  });
});

describe("the demo's data quality problems", () => {
  const withStatus = (status: string) => all().filter((feature) => feature.annotations!.statuses.includes(status));

  it("show every status of the default rule set, each on a few features; most features have none", () => {
    for (const status of QUALITY_STATUSES) {
      expect(withStatus(status).length, status).toBeGreaterThan(0);
      expect(withStatus(status).length, status).toBeLessThanOrEqual(5);
    }
    const flagged = all().filter((feature) => feature.annotations!.statuses.length > 0);
    expect(flagged.length / all().length).toBeLessThan(0.05);
  });

  it("are what the checker says of each: off-square corners, a pair overlapping, a pair duplicated, bad values, missing names", () => {
    const byId = new Map(all().map((feature) => [feature.osmId, feature]));
    const findings = findingRows(join(dir, "a.db"));
    const values = (status: string) => findings.filter((row) => row.status === status).map((row) => ({ id: row.osm_id, values: JSON.parse(row.values) as string[] }));
    for (const { values: found } of values("badgeom")) expect(found).toEqual([expect.stringMatching(/^not square: \d+\.\d° corner at /)]);
    for (const status of ["overlapping", "duplicate"]) {
      const pair = values(status);
      expect(pair).toHaveLength(2);
      const [a, b] = pair;
      expect(a!.values).toEqual([`way/${b!.id}`]);
      expect(b!.values).toEqual([`way/${a!.id}`]);
    }
    const [original, copy] = values("duplicate");
    expect(byId.get(original!.id)!.geometry).toEqual(byId.get(copy!.id)!.geometry);
    for (const { id, values: found } of values("badvalue")) expect(found).toEqual([`building=${byId.get(id)!.tags["building"]}`]);
    for (const { id, values: found } of values("incomplete")) {
      expect(found).toEqual(["name"]);
      expect(byId.get(id)!.tags["name"]).toBeUndefined();
    }
    expect(new Set(findings.map((row) => row.source))).toEqual(new Set(["building", "amenity"]));
  });

  it("are deterministic: two builds give the same findings", () => {
    const findings = findingRows(join(dir, "a.db"));
    expect(findings.length).toBeGreaterThan(0);
    expect(findingRows(join(dir, "b.db"))).toEqual(findings);
  });
});

/** Whether two edges of a closed ring cross or touch, other than neighbours at their shared vertex. */
function selfIntersects(ring: Position[]): boolean {
  const edges = ring.length - 1;
  for (let i = 0; i < edges; i++) {
    for (let j = i + 1; j < edges; j++) {
      const neighbours = j === i + 1 || (i === 0 && j === edges - 1);
      if (!neighbours && segmentsMeet(ring[i]!, ring[i + 1]!, ring[j]!, ring[j + 1]!)) return true;
    }
  }
  return false;
}

function segmentsMeet(a: Position, b: Position, c: Position, d: Position): boolean {
  const side = (p: Position, q: Position, r: Position): number => Math.sign((q[0] - p[0]) * (r[1] - p[1]) - (q[1] - p[1]) * (r[0] - p[0]));
  const within = (p: Position, q: Position, r: Position): boolean =>
    Math.min(p[0], q[0]) <= r[0] && r[0] <= Math.max(p[0], q[0]) && Math.min(p[1], q[1]) <= r[1] && r[1] <= Math.max(p[1], q[1]);
  const [d1, d2, d3, d4] = [side(c, d, a), side(c, d, b), side(a, b, c), side(a, b, d)];
  if (d1 !== d2 && d3 !== d4 && d1 !== 0 && d2 !== 0 && d3 !== 0 && d4 !== 0) return true;
  return (d1 === 0 && within(c, d, a)) || (d2 === 0 && within(c, d, b)) || (d3 === 0 && within(a, b, c)) || (d4 === 0 && within(a, b, d));
}
