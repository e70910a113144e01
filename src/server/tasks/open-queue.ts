/**
 * The one place that knows which task queues there are. Each factory says which locations it
 * takes (a redis:// URL: the BullMQ queue that `basemodel worker` runs; a file path: the
 * embedded SQLite queue) and which drivers it loads, loaded only when a queue of its kind opens.
 */
import { join } from "node:path";
import { bullmqQueueFactory } from "./bullmq-queue.js";
import type { ExportQueue, ExportSummary, ExportTaskPayload, ExportTaskResult } from "./export-tasks.js";
import type { QueueOpenOptions, TaskQueueFactory } from "./queue.js";
import { sqliteQueueFactory } from "./sqlite-queue.js";

const FACTORIES: readonly TaskQueueFactory[] = [bullmqQueueFactory, sqliteQueueFactory];

/** Where serve keeps its export tasks: at `location` (serve's --queue), or without one in the embedded queue in the export folder. */
export function exportQueueLocation(location: string | undefined, exportsDir: string): string {
  return location ?? join(exportsDir, ".tasks.sqlite");
}

/** The factory of the queue `location` names. */
export function queueFactory(location: string): TaskQueueFactory {
  const factory = FACTORIES.find((candidate) => candidate.takes(location));
  if (factory === undefined) throw new Error(`no task queue takes the location ${location}`);
  return factory;
}

export function openExportQueue(location: string, options: QueueOpenOptions): Promise<ExportQueue> {
  return queueFactory(location).open<ExportTaskPayload, ExportTaskResult, ExportSummary>(location, options);
}
