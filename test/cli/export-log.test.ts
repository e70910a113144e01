/** The export lines of `basemodel serve`'s log, from the real SQLite queue running a handler that fails. */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { loggedHandler, loggedSubmitter } from "../../src/cli/export-log.js";
import { lineLog } from "../../src/server/http/log.js";
import type { ExportSummary, ExportTaskPayload, ExportTaskResult } from "../../src/server/tasks/export-tasks.js";
import { PermanentTaskError } from "../../src/server/tasks/queue.js";
import { openSqliteTaskQueue } from "../../src/server/tasks/sqlite-queue.js";

const directory = mkdtempSync(join(tmpdir(), "basemodel-export-log-"));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

describe("export log lines", () => {
  it("a failed export says which, on which attempt and why, in one line per attempt", async () => {
    let written = "";
    const log = lineLog("info", { write: (text: string) => (written += text) });
    const queue = await openSqliteTaskQueue<ExportTaskPayload, ExportTaskResult, ExportSummary>(join(directory, "tasks.sqlite"), { retryDelayMs: 1, pollMs: 5 });
    try {
      let runs = 0;
      queue.work(
        loggedHandler(async () => {
          runs++;
          if (runs === 1) throw new Error("the disk\nhiccupped");
          throw new PermanentTaskError("the export is larger than the format allows");
        }, log),
        { concurrency: 1 },
      );
      const task = await loggedSubmitter(queue, log).enqueue({ params: {} as Extract<ExportTaskPayload, { params: unknown }>["params"] });
      for (let polls = 0; polls < 1000 && (await queue.get(task.id))?.state !== "FAILURE"; polls++) await new Promise((resolve) => setTimeout(resolve, 5));
      expect((await queue.get(task.id))?.state).toBe("FAILURE");
      const lines = written.trimEnd().split("\n").map((line) => line.replace(/^\S+ /, ""));
      // An idle worker may start the task before the submitter hears back that it is queued.
      const queued = `INFO  export ${task.id} queued`;
      expect(lines).toContain(queued);
      expect(lines.filter((line) => line !== queued)).toEqual([
        `INFO  export ${task.id} started (attempt 1)`,
        `WARN  export ${task.id} failed (attempt 1): the disk hiccupped`,
        `INFO  export ${task.id} started (attempt 2)`,
        `WARN  export ${task.id} failed (attempt 2): the export is larger than the format allows`,
      ]);
    } finally {
      await queue.close();
    }
  });
});
