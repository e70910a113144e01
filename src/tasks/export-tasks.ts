/**
 * Snapshot exports as queued tasks: what a task carries, what it leaves behind, the handler a
 * worker runs, and the clean-up of old exports. Knows the queue only by its interface.
 */
import { rm } from "node:fs/promises";
import { join } from "node:path";
import type { SnapshotParams } from "../api/snapshot.js";
import { ExportLimitError } from "../export/index.js";
import { exportSnapshot, type SnapshotOutcome } from "../export/snapshot.js";
import type { FeatureStore } from "../store/store.js";
import { PermanentTaskError, type TaskHandler, type TaskQueue, type TaskSubmitter } from "./queue.js";

export interface ExportTaskPayload {
  /** The request, validated, in camelCase. */
  params: SnapshotParams;
}

export interface ExportTaskResult extends SnapshotOutcome {
  /** Set by clean-up when it deleted the zip (ISO-8601 UTC). */
  deletedAt?: string;
}

export type ExportQueue = TaskQueue<ExportTaskPayload, ExportTaskResult>;

/** What the HTTP routes need of the export queue: it may be owned by another process. */
export type ExportSubmitter = TaskSubmitter<ExportTaskPayload, ExportTaskResult>;

export function exportTaskHandler(store: FeatureStore, directory: string): TaskHandler<ExportTaskPayload, ExportTaskResult> {
  return async ({ params }, context) => {
    try {
      return await exportSnapshot(store, params, { directory, taskId: context.id, onProgress: context.progress, signal: context.signal });
    } catch (error) {
      // A format's limit is reached again on every run: no point retrying.
      if (error instanceof ExportLimitError) throw new PermanentTaskError(error.message);
      throw error;
    }
  };
}

/**
 * Deletes the zips of exports that finished before `maxAgeMs` ago and records it in their task
 * results. Returns how many were deleted.
 */
export async function deleteOldExports(queue: ExportQueue, directory: string, maxAgeMs: number, now = new Date()): Promise<number> {
  let deleted = 0;
  for (const task of await queue.finishedBefore(new Date(now.getTime() - maxAgeMs))) {
    if (task.result === null || task.result.deletedAt !== undefined) continue;
    await rm(join(directory, task.result.zipName), { force: true });
    await queue.setResult(task.id, { ...task.result, deletedAt: now.toISOString() });
    deleted++;
  }
  return deleted;
}
