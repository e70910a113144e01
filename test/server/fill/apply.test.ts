import { copyFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { OsmImportError } from "../../../src/server/osm/errors.js";
import { sqliteStoreFactory } from "../../../src/server/store/sqlite/store.js";
import type { OsmFeature } from "../../../src/model/features.js";
import { UpdateError } from "../../../src/server/fill/update-errors.js";
import { updateStore } from "../../../src/server/fill/update-store.js";
import { monacoStoreCopy } from "../../support/monaco.js";
import { differingTables, findingsOf, snapshotStore, tagKeyMismatches, updateFixture } from "./helpers.js";
import { EVERYWHERE } from "../../../src/server/query/everywhere.js";

const CHANGESETS = updateFixture("monaco-mapathon-changesets.osm");
const FIRST = updateFixture("monaco-mapathon-1.osc");
const SECOND = updateFixture("monaco-mapathon-2.osc");

/** The mapathon's buildings (fixtures/updates/README.md). */
const SQUARE = 1_200_000_001;
const UNSQUARED = 1_200_000_002;
const OVERLAP_A = 1_200_000_003;
const OVERLAP_B = 1_200_000_004;
const BAD_VALUE = 1_200_000_005;
/** A Monaco building one of whose corners (node 624454256) the first file moves. */
const MOVED_CORNER_BUILDING = 49_209_624;

async function feature(path: string, table: "ways_poly" | "nodes", osmId: number): Promise<OsmFeature | null> {
  const store = await sqliteStoreFactory.open(path);
  try {
    for await (const found of store.candidates(table, EVERYWHERE, { annotated: true })) {
      if (found.osmId === osmId) return found;
    }
    return null;
  } finally {
    await store.close();
  }
}

async function replicationTimestamp(path: string): Promise<string | null> {
  const store = await sqliteStoreFactory.open(path);
  try {
    return (await store.readMeta())!.replicationTimestamp;
  } finally {
    await store.close();
  }
}

describe("basemodel update on the Monaco import: a small mapathon", () => {
  let db: string;
  beforeAll(async () => {
    db = await monacoStoreCopy();
  });

  it("applies the first file: creates the buildings, rebuilds the Monaco building whose corner moved, checks quality, loads changesets", async () => {
    const before = await feature(db, "ways_poly", MOVED_CORNER_BUILDING);
    expect(before!.geometry.coordinates[0]).toContainEqual([7.4219935, 43.7308379]);

    const summary = await updateStore(db, FIRST, { changesets: CHANGESETS });

    expect(summary.created).toEqual({ node: 20, way: 5, relation: 0 });
    expect(summary.modified).toEqual({ node: 1, way: 0, relation: 0 });
    expect(summary.deleted).toEqual({ node: 0, way: 0, relation: 0 });
    expect(summary.skipped).toBe(0);
    // Five new buildings, and the Monaco building rebuilt though the file does not name it.
    expect(summary.featuresWritten).toBe(6);
    expect(summary.changesets).toBe(3);
    expect(summary.replicationTimestamp).toBe("2025-01-10T11:40:00Z");

    const moved = await feature(db, "ways_poly", MOVED_CORNER_BUILDING);
    expect(moved!.geometry.coordinates[0]).toContainEqual([7.4220062, 43.730846]);
    expect(moved!.geometry.coordinates[0]).not.toContainEqual([7.4219935, 43.7308379]);
    // A corner moved; the building itself keeps its version, as in OSM.
    expect(moved!.version).toBe(before!.version);

    const square = await feature(db, "ways_poly", SQUARE);
    expect(square).toMatchObject({
      version: 1,
      changeset: 160_000_001,
      timestamp: "2025-01-10T10:15:00Z",
      user: "mapathon_amina",
      tags: { building: "house" },
      annotations: { statuses: [], hashtags: ["hotosm-project-123", "Mapathon-Monaco"], editor: "iD 2.30.4", createdAt: "2025-01-10T10:02:11Z" },
    });
    expect(findingsOf(db, "ways_poly", SQUARE)).toEqual([]);
    expect(findingsOf(db, "ways_poly", UNSQUARED)).toEqual([{ status: "badgeom", source: "building", values: [expect.stringMatching(/^not square: /)] }]);
    expect(findingsOf(db, "ways_poly", OVERLAP_A)).toEqual([{ status: "overlapping", source: "building", values: [`way/${OVERLAP_B}`] }]);
    expect(findingsOf(db, "ways_poly", OVERLAP_B)).toEqual([{ status: "overlapping", source: "building", values: [`way/${OVERLAP_A}`] }]);
    expect(findingsOf(db, "ways_poly", BAD_VALUE)).toEqual([{ status: "badvalue", source: "building", values: ["building=houes"] }]);
    expect(await replicationTimestamp(db)).toBe("2025-01-10T11:40:00Z");
  });

  it("applying the same file again changes nothing", async () => {
    const before = snapshotStore(db);
    const summary = await updateStore(db, FIRST, { changesets: CHANGESETS });
    expect(summary.skipped).toBe(26);
    expect(summary.featuresWritten + summary.featuresRemoved).toBe(0);
    expect(differingTables(db, before)).toEqual([]);
  });

  it("the comparison sees a change (so that 'nothing changed' means something)", async () => {
    const before = snapshotStore(db);
    await updateStore(db, SECOND);
    expect(differingTables(db, before)).toEqual(expect.arrayContaining(["osm_nodes", "osm_ways", "ways_poly", "quality", "meta"]));
    // The test below applies the same file: the store already has it, so it only reads.
    copyFileSync(before, db);
  });

  it("applies the second file: a fixed value, a moved building and a deletion each clear their status", async () => {
    const summary = await updateStore(db, SECOND);
    expect(summary.modified).toEqual({ node: 4, way: 1, relation: 0 });
    expect(summary.deleted).toEqual({ node: 4, way: 1, relation: 0 });
    expect(await feature(db, "ways_poly", UNSQUARED)).toBeNull();
    expect(findingsOf(db, "ways_poly", UNSQUARED)).toEqual([]);
    expect(findingsOf(db, "ways_poly", BAD_VALUE)).toEqual([]);
    expect((await feature(db, "ways_poly", BAD_VALUE))!.tags).toEqual({ building: "house" });
    // Only its nodes moved: the way is rebuilt, and both it and its old neighbour lose "overlapping".
    expect((await feature(db, "ways_poly", OVERLAP_B))!.geometry.coordinates[0]).toContainEqual([7.4406217, 43.7398054]);
    expect(findingsOf(db, "ways_poly", OVERLAP_B)).toEqual([]);
    expect(findingsOf(db, "ways_poly", OVERLAP_A)).toEqual([]);
    expect(await replicationTimestamp(db)).toBe("2025-01-12T09:05:00Z");
  });

  it("keeps the count of features per tag key true through creations, modifications and deletions", async () => {
    expect(tagKeyMismatches(await monacoStoreCopy())).toEqual([]);
    // By now both mapathon files are applied.
    expect(tagKeyMismatches(db)).toEqual([]);
    // Counted twice if a replaced row's keys were not taken off first.
    await updateStore(db, SECOND, { skipQuality: true });
    expect(tagKeyMismatches(db)).toEqual([]);
  });
});

describe("basemodel update refuses a change it cannot apply, and leaves the store as it was", () => {
  let db: string;
  let folder: string;
  beforeAll(async () => {
    db = await monacoStoreCopy();
    folder = dirname(db);
  });

  const osc = (name: string, body: string): string => {
    const path = join(folder, name);
    writeFileSync(path, `<?xml version="1.0" encoding="UTF-8"?>\n<osmChange version="0.6">\n${body}\n</osmChange>\n`);
    return path;
  };

  it.each([
    ["a modified way the store does not have", `<modify><way id="999999999999" version="2"><nd ref="1"/><nd ref="2"/><tag k="highway" v="path"/></way></modify>`, "modifies way 999999999999, which the store does not have"],
    ["a deleted node the store does not have", `<delete><node id="999999999998" version="3"/></delete>`, "deletes node 999999999998, which the store does not have"],
    [
      "a new way on nodes nobody has",
      `<create><way id="999999999997" version="1"><nd ref="999999999990"/><nd ref="999999999991"/><tag k="highway" v="path"/></way></create>`,
      "way 999999999997 uses node 999999999990, node 999999999991, which neither the store nor the change file has",
    ],
    ["a deleted node a way still uses", `<delete><node id="624454256" version="9"/></delete>`, "deletes node 624454256, but way 49209624 still uses it"],
  ])("%s", async (_name, body, message) => {
    const before = snapshotStore(db);
    // Valid changes come first: they must be undone with the rest.
    const path = osc(
      `bad-${Math.random().toString(36).slice(2)}.osc`,
      `<create><node id="999999999000" version="1" lat="43.74" lon="7.44"><tag k="amenity" v="bench"/></node></create>\n${body}`,
    );
    const failure = updateStore(db, path);
    await expect(failure).rejects.toThrow(UpdateError);
    await expect(failure).rejects.toThrow(message);
    expect(differingTables(db, before)).toEqual([]);
  });

  it("a moved node rebuilds the area relation whose (untagged) member way uses it", async () => {
    // Node 624455859 is a corner of way 49209643, the outer ring of the multipolygon building relation 2236035.
    const path = osc("move-relation-corner.osc", `<modify><node id="624455859" version="3" timestamp="2025-02-01T00:00:00Z" lat="43.7313545" lon="7.4235053"/></modify>`);
    const summary = await updateStore(db, path, { skipQuality: true });
    expect(summary.modified).toEqual({ node: 1, way: 0, relation: 0 });
    const store = await sqliteStoreFactory.open(db);
    try {
      const [relation] = (await store.queryBBox("relations", { minX: 7.4235053, minY: 43.7313545, maxX: 7.4235053, maxY: 43.7313545 })).filter((found) => found.osmId === 2_236_035);
      expect(relation!.geometry.coordinates[0]).toContainEqual([7.4235053, 43.7313545]);
      expect(relation!.geometry.coordinates[0]).not.toContainEqual([7.4234953, 43.7313445]);
    } finally {
      await store.close();
    }
  });

  it("a malformed or truncated file is refused before the store is opened", async () => {
    const before = snapshotStore(db);
    const malformed = osc("malformed.osc", `<create><node id="1" version="1" lat="43.7" lon="7.4"></create>`);
    await expect(updateStore(db, malformed)).rejects.toThrow(OsmImportError);
    const truncated = join(folder, "truncated.osc.gz");
    writeFileSync(truncated, Buffer.from([0x1f, 0x8b, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x03, 0x4b]));
    await expect(updateStore(db, truncated)).rejects.toThrow(/truncated gzip data/);
    expect(differingTables(db, before)).toEqual([]);
  });
});
