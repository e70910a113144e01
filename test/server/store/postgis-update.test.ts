/**
 * `basemodel update --db postgres://`: the same change file applied by basemodel's own update to
 * the SQLite store and by osm2pgsql --append to the PostGIS store (both loaded from Monaco and
 * checked by `check`) leaves the same features, the same data quality findings and the same
 * replication timestamp. The change moves a node that a building uses, edits a building's tags,
 * deletes a tagged node and adds a building over another one (an overlap), with a changeset.
 */
import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { importOsm } from "../../../src/server/fill/import.js";
import { QUALITY_STATUSES } from "../../../src/model/statuses.js";
import { EVERYWHERE } from "../../../src/server/query/everywhere.js";
import { openStore } from "../../../src/server/store/open.js";
import { FEATURE_TABLES, type FeatureTable, type OsmFeature } from "../../../src/model/features.js";
import { type FeatureStore } from "../../../src/server/store/store.js";
import { checkWholeStore, updateStore } from "../../../src/server/fill/update-store.js";
import { monacoStoreCopy } from "../../support/monaco.js";
import { MONACO, temporaryDirectory } from "../osm/helpers.js";
import { postgresTemplateUrl } from "../../support/requirements.js";
import { createDatabase, type TestDatabase } from "../../support/services.js";
import { canonicalFeature } from "./canonical.js";

const template = postgresTemplateUrl();
const BIN = join(import.meta.dirname, "../../../bin/basemodel.js");

/** What the two loaders build differently (see postgis.test.ts and contract/routes.test.ts), set aside on both sides. */
const KNOWN_DIFFERENCES = new Set([11_384_697, 834_307_956, 834_307_957, 834_307_958, 49_209_185, 585_654_706]);

/** A building (the Ministère d'État) whose first corner the change moves by about a metre. */
const MOVED_CORNER_OF = 25_722_685;
const EDITED_WAY = 49_209_540;
const DELETED_NODE = 745_763_718; // a taxi stand, in no way
const NEW_NODES = [13_000_000_001, 13_000_000_002, 13_000_000_003, 13_000_000_004];
const NEW_WAY = 13_000_000_901;
const CHANGESET = 160_000_001;
const WHEN = "2025-01-10T10:15:00Z";

/** The change, sorted by type and id as osm2pgsql wants it; the new building is a square around the edited one's inner point. */
function changeFile(moved: { id: number; lon: number; lat: number }, editedRefs: number[], [lon, lat]: [number, number]): string {
  // One version past what Monaco's extract has (5 for both): an older one is skipped by basemodel's own update.
  const meta = `version="6" timestamp="${WHEN}" changeset="${CHANGESET}" uid="42" user="mapper"`;
  const d = 0.00008;
  const corners = [
    [lon - d, lat - d],
    [lon + d, lat - d],
    [lon + d, lat + d],
    [lon - d, lat + d],
  ];
  return `<?xml version="1.0" encoding="UTF-8"?>
<osmChange version="0.6" generator="basemodel test">
  <modify><node id="${moved.id}" version="99" timestamp="${WHEN}" changeset="${CHANGESET}" uid="42" user="mapper" lat="${moved.lat.toFixed(7)}" lon="${(moved.lon + 0.00001).toFixed(7)}"/></modify>
  <delete><node id="${DELETED_NODE}" ${meta} lat="43.73" lon="7.42"/></delete>
  <create>
${NEW_NODES.map((id, index) => `    <node id="${id}" version="1" timestamp="${WHEN}" changeset="${CHANGESET}" uid="42" user="mapper" lon="${corners[index]![0]!.toFixed(7)}" lat="${corners[index]![1]!.toFixed(7)}"/>`).join("\n")}
  </create>
  <modify>
    <way id="${EDITED_WAY}" ${meta}>
${editedRefs.map((ref) => `      <nd ref="${ref}"/>`).join("\n")}
      <tag k="building" v="apartments"/><tag k="addr:country" v="MC"/><tag k="name" v="Edited"/>
    </way>
  </modify>
  <create>
    <way id="${NEW_WAY}" version="1" timestamp="${WHEN}" changeset="${CHANGESET}" uid="42" user="mapper">
${[...NEW_NODES, NEW_NODES[0]].map((ref) => `      <nd ref="${ref}"/>`).join("\n")}
      <tag k="building" v="yes"/>
    </way>
  </create>
</osmChange>
`;
}

