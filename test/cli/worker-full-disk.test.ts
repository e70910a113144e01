/**
 * A full exports disk under `basemodel worker --queue redis://`: the export folder is a tmpfs of
 * 1 MiB (small-disk.ts), which all of Monaco as GeoJSON overflows. The task fails at once with
 * one clear line (no retry: running again would fill the disk again), nothing half-written stays
 * in the folder or is published, and the worker lives on to run the next export, which fits.
 */
import { readdirSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { monacoStorePath } from "../support/monaco.js";
import { ownRedis } from "../support/own-services.js";
import { hasTool, runsAsRoot } from "../support/requirements.js";
import { smallDisk } from "../support/small-disk.js";
import { exportResultOf } from "../server/routes/exports.js";
import { MONACO_AREA, exportStatus as status, postExport as post, startServe, startWorker, untilExport as until, untilLine } from "./helpers.js";

/** A block of Monaco's centre: a few kilobytes of GeoJSON. */
const SMALL_AREA = { type: "Polygon", coordinates: [[[7.4186, 43.7302], [7.4206, 43.7302], [7.4206, 43.7312], [7.4186, 43.7312], [7.4186, 43.7302]]] };

const finished = (body: { status: string }) => body.status === "SUCCESS" || body.status === "FAILURE";

describe.runIf(runsAsRoot("the full exports disk test") && hasTool(["redis-server"], "redis-server"))("basemodel worker with a full exports disk", { timeout: 300_000 }, () => {
  it("fails the export with one line, publishes nothing, leaves nothing behind, and runs the next one", async () => {
    const redis = await ownRedis();
    const exportsDir = smallDisk(1 << 20);
    const server = await startServe(["--queue", redis.url, "--port", "0", "--exports", exportsDir]);
    const worker = await startWorker(["--queue", redis.url, "--db", await monacoStorePath(), "--exports", exportsDir, "--concurrency", "1"]);
    try {
      const big = await post(server, { geometry: MONACO_AREA });
      expect(await until(server, big, finished)).toEqual({ id: big, status: "FAILURE", result: { error: "the exports disk is full" }, progress: 0 });
      await untilLine(worker, new RegExp(`export ${big} failed \\(attempt 1\\): the exports disk is full\\n`));
      expect(worker.output().stderr).not.toMatch(new RegExp(`export ${big} started \\(attempt 2\\)`));
      expect(readdirSync(exportsDir)).toEqual([]);
      expect(worker.child.exitCode).toBeNull();

      const small = await post(server, { geometry: SMALL_AREA });
      const done = await until(server, small, finished);
      expect(done).toMatchObject({ status: "SUCCESS" });
      expect(readdirSync(exportsDir)).toEqual([`Export_geojson_uid_${small}.zip`]);
      expect((await fetch(exportResultOf(done).download_url)).status).toBe(200);
      expect(await status(server, big)).toMatchObject({ status: "FAILURE" });
    } finally {
      for (const process of [worker, server]) process.child.kill("SIGTERM");
      expect(await worker.exited).toBe(0);
      await server.exited;
    }
  });
});
