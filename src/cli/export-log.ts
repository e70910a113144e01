/**
 * `basemodel serve`'s log lines about exports, from wrappers around the queue it owns: queued
 * where tasks are submitted, started, finished and failed where they run. Both are in the main
 * process (HTTP processes submit through it), so every export's lines come from one place.
 */
import type { Log } from "../server/http/log.js";
import { isCustomOutcome, type ExportTaskResult } from "../server/tasks/export-result.js";
import type { ExportSubmitter, ExportTaskPayload } from "../server/tasks/export-tasks.js";
import type { TaskHandler } from "../server/tasks/queue.js";

export function loggedSubmitter(submitter: ExportSubmitter, log: Log): ExportSubmitter {
  return {
    enqueue: async (payload, entry) => {
      const task = await submitter.enqueue(payload, entry);
      log.info(`export ${task.id} queued`);
      return task;
    },
    get: (id) => submitter.get(id),
    revoke: (id) => submitter.revoke(id),
    waiting: () => submitter.waiting(),
    pendingCount: () => submitter.pendingCount(),
    active: () => submitter.active(),
    workers: () => submitter.workers(),
    history: (query) => submitter.history(query),
  };
}

export function loggedHandler(handler: TaskHandler<ExportTaskPayload, ExportTaskResult>, log: Log): TaskHandler<ExportTaskPayload, ExportTaskResult> {
  return async (payload, context) => {
    log.info(`export ${context.id} started (attempt ${context.attempt})`);
    const started = performance.now();
    try {
      const result = await handler(payload, context);
      const seconds = ((performance.now() - started) / 1000).toFixed(1);
      log.info(`export ${context.id} finished in ${seconds} s: ${published(result)}`);
      return result;
    } catch (error) {
      if (context.signal.aborted) log.info(`export ${context.id} stopped with this process; it is queued again`);
      else log.warn(`export ${context.id} failed (attempt ${context.attempt}): ${oneLine(error)}`);
      throw error;
    }
  };
}

/** What the export published: its file, or a custom export's zips. */
function published(result: ExportTaskResult): string {
  if (!isCustomOutcome(result)) return `${result.download}, ${result.downloadBytes} bytes`;
  const zips = result.categories.flatMap((category) => category.resources);
  return `${zips.length} zip${zips.length === 1 ? "" : "s"} of ${result.categories.length} categor${result.categories.length === 1 ? "y" : "ies"}, ${zips.reduce((sum, zip) => sum + zip.bytes, 0)} bytes`;
}

function oneLine(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).replace(/\s*\n\s*/g, " ").trim() || "no reason given";
}