const CHANGESETS = `<?xml version="1.0" encoding="UTF-8"?>
<osm version="0.6">
  <changeset id="${CHANGESET}" created_at="2025-01-10T10:00:00Z" closed_at="2025-01-10T10:20:00Z" open="false" user="mapper" uid="42" min_lat="43.73" min_lon="7.42" max_lat="43.74" max_lon="7.43">
    <tag k="created_by" v="JOSM/1.5"/><tag k="comment" v="Buildings #hotosm-project-1 #Test"/><tag k="hashtags" v="#hotosm-project-1;#Test"/>
  </changeset>
</osm>
`;

async function everyFeature(store: FeatureStore): Promise<Record<FeatureTable, Map<number, unknown>>> {
  const tables = {} as Record<FeatureTable, Map<number, unknown>>;
  for (const table of FEATURE_TABLES) {
    const features = new Map<number, unknown>();
    for await (const feature of store.candidates(table, EVERYWHERE)) if (!KNOWN_DIFFERENCES.has(feature.osmId)) features.set(feature.osmId, canonicalFeature(feature as OsmFeature));
    tables[table] = features;
  }
  return tables;
}

async function everyFinding(store: FeatureStore): Promise<string[]> {
  const { rows } = await store.qualityFindings({ statuses: QUALITY_STATUSES }, { offset: 0, limit: 1_000_000 });
  return rows
    .filter((row) => !KNOWN_DIFFERENCES.has(row.osmId))
    .map((row) => JSON.stringify([row.table, row.osmId, row.status, row.source, row.values, row.changeset, row.timestamp, row.hashtags]))
    .sort();
}

