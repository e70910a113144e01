/**
 * `basemodel worker`: runs the exports that `basemodel serve --queue` puts on a Redis queue, on
 * this machine, from the store at --db into the export folder at --exports (the same folder the
 * servers serve downloads from: a shared one when they run on other machines).
 *
 * main.ts loads this module only when the command runs.
 */
import { mkdirSync } from "node:fs";
import { resolve } from "node:path";
import { lineLog, type LogLevel } from "../server/http/log.js";
import { absoluteLocation, shownLocation } from "../server/store/location.js";
import { storeFactory } from "../server/store/open.js";
import { openExportQueue, queueFactory } from "../server/tasks/open-queue.js";
import { loggedHandler } from "./export-log.js";
import { EXPORT_PACKAGES, withOptionalDependencies } from "../server/optional.js";
import { withoutPassword } from "../server/errors.js";

export interface WorkerFlags {
  queue: string;
  db: string;
  exports: string;
  concurrency: number;
  logLevel: LogLevel;
}

export interface WorkerIo {
  stdout: { write(text: string): unknown };
  stderr: { write(text: string): unknown };
  /** Resolves when the process is asked to stop (SIGINT, SIGTERM). */
  stopped: Promise<void>;
}

/** Loads the export code with the drivers of the store and the queue, or says in one line what to install. */
async function loadWorker(drivers: readonly string[]) {
  const [tasks, artifacts] = await withOptionalDependencies("worker", [...drivers, ...EXPORT_PACKAGES], () =>
    Promise.all([import("../server/tasks/export-tasks.js"), import("../server/exports/artifacts.js")]),
  );
  return { ...tasks, ...artifacts };
}

/** Runs exports until stopped; a store or queue that cannot be opened is said by the shell (shell.ts). */
export async function runWorker(flags: WorkerFlags, io: WorkerIo): Promise<number> {
  const location = absoluteLocation(flags.db);
  const factory = storeFactory(location);
  const { exportTaskHandler, localArtifacts } = await loadWorker([...queueFactory(flags.queue).drivers, ...factory.drivers]);
  const exportsDir = resolve(flags.exports);
  const log = lineLog(flags.logLevel, io.stderr);
  const store = await factory.open(location);
  try {
    mkdirSync(exportsDir, { recursive: true });
    const queue = await openExportQueue(flags.queue, { onError: (error) => log.error(`export queue: ${(error as Error).message}`) });
    try {
      queue.work(loggedHandler(exportTaskHandler(store, localArtifacts(exportsDir)), log), { concurrency: flags.concurrency });
      io.stdout.write(`basemodel worker: exports from ${withoutPassword(flags.queue)}, ${flags.concurrency} at a time\ndata: ${shownLocation(location)}\nexports: ${exportsDir}\n`);
      await io.stopped;
      return 0;
    } finally {
      // Running exports are stopped and queued again: another worker, or this one at its next start, finishes them.
      await queue.close();
    }
  } finally {
    await store.close();
  }
}
