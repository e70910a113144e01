/**
 * The one place that maps serve's --queue to the export queue: none is the embedded SQLite
 * queue in the export folder, a redis:// URL the BullMQ queue that `basemodel worker` runs.
 * The BullMQ module (and its drivers) is loaded only when a URL names it.
 */
import { join } from "node:path";
import type { ExportQueue, ExportTaskPayload, ExportTaskResult } from "./export-tasks.js";

export interface ExportQueueOptions {
  /** The embedded queue's: runs once this process owns the queue's file (see SqliteQueueOptions). */
  onOwned: () => Promise<void>;
  onError: (error: unknown) => void;
}

export async function openExportQueue(redisUrl: string | undefined, exportsDir: string, { onOwned, onError }: ExportQueueOptions): Promise<ExportQueue> {
  if (redisUrl !== undefined) {
    return (await import("./bullmq-queue.js")).openBullmqTaskQueue<ExportTaskPayload, ExportTaskResult>(redisUrl, { onError });
  }
  return (await import("./sqlite-queue.js")).openSqliteTaskQueue<ExportTaskPayload, ExportTaskResult>(join(exportsDir, ".tasks.sqlite"), { onOwned, onError });
}
