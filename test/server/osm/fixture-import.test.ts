import { createReadStream, createWriteStream, readdirSync } from "node:fs";
import { join } from "node:path";
import { pipeline } from "node:stream/promises";
import { createGzip } from "node:zlib";
import { beforeAll, describe, expect, it } from "vitest";
import { importOsm } from "../../../src/server/fill/import.js";
import type { ImportSummary } from "../../../src/server/fill/import.js";
import { fixture, readAllFeatures, temporaryDirectory } from "./helpers.js";
import { withoutStored } from "../store/helpers.js";

const NO_METADATA = { version: null, changeset: null, timestamp: null, uid: null, user: null };

/** Expected features of fixtures/osm/assembly.osm, table by table. */
const EXPECTED = {
  nodes: [
    {
      osmId: 1,
      ...NO_METADATA,
      version: 1,
      timestamp: "2024-01-01T00:00:00Z",
      tags: { amenity: "bench" },
      geometry: { type: "Point", coordinates: [0, 0] },
    },
    {
      // odbl is dropped; changeset, uid and user come through.
      osmId: 80,
      version: 2,
      changeset: 123,
      timestamp: "2024-05-01T10:00:00Z",
      uid: 7,
      user: "alice",
      tags: { name: "Kept" },
      geometry: { type: "Point", coordinates: [0, 40] },
    },
  ],
  ways_line: [
    { osmId: 30, ...NO_METADATA, version: 3, tags: { highway: "residential" }, geometry: { type: "LineString", coordinates: [[0, 10], [1, 10]] } },
    // Closed, but only 3 nodes: a line, as in HOT's schema.
    { osmId: 51, ...NO_METADATA, tags: { barrier: "fence" }, geometry: { type: "LineString", coordinates: [[0, 30], [1, 30], [0, 30]] } },
  ],
  ways_poly: [
    // Drawn clockwise in the file; stored counter-clockwise (RFC 7946).
    { osmId: 52, ...NO_METADATA, tags: { building: "yes" }, geometry: { type: "Polygon", coordinates: [[[20, 0], [21, 0], [20, 1], [20, 0]]] } },
  ],
  relations: [
    {
      osmId: 100,
      ...NO_METADATA,
      version: 4,
      timestamp: "2024-03-01T00:00:00Z",
      tags: { type: "multipolygon", landuse: "forest" },
      geometry: {
        type: "Polygon",
        coordinates: [
          [[0, 0], [4, 0], [4, 4], [0, 4], [0, 0]],
          // The hole, clockwise.
          [[1, 1], [1, 2], [2, 2], [2, 1], [1, 1]],
        ],
      },
    },
    {
      // Two squares touching at (11,1) come out as two simple polygons.
      osmId: 101,
      ...NO_METADATA,
      tags: { type: "multipolygon", building: "yes" },
      geometry: {
        type: "MultiPolygon",
        coordinates: [[[[11, 1], [12, 1], [12, 2], [11, 2], [11, 1]]], [[[10, 0], [11, 0], [11, 1], [10, 1], [10, 0]]]],
      },
    },
    {
      osmId: 103,
      ...NO_METADATA,
      tags: { type: "route", route: "bus" },
      geometry: { type: "MultiLineString", coordinates: [[[0, 10], [1, 10]], [[1, 10], [2, 10]]] },
    },
  ],
};

const EXPECTED_SUMMARY = {
  counts: { nodes: 2, ways_line: 2, ways_poly: 1, relations: 3 },
  problems: {
    way_missing_nodes: 0,
    way_without_geometry: 0,
    relation_missing_members: 2, // 102 (way 998) and 103 (way 999)
    relation_unclosed_ring: 1, // 102, which is therefore not stored
    relation_degenerate_ring: 0,
    relation_inner_outside_outer: 0,
    relation_without_geometry: 0,
  },
  // No timestamp on <osm>: the newest object's (node 81, skipped as a feature but in the file).
  replicationTimestamp: "2024-06-30T12:34:56Z",
};

async function expectFixtureImported(dbPath: string, summary: ImportSummary): Promise<void> {
  expect(summary).toMatchObject(EXPECTED_SUMMARY);
  const features = await readAllFeatures(dbPath);
  for (const [table, expected] of Object.entries(EXPECTED)) {
    const stored = [...features[table as keyof typeof EXPECTED].values()].sort((a, b) => a.osmId - b.osmId);
    expect(withoutStored(stored), table).toEqual(expected);
  }
}

// Imports are quick, but CI machines can be slow and loaded: allow them time.
describe("importing the hand-written fixture", { timeout: 120_000 }, () => {
  const directory = temporaryDirectory();

  it("classifies and assembles every case exactly", async () => {
    const dbPath = join(directory, "plain.db");
    const progress: Array<[number, number]> = [];
    const summary = await importOsm(fixture("assembly.osm"), dbPath, { onProgress: (done, total) => progress.push([done, total]) });
    await expectFixtureImported(dbPath, summary);
    // Two passes over the file: progress ends at twice its size.
    const [done, total] = progress[progress.length - 1]!;
    expect(done).toBe(total);
  });

  describe("gzipped", () => {
    const gzPath = join(directory, "assembly.osm.gz");
    beforeAll(() => pipeline(createReadStream(fixture("assembly.osm")), createGzip(), createWriteStream(gzPath)));

    it("gives the same result", async () => {
      const dbPath = join(directory, "gzipped.db");
      await expectFixtureImported(dbPath, await importOsm(gzPath, dbPath));
    });
  });

  it("leaves only the finished store behind (the temporary file is renamed)", () => {
    expect(readdirSync(directory).filter((name) => name.includes(".importing"))).toEqual([]);
  });
});
