/**
 * Export tasks on the real queue, the real export code and the real Monaco store, when things
 * go wrong: a full disk (a real ENOSPC: the zip is written into /dev/full), a failing attempt,
 * a queue closed mid-export, a process that died mid-export. Nothing may be left behind.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { afterFile } from "../../support/cleanup.js";
import { monacoStorePath } from "../../support/monaco.js";
import { localArtifacts } from "../../../src/server/exports/artifacts.js";
import type { ExportParams } from "../../../src/server/exports/request.js";
import { sqliteStoreFactory } from "../../../src/server/store/sqlite/store.js";
import type { FeatureStore } from "../../../src/server/store/store.js";
import {
  deleteOldExports,
  exportTaskHandler,
  type ExportQueue,
  type ExportSummary,
  type ExportTaskPayload,
  type ExportTaskResult,
} from "../../../src/server/tasks/export-tasks.js";
import type { Task, TaskContext } from "../../../src/server/tasks/queue.js";
import { openSqliteTaskQueue, type SqliteQueueOptions } from "../../../src/server/tasks/sqlite-queue.js";

const SMALL: ExportParams = {
  geometry: { type: "Polygon", coordinates: [[[7.4265, 43.7395], [7.428, 43.7395], [7.428, 43.741], [7.4265, 43.741], [7.4265, 43.7395]]] },
};
const ALL_OF_MONACO: ExportParams = {
  geometry: { type: "Polygon", coordinates: [[[7.4, 43.72], [7.44, 43.72], [7.44, 43.76], [7.4, 43.76], [7.4, 43.72]]] },
};

let store: FeatureStore;
beforeAll(async () => {
  store = await sqliteStoreFactory.open(await monacoStorePath());
});
afterAll(() => store.close());

/** A fresh export folder and its queue, not yet working; closed and removed after the file. */
async function exportQueue(options: SqliteQueueOptions = {}): Promise<{ queue: ExportQueue; directory: string }> {
  const directory = mkdtempSync(join(tmpdir(), "basemodel-export-tasks-"));
  afterFile(() => rmSync(directory, { recursive: true, force: true }));
  const queue = await openSqliteTaskQueue<ExportTaskPayload, ExportTaskResult, ExportSummary>(join(directory, ".tasks.sqlite"), { retryDelayMs: 5, pollMs: 5, ...options });
  afterFile(() => queue.close());
  return { queue, directory };
}

async function until(queue: ExportQueue, id: string, check: (task: Task<ExportTaskResult>) => boolean): Promise<Task<ExportTaskResult>> {
  for (let tries = 0; tries < 3000; tries++) {
    const task = await queue.get(id);
    if (task !== null && check(task)) return task;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`task ${id} never reached the state expected: ${JSON.stringify(await queue.get(id))}`);
}

const finished = (task: Task<ExportTaskResult>): boolean => task.state === "SUCCESS" || task.state === "FAILURE";

/** What is in the export folder besides the queue's own files. */
const leftovers = (directory: string): string[] => readdirSync(directory).filter((name) => !name.startsWith(".tasks.sqlite"));

const zipName = (id: string): string => `Export_geojson_uid_${id}.zip`;

