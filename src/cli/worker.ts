/**
 * `basemodel worker`: runs the exports that `basemodel serve --queue` puts on a Redis queue, on
 * this machine, from the store at --db into the export folder at --exports (the same folder the
 * servers serve downloads from: a shared one when they run on other machines).
 *
 * main.ts loads this module only when the command runs.
 */
import { existsSync, mkdirSync } from "node:fs";
import { resolve } from "node:path";
import { lineLog, type LogLevel } from "../server/http/log.js";
import { isDatabaseUrl, shownLocation } from "../server/store/location.js";
import type { ExportTaskPayload, ExportTaskResult } from "../server/tasks/export-tasks.js";
import { loggedHandler } from "./export-log.js";
import { withOptionalDependencies } from "./optional.js";
import { UsageError } from "./usage-error.js";

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

const OPTIONAL = ["bullmq", "ioredis", "better-sqlite3", "geos-wasm", "yazl", "flatgeobuf", "hyparquet-writer"];

async function loadWorker() {
  const [store, queue, tasks, artifacts] = await withOptionalDependencies("worker", OPTIONAL, () =>
    Promise.all([import("../server/store/open.js"), import("../server/tasks/bullmq-queue.js"), import("../server/tasks/export-tasks.js"), import("../server/exports/artifacts.js")]),
  );
  return { ...store, ...queue, ...tasks, ...artifacts };
}

export async function runWorker(flags: WorkerFlags, io: WorkerIo): Promise<number> {
  const location = isDatabaseUrl(flags.db) ? flags.db : resolve(flags.db);
  if (!isDatabaseUrl(location) && !existsSync(location)) throw new UsageError(`no store at ${location}; create one with basemodel import <file.osm.pbf> --db ${flags.db}`);
  const { openStore, openBullmqTaskQueue, exportTaskHandler, localArtifacts } = await loadWorker();
  const exportsDir = resolve(flags.exports);
  const log = lineLog(flags.logLevel, io.stderr);
  let store;
  try {
    store = await openStore(location);
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  try {
    let queue;
    try {
      mkdirSync(exportsDir, { recursive: true });
      queue = await openBullmqTaskQueue<ExportTaskPayload, ExportTaskResult>(flags.queue, { onError: (error) => log.error(`export queue: ${(error as Error).message}`) });
    } catch (error) {
      throw new UsageError((error as Error).message);
    }
    try {
      queue.work(loggedHandler(exportTaskHandler(store, localArtifacts(exportsDir)), log), { concurrency: flags.concurrency });
      io.stdout.write(`basemodel worker: exports from ${flags.queue}, ${flags.concurrency} at a time\ndata: ${shownLocation(location)}\nexports: ${exportsDir}\n`);
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
