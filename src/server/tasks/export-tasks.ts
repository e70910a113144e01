/**
 * Snapshot exports as queued tasks: what a task carries, what it leaves behind, the handler a
 * worker runs, and the clean-up of old exports. Knows the queue only by its interface.
 */
import type { ArtifactStore } from "../exports/artifacts.js";
import { exportCustom, type CustomExportJob } from "../exports/custom.js";
import { ExportLimitError } from "../formats/index.js";
import type { ExportParams } from "../exports/request.js";
import { exportSnapshot } from "../exports/snapshot.js";
import type { ExportSummary } from "../exports/summary.js";
import type { FeatureStore } from "../store/store.js";
import type { ExportTaskResult } from "./export-result.js";
import { PermanentTaskError, type TaskHandler, type TaskQueue, type TaskSubmitter } from "./queue.js";

/** A snapshot export (its request, checked, in camelCase), or a custom export of categories. */
export type ExportTaskPayload = { params: ExportParams } | { custom: CustomExportJob };

export { isCustomOutcome, type ExportTaskResult } from "./export-result.js";

export type { ExportSummary } from "../exports/summary.js";

/** Export tasks, each in the history with its summary (the route's request and what it asked for). */
export type ExportQueue = TaskQueue<ExportTaskPayload, ExportTaskResult, ExportSummary>;

/** What the HTTP routes need of the export queue: it may be owned by another process. */
export type ExportSubmitter = TaskSubmitter<ExportTaskPayload, ExportTaskResult, ExportSummary>;

/** How a full disk (or a user's quota) shows: from Node's file writes, and from SQLite's (gpkg). */
const DISK_FULL: ReadonlySet<unknown> = new Set(["ENOSPC", "EDQUOT", "SQLITE_FULL"]);

export function exportTaskHandler(store: FeatureStore, artifacts: ArtifactStore): TaskHandler<ExportTaskPayload, ExportTaskResult> {
  return async (payload, context) => {
    const options = { artifacts, taskId: context.id, onProgress: context.progress, signal: context.signal };
    try {
      return "custom" in payload ? await exportCustom(store, payload.custom, options) : await exportSnapshot(store, payload.params, options);
    } catch (error) {
      // A format's limit is reached again on every run: no point retrying.
      if (error instanceof ExportLimitError) throw new PermanentTaskError(error.message);
      // Running again at once would fill the disk again; the export has removed its files already.
      if (DISK_FULL.has((error as NodeJS.ErrnoException).code)) throw new PermanentTaskError("the exports disk is full", { cause: error });
      throw error;
    }
  };
}

/**
 * Deletes the exports published before `maxAgeMs` ago, removes what tasks that ended left
 * unfinished, and forgets the tasks that finished before then (their status is then a 404, and
 * they leave the history).
 * Returns how many exports and tasks went.
 */
export async function deleteOldExports(
  queue: ExportQueue,
  artifacts: ArtifactStore,
  maxAgeMs: number,
  now = new Date(),
): Promise<{ files: number; tasks: number }> {
  const before = new Date(now.getTime() - maxAgeMs);
  // By the file, not the task, so that a file whose task could not be recorded goes too.
  const old = await artifacts.publishedBefore(before);
  for (const download of old) await artifacts.delete(download);
  await artifacts.removeLeftovers(before);
  // What a task stopped mid-way left (its worker killed, perhaps on another machine): once the
  // task has ended or is forgotten; a pending or running one may still be writing it.
  for (const taskId of await artifacts.unfinishedTasks()) {
    const task = await queue.get(taskId);
    if (task === null || (task.state !== "PENDING" && task.state !== "STARTED")) await artifacts.removeUnfinishedOf(taskId);
  }
  return { files: old.length, tasks: await queue.prune(before) };
}
