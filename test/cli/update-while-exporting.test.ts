/**
 * `basemodel update --db postgres://` while `serve` runs exports from the same database: the
 * update applies, and every export succeeds with the data as of one moment, before the update
 * or after it, never a mixture: each export reads one REPEATABLE READ snapshot, so its buildings
 * (read first) and its stats (counted from the store at its end) agree. Sixteen exports, two at
 * a time, are queued before the update starts, so that exports run from before it begins until
 * after it ends. Without the snapshot (each query on the pool), two runs in three fail here.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { MONACO } from "../server/osm/helpers.js";
import { updateFixture } from "../server/fill/helpers.js";
import { downloadZip, exportResultOf, pythonZip } from "../server/routes/exports.js";
import { postgresTemplateUrl } from "../support/requirements.js";
import { freshDatabases } from "../support/services.js";
import { basemodel, exportStatus as status, postExport as post, scratchDir, startServe, untilExport as until, type ServeProcess } from "./helpers.js";

const EXPORTS = 16;
/** All of Monaco and the buildings the change adds east of it. */
const AREA = { type: "Polygon", coordinates: [[[7.4, 43.72], [7.45, 43.72], [7.45, 43.76], [7.4, 43.76], [7.4, 43.72]]] };
/** The ways (buildings) the change creates. */
const CREATED_WAYS = [1_200_000_001, 1_200_000_002, 1_200_000_003, 1_200_000_004, 1_200_000_005];

/**
 * What a finished GeoJSON export holds, as one string: the OSM ids of its features, sorted, and
 * the buildings its stats counted, read from the store at the end of the export.
 */
async function exported(server: ServeProcess, id: string): Promise<string> {
  const done = await status(server, id);
  expect(done).toMatchObject({ status: "SUCCESS" });
  const zip = await downloadZip(exportResultOf(done).download_url);
  const code = [
    "import json, re",
    "features = json.loads(z.read('Export.geojson'))['features']",
    "buildings = re.search(r'contains ([\\d,]+) buildings', z.read('Readme.txt').decode()).group(1)",
    "print(buildings, 'buildings;', sorted(f['properties']['osm_id'] for f in features))",
  ].join("\n");
  return pythonZip(zip, code).trim();
}

/** When the server's log says the export started and finished (ms since the epoch). */
function runOf(server: ServeProcess, id: string): { started: number; finished: number } {
  const at = (step: string) => Date.parse(new RegExp(`^(\\S+) INFO  export ${id} ${step}`, "m").exec(server.output().stderr)![1]!);
  return { started: at("started"), finished: at("finished") };
}

const template = postgresTemplateUrl();

describe.runIf(template)("basemodel update --db postgres:// while exports run", { timeout: 600_000 }, () => {
  let database: string;
  beforeAll(async () => {
    database = (await freshDatabases(template!)()).url;
    const imported = await basemodel(["import", MONACO, "--db", database]);
    expect(imported.code, imported.stderr).toBe(0);
  });

  it("the update applies, and each export succeeds with the data before it or after it, whole", async () => {
    const server = await startServe(["--db", database, "--port", "0", "--exports", scratchDir()]);
    try {
      // Polygons only: the buildings are read from the start of each export, its stats at the end.
      const request = { geometry: AREA, outputType: "geojson", geometryType: ["polygon"], includeStats: true };
      const before = await post(server, request);
      await until(server, before, (body) => body.status === "SUCCESS");
      const ids: string[] = [];
      for (let count = 0; count < EXPORTS; count++) ids.push(await post(server, request));
      await until(server, ids[0]!, (body) => body.status !== "PENDING");

      const updateStarted = Date.now();
      const update = await basemodel(["update", updateFixture("monaco-mapathon-1.osc"), "--db", database, "--changesets", updateFixture("monaco-mapathon-changesets.osm")]);
      const updateEnded = Date.now();
      expect(update.stderr).toBe("");
      expect(update.code).toBe(0);
      expect(update.stdout).toContain("  features    6 written, 0 removed\n");

      for (const id of ids) await until(server, id, (body) => body.status === "SUCCESS" || body.status === "FAILURE");
      const after = await post(server, request);
      await until(server, after, (body) => body.status === "SUCCESS");
      expect(await (await fetch(`${server.url}/v1/status/`)).json()).toEqual({ lastUpdated: "2025-01-10 11:40:00+00:00" });

      const old = await exported(server, before);
      const updated = await exported(server, after);
      for (const way of CREATED_WAYS) {
        expect(old).not.toMatch(new RegExp(`\\b${way}\\b`));
        expect(updated).toMatch(new RegExp(`\\b${way}\\b`));
      }
      // Exports ran throughout the update: the first began before it, the last ended after it.
      const runs = ids.map((id) => runOf(server, id));
      expect(runs[0]!.started).toBeLessThan(updateStarted);
      expect(runs.at(-1)!.finished).toBeGreaterThan(updateEnded);
      for (const [index, id] of ids.entries()) {
        const seen = await exported(server, id);
        const { started, finished } = runs[index]!;
        // Its snapshot is taken as it starts: an export begun before the update has none of it.
        if (started < updateStarted) expect(seen, `export ${index + 1} began before the update`).toBe(old);
        else if (started > updateEnded) expect(seen, `export ${index + 1} began after the update`).toBe(updated);
        else expect([old, updated], `export ${index + 1} ran ${started - updateStarted} to ${finished - updateStarted} ms into the update`).toContain(seen);
      }
    } finally {
      server.child.kill("SIGTERM");
      await server.exited;
    }
  });
});