describe("export tasks that go wrong leave nothing behind", () => {
  it("a full disk fails the task at once with one line, and the workers go on", async () => {
    const { queue, directory } = await exportQueue();
    const full = await queue.enqueue({ params: SMALL });
    // Linux's /dev/full takes no byte: every write to it fails with ENOSPC, as on a full disk.
    symlinkSync("/dev/full", join(directory, `${zipName(full.id)}.partial`));
    queue.work(exportTaskHandler(store, localArtifacts(directory)), { concurrency: 1 });

    expect(await until(queue, full.id, finished)).toMatchObject({ state: "FAILURE", error: "the exports disk is full", attempts: 1 });
    expect(leftovers(directory)).toEqual([]);

    const next = await queue.enqueue({ params: SMALL });
    expect(await until(queue, next.id, finished)).toMatchObject({ state: "SUCCESS" });
    expect(leftovers(directory)).toEqual([zipName(next.id)]);
  });

  it("every failed attempt removes its work folder, the last one too", async () => {
    const { queue, directory } = await exportQueue({ maxAttempts: 3 });
    const task = await queue.enqueue({ params: SMALL });
    // A folder where the zip goes: renaming the finished zip into place fails on every attempt.
    mkdirSync(join(directory, zipName(task.id)));
    queue.work(exportTaskHandler(store, localArtifacts(directory)), { concurrency: 1 });

    expect(await until(queue, task.id, finished)).toMatchObject({ state: "FAILURE", attempts: 3 });
    expect(leftovers(directory)).toEqual([zipName(task.id)]);
  });

  it("closing the queue mid-export removes the work folder; the task runs again later", async () => {
    const { queue, directory } = await exportQueue();
    const task = await queue.enqueue({ params: { ...ALL_OF_MONACO, outputType: "gpkg" } });
    const handler = exportTaskHandler(store, localArtifacts(directory));
    let midway!: () => void;
    const started = new Promise<void>((resolve) => (midway = resolve));
    const reporting = (context: TaskContext): TaskContext => ({
      ...context,
      progress: (percent) => {
        context.progress(percent);
        midway();
      },
    });
    queue.work((payload, context) => handler(payload, reporting(context)), { concurrency: 1 });
    await started;
    expect(readdirSync(directory).filter((name) => name.endsWith(".work"))).toHaveLength(1);

    await queue.close();
    expect(leftovers(directory)).toEqual([]);
    const reopened = await openSqliteTaskQueue<ExportTaskPayload, ExportTaskResult, ExportSummary>(join(directory, ".tasks.sqlite"));
    afterFile(() => reopened.close());
    expect(await reopened.get(task.id)).toMatchObject({ state: "PENDING", attempts: 0 });
  });

  it("the clean-up removes what ended and forgotten tasks left unfinished (a worker killed elsewhere), and keeps a pending task's", async () => {
    const { queue, directory } = await exportQueue({ maxAttempts: 3 });
    const pending = await queue.enqueue({ params: SMALL });
    const failed = await queue.enqueue({ params: { ...SMALL, uuid: false } });
    await queue.close();
    // As a worker killed in the middle of the failed task's last run leaves its work and the queue.
    const db = new Database(join(directory, ".tasks.sqlite"));
    db.prepare("UPDATE tasks SET state = 'FAILURE', attempts = 3, error = 'a worker stopped while running this task 3 times', finished_at = ? WHERE id = ?").run(new Date().toISOString(), failed.id);
    db.close();
    const forgotten = "0c6b5a7e-1111-4222-8333-944455556666";
    const left = [`.${pending.id}.work`, `${zipName(pending.id)}.partial`, `.${failed.id}.work`, `${failed.id}/Export_geojson.zip.partial`, `.${forgotten}.work`];
    for (const path of left) {
      if (path.endsWith(".work")) mkdirSync(join(directory, path));
      else {
        mkdirSync(join(directory, path, ".."), { recursive: true });
        writeFileSync(join(directory, path), "PK");
      }
    }
    const reopened = await openSqliteTaskQueue<ExportTaskPayload, ExportTaskResult, ExportSummary>(join(directory, ".tasks.sqlite"));
    afterFile(() => reopened.close());
    const artifacts = localArtifacts(directory);
    expect((await artifacts.unfinishedTasks()).sort()).toEqual([pending.id, failed.id, forgotten].sort());

    await deleteOldExports(reopened, artifacts, 3_600_000);
    expect(left.filter((path) => existsSync(join(directory, path)))).toEqual([`.${pending.id}.work`, `${zipName(pending.id)}.partial`]);
    expect(await artifacts.unfinishedTasks()).toEqual([pending.id]);
  });

  it("a restart removes what the tasks of a dead process left, also for a task that had no attempt left", async () => {
    const { queue, directory } = await exportQueue({ maxAttempts: 3 });
    const task = await queue.enqueue({ params: SMALL });
    await queue.close();
    // As a process killed in the middle of the task's third run leaves the folder and the queue.
    const db = new Database(join(directory, ".tasks.sqlite"));
    db.prepare("UPDATE tasks SET state = 'STARTED', attempts = 3 WHERE id = ?").run(task.id);
    db.close();
    const work = join(directory, `.${zipName(task.id)}.work`);
    mkdirSync(work);
    writeFileSync(join(work, "Export.geojson"), "x".repeat(100_000));
    writeFileSync(join(directory, `${zipName(task.id)}.partial`), "PK");

    const restarted = await openSqliteTaskQueue<ExportTaskPayload, ExportTaskResult, ExportSummary>(join(directory, ".tasks.sqlite"), {
      maxAttempts: 3,
      onOwned: () => localArtifacts(directory).removeUnfinished(),
    });
    afterFile(() => restarted.close());
    expect(await restarted.get(task.id)).toMatchObject({ state: "FAILURE", error: "the server stopped while running this task 3 times" });
    expect(existsSync(work)).toBe(false);
    expect(leftovers(directory)).toEqual([]);
  });
});
