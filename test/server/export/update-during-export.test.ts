/**
 * `basemodel update` (the real CLI, in a process of its own) while an export reads the same
 * store: the update commits at once instead of failing on the export's read, and the export
 * goes on with the data as it was when it started, in every table.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { afterFile } from "../../support/cleanup.js";
import { BIN } from "../../cli/helpers.js";
import { monacoStoreCopy } from "../../support/monaco.js";
import { updateFixture } from "../fill/helpers.js";
import type { ExportParams } from "../../../src/server/exports/request.js";
import { exportSnapshot } from "../../../src/server/exports/snapshot.js";
import { localArtifacts } from "../../../src/server/exports/artifacts.js";
import { sqliteStoreFactory } from "../../../src/server/store/sqlite/store.js";

/** All of Monaco, the mapathon's new buildings included. */
const MONACO: ExportParams = {
  geometry: { type: "Polygon", coordinates: [[[7.4, 43.72], [7.45, 43.72], [7.45, 43.76], [7.4, 43.76], [7.4, 43.72]]] },
};

function exportsFolder(): string {
  const directory = mkdtempSync(join(tmpdir(), "basemodel-update-export-"));
  afterFile(() => rmSync(directory, { recursive: true, force: true }));
  return directory;
}

describe("an update while an export runs", { timeout: 300_000 }, () => {
  it("commits at once, and the export sees the store as it was when it started, in every table", async () => {
    const db = await monacoStoreCopy();
    const store = await sqliteStoreFactory.open(db);
    try {
      const directory = exportsFolder();
      const before = await exportSnapshot(store, MONACO, { artifacts: localArtifacts(directory), taskId: "before" });

      let update: ReturnType<typeof spawnSync> | undefined;
      const during = await exportSnapshot(store, MONACO, {
        artifacts: localArtifacts(directory),
        taskId: "during",
        onProgress: (percent) => {
          // Mid-stream: the export has counted every table and is reading the first one. The
          // update runs to its end in another process before the export reads on.
          if (update !== undefined || percent === 0 || percent >= 90) return;
          update = spawnSync(process.execPath, [BIN, "update", updateFixture("monaco-mapathon-1.osc"), "--db", db, "--no-quality"], { encoding: "utf8" });
        },
      });
      expect(update, "the export never reported progress mid-stream").toBeDefined();
      expect(update!.stderr).toBe("");
      expect(update!.status).toBe(0);
      expect(update!.stdout).toContain("features    6 written");

      const after = await exportSnapshot(store, MONACO, { artifacts: localArtifacts(directory), taskId: "after" });
      expect(after.features).toBeGreaterThan(before.features);
      expect(during.features).toBe(before.features);
    } finally {
      await store.close();
    }
    // Every connection closed: the WAL is folded into the store and its files are gone.
    expect(readdirSync(dirname(db))).toEqual(["monaco.db"]);
    const check = new Database(db);
    expect(check.pragma("journal_mode", { simple: true })).toBe("wal");
    expect(check.prepare("SELECT count(*) FROM ways_poly WHERE osm_id BETWEEN 1200000001 AND 1200000005").pluck().get()).toBe(5);
    check.close();
  });
});