describe.runIf(template)("basemodel update on a PostGIS store (osm2pgsql --append)", { timeout: 240_000 }, () => {
  let database: TestDatabase;
  let sqlitePath: string;
  let change: string;
  let changesets: string;

  beforeAll(async () => {
    database = await createDatabase(template!);
    sqlitePath = await monacoStoreCopy();
    await importOsm(MONACO, database.url);
    await Promise.all([checkWholeStore(sqlitePath), checkWholeStore(database.url)]);
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    try {
      const refs = (await client.query<{ nodes: string[] }>("SELECT nodes FROM planet_osm_ways WHERE id = $1", [EDITED_WAY])).rows[0]!.nodes.map(Number);
      const corner = (await client.query<{ id: string; lat: number; lon: number }>("SELECT id, lat, lon FROM planet_osm_nodes WHERE id = (SELECT nodes[1] FROM planet_osm_ways WHERE id = $1)", [MOVED_CORNER_OF])).rows[0]!;
      const point = (await client.query<{ x: number; y: number }>("SELECT ST_X(p) AS x, ST_Y(p) AS y FROM (SELECT ST_PointOnSurface(geom) AS p FROM ways_poly WHERE osm_id = $1) s", [EDITED_WAY])).rows[0]!;
      const dir = temporaryDirectory();
      change = join(dir, "change.osc");
      changesets = join(dir, "changesets.osm");
      writeFileSync(change, changeFile({ id: Number(corner.id), lon: corner.lon / 1e7, lat: corner.lat / 1e7 }, refs, [point.x, point.y]));
      writeFileSync(changesets, CHANGESETS);
    } finally {
      await client.end();
    }
  });
  afterAll(async () => {
    await database?.drop();
  });

  /** Both stores hold the same features and findings (known differences aside); returns PostGIS's findings. */
  async function expectSameStores(): Promise<{ features: Record<FeatureTable, Map<number, unknown>>; findings: string[]; replicationTimestamp: string | null | undefined }> {
    const [sqlite, postgis] = await Promise.all([openStore(sqlitePath), openStore(database.url)]);
    try {
      const [a, b] = await Promise.all([everyFeature(sqlite), everyFeature(postgis)]);
      for (const table of FEATURE_TABLES) expect(b[table], table).toEqual(a[table]);
      const [findingsA, findingsB] = await Promise.all([everyFinding(sqlite), everyFinding(postgis)]);
      expect(findingsB).toEqual(findingsA);
      return { features: b, findings: findingsB, replicationTimestamp: (await postgis.readMeta())?.replicationTimestamp };
    } finally {
      await Promise.all([sqlite.close(), postgis.close()]);
    }
  }

  it("leaves the same features, findings and replication timestamp as the SQLite store's own update", async () => {
    const [ours, theirs] = await Promise.all([updateStore(sqlitePath, change, { changesets }), updateStore(database.url, change, { changesets })]);
    expect(theirs).toMatchObject({ created: { node: 4, way: 1, relation: 0 }, modified: { node: 1, way: 1, relation: 0 }, deleted: { node: 1, way: 0, relation: 0 }, changesets: 1 });
    expect(theirs.replicationTimestamp).toBe(ours.replicationTimestamp);
    expect(theirs.checked).toBeGreaterThan(0);
    const { features, findings, replicationTimestamp } = await expectSameStores();
    expect(features.nodes.has(DELETED_NODE)).toBe(false);
    expect(features.ways_poly.get(NEW_WAY)).toBeDefined();
    // The new building lies over the edited one: both overlap now, with the changeset's hashtags.
    expect(findings.filter((row) => row.includes('"overlapping"') && (row.includes(`${NEW_WAY},`) || row.includes(`${EDITED_WAY},`)))).toHaveLength(2);
    expect(findings.some((row) => row.includes(`${DELETED_NODE},`))).toBe(false);
    expect(replicationTimestamp).toBe(WHEN);
  });

  it("applies a change file out of order (which osm2pgsql refuses) through a sorted copy, as the SQLite update applies it", async () => {
    const mapathon = join(import.meta.dirname, "../../../fixtures/updates/monaco-mapathon-1.osc");
    const mapathonChangesets = join(import.meta.dirname, "../../../fixtures/updates/monaco-mapathon-changesets.osm");
    const [ours, theirs] = await Promise.all([updateStore(sqlitePath, mapathon, { changesets: mapathonChangesets }), updateStore(database.url, mapathon, { changesets: mapathonChangesets })]);
    expect(theirs).toMatchObject({ created: ours.created, modified: ours.modified, deleted: ours.deleted, featuresWritten: ours.featuresWritten, replicationTimestamp: ours.replicationTimestamp });
    expect((await expectSameStores()).replicationTimestamp).toBe("2025-01-10T11:40:00Z");
  });

  it("a database that basemodel import did not fill is a usage error saying how to fill it", async () => {
    const empty = await createDatabase(template!);
    try {
      const run = spawnSync(process.execPath, [BIN, "update", change, "--db", empty.url], { encoding: "utf8" });
      expect(run.status).toBe(2);
      expect(run.stderr).toContain("is not a feature store: load an OSM file into it with `basemodel import <file> --db");
    } finally {
      await empty.drop();
    }
  });

  it("a database that cannot be reached is one line, exit 1", async () => {
    const run = spawnSync(process.execPath, [BIN, "update", change, "--db", "postgres://nobody:secret@127.0.0.1:1/none"], { encoding: "utf8" });
    expect(run.status).toBe(1);
    expect(run.stderr).toBe("basemodel: cannot connect to postgres://nobody:***@127.0.0.1:1/none: no PostgreSQL server answers there\n");
  });
});
