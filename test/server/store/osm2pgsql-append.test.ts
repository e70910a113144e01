/**
 * osm2pgsql 1.8's --append bug (fixed in 1.9; docs/import.md, "Into PostGIS"): a way it re-processes
 * because one of its nodes moved reaches the style with the middle's attributes as pseudo-tags
 * (osm_uid, osm_user, osm_version, osm_changeset, osm_timestamp), missing ones as 0 or "". Our
 * style strips them and reads 0 and "" as missing, so the row stays what the import wrote.
 */
import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { importOsm } from "../../../src/server/fill/import.js";
import { OSM2PGSQL_STYLE } from "../../../src/server/store/osm2pgsql-style.js";
import { MONACO, temporaryDirectory } from "../osm/helpers.js";
import { postgresTemplateUrl } from "../../support/requirements.js";
import { freshDatabases } from "../../support/services.js";

const template = postgresTemplateUrl();

/** A building of Monaco (way 49209624) and the first of its nodes, moved by a centimetre. */
const WAY = 49_209_624;
const MOVE = `<?xml version="1.0" encoding="UTF-8"?>
<osmChange version="0.6" generator="basemodel test">
  <modify>
    <node id="624454256" version="9" timestamp="2025-01-10T10:15:00Z" lat="43.7308380" lon="7.4219936"/>
  </modify>
</osmChange>
`;

describe.runIf(template)("our osm2pgsql style under osm2pgsql 1.8's --append", { timeout: 120_000 }, () => {
  let client: pg.Client;
  let url: string;
  const row = async () =>
    (await client.query(`SELECT version, changeset, to_char(timestamp, 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS timestamp, uid, "user", tags, ST_AsText(geom) AS geom FROM ways_poly WHERE osm_id = $1`, [WAY])).rows[0];

  beforeAll(async () => {
    ({ url } = await freshDatabases(template!)());
    await importOsm(MONACO, url);
    client = new pg.Client({ connectionString: url });
    await client.connect();
  });
  afterAll(async () => {
    await client?.end();
  });

  it("keeps a re-processed way's tags and attributes as the import wrote them: no pseudo-tags, missing attributes NULL", async () => {
    const before = await row();
    expect(before).toMatchObject({ version: 3, changeset: null, timestamp: "2019-02-04T08:34:38Z", uid: null, user: null, tags: { building: "yes", "addr:country": "MC" } });
    const change = join(temporaryDirectory(), "move.osc");
    writeFileSync(change, MOVE);
    execFileSync("osm2pgsql", ["--append", "--slim", "--output=flex", "--extra-attributes", "--style", OSM2PGSQL_STYLE, "--log-level=warn", "-d", url, change], { stdio: "pipe" });
    const after = await row();
    // The way was rebuilt (its corner moved) and is otherwise the same row.
    expect(after.geom).not.toBe(before.geom);
    expect({ ...after, geom: null }).toEqual({ ...before, geom: null });
    const leaked = await client.query(
      "SELECT count(*)::int AS n FROM (SELECT tags FROM ways_poly UNION ALL SELECT tags FROM ways_line UNION ALL SELECT tags FROM relations) t WHERE EXISTS (SELECT 1 FROM jsonb_object_keys(t.tags) k WHERE k LIKE 'osm\\_%')",
    );
    expect(leaked.rows[0].n).toBe(0);
  });
});
