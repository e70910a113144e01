/**
 * `basemodel serve` as a real process: an export running when the process is killed (SIGKILL,
 * no chance to clean up) finishes after a restart, and its zip is complete and correct.
 */
import { execFileSync } from "node:child_process";
import { readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { readWithGdal } from "../server/export/helpers.js";
import { hasGdal } from "../server/query/gdal-oracle.js";
import { exportResultOf } from "../server/routes/exports.js";
import { monacoStorePath } from "../server/routes/helpers.js";
import { MONACO_AREA, postExport as post, scratchDir, startServe, untilExport as until } from "./helpers.js";

async function download(url: string, directory: string, name: string): Promise<string> {
  const path = join(directory, name);
  writeFileSync(path, Buffer.from(await (await fetch(url)).arrayBuffer()));
  return path;
}

describe.skipIf(!hasGdal)("basemodel serve: exports survive a crash", { timeout: 900_000 }, () => {
  const exportsDir = scratchDir();
  const scratch = scratchDir();

  it("a task running when the server is SIGKILLed finishes after a restart, with a complete, correct zip", async () => {
    const args = ["--db", await monacoStorePath(), "--port", "0", "--exports", exportsDir, "--workers", "1"];

    const first = await startServe(args);
    const id = await post(first, { geometry: MONACO_AREA, outputType: "kml" });
    const running = await until(first, id, (body) => body.status !== "PENDING" && (body.progress >= 10 || body.status !== "STARTED"));
    expect(running, "the export finished before it could be interrupted").toMatchObject({ status: "STARTED" });
    first.child.kill("SIGKILL");
    expect(await first.exited).toBe("SIGKILL");
    expect(readdirSync(exportsDir).filter((name) => name.endsWith(".zip"))).toEqual([]);

    const second = await startServe(args);
    try {
      const done = await until(second, id, (body) => body.status === "SUCCESS" || body.status === "FAILURE");
      expect(done).toMatchObject({ id, status: "SUCCESS", progress: 100 });
      // Nothing of the interrupted run is left behind: one zip, no work folder, no partial file.
      expect(readdirSync(exportsDir).filter((name) => !name.startsWith(".tasks.sqlite"))).toEqual([`Export_kml_uid_${id}.zip`]);

      const referenceId = await post(second, { geometry: MONACO_AREA });
      const reference = await until(second, referenceId, (body) => body.status === "SUCCESS");
      const zip = await download(exportResultOf(done).downloadUrl, scratch, "resumed.zip");
      const referenceZip = await download(exportResultOf(reference).downloadUrl, scratch, "reference.zip");
      // Python's zipfile checks every entry's CRC: a zip cut short or corrupted fails here.
      execFileSync("python3", ["-c", "import sys, zipfile; assert zipfile.ZipFile(sys.argv[1]).testzip() is None", zip]);
      const resumed = await readWithGdal(`/vsizip/${zip}/Export.kml`);
      const expected = await readWithGdal(`/vsizip/${referenceZip}/Export.geojson`);
      expect(resumed.length).toBe(expected.length);
      expect(resumed.length).toBeGreaterThan(9_000);
      // Osm ids repeat across nodes and ways: the kind of geometry tells them apart.
      const kind = (type: string) => (type.endsWith("Point") ? "point" : type.endsWith("LineString") ? "line" : "polygon");
      const ids = (features: typeof resumed) => features.map((feature) => `${kind(feature.geometry.type)}:${feature.properties.osm_id}`).sort();
      expect(ids(resumed)).toEqual(ids(expected));
    } finally {
      second.child.kill("SIGTERM");
      expect(await second.exited).toBe(0);
    }
  });
});
