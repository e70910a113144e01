/**
 * `basemodel serve`: the reference server on a store made by `basemodel import`, or on the
 * demo dataset (generated afresh into a temporary folder) when no --db is given.
 *
 * main.ts loads this module only when the command runs: validate never loads fastify,
 * SQLite or geometry code.
 */
import cluster from "node:cluster";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import type { FastifyInstance } from "fastify";
import { lineLog } from "../server/http/log.js";
import { absoluteLocation, shownLocation } from "../server/store/location.js";
import { openStore, storeFactory } from "../server/store/open.js";
import { exportQueueLocation, openExportQueue, queueFactory } from "../server/tasks/open-queue.js";
import { loggedHandler, loggedSubmitter } from "./export-log.js";
import { SERVER_PACKAGES, withOptionalDependencies } from "../server/optional.js";
import { withoutPassword } from "../server/errors.js";
import { requestOptions } from "./serve-options.js";
import { keepRequestObjectsYoung } from "./serve-heap.js";
import { HttpProcessFailed, listen, runHttpProcess, startHttpProcesses, type Serving } from "./serve-processes.js";
import { UsageError } from "./usage-error.js";
import type { ServeFlags } from "./serve-options.js";

export interface ServeIo {
  stdout: { write(text: string): unknown };
  stderr: { write(text: string): unknown };
  /** Resolves when the process is asked to stop (SIGINT, SIGTERM). */
  stopped: Promise<void>;
}

/** Clean-up looks for old exports this often at most (and more often for short maximum ages). */
const CLEANUP_INTERVAL_MS = 10 * 60 * 1000;

/** Loads the server and the drivers of its store and queue, or says in one line what to install. */
async function loadServer(drivers: readonly string[]) {
  const [server, tasks, artifacts] = await withOptionalDependencies("serve", [...SERVER_PACKAGES, ...drivers], () =>
    Promise.all([import("../server/app.js"), import("../server/tasks/export-tasks.js"), import("../server/exports/artifacts.js")]),
  );
  return { ...server, ...tasks, ...artifacts };
}

/** Serving from this process alone: it ends only when stopped. */
async function serveHere(app: FastifyInstance, flags: ServeFlags): Promise<Serving> {
  try {
    return { address: await listen(app, flags), ended: new Promise<number>(() => {}), close: () => app.close() };
  } catch (error) {
    await app.close();
    throw error;
  }
}

export async function runServe(flags: ServeFlags, io: ServeIo, version: string): Promise<number> {
  // In the primary and in each worker of --processes: see serve-heap.ts.
  keepRequestObjectsYoung();
  if (cluster.isWorker) return runHttpProcess(flags, version);
  const db = flags.db === undefined ? undefined : absoluteLocation(flags.db);
  if (flags.publicUrl !== undefined && !/^https?:\/\/[^/]/.test(flags.publicUrl)) {
    throw new UsageError(`--public-url must be an http(s) address such as https://exports.example.org; found ${JSON.stringify(flags.publicUrl)}`);
  }
  // Read now: a wrong --users file is said before anything starts.
  const answering = requestOptions(flags);
  const exportsDir = resolve(flags.exports);
  const queueLocation = exportQueueLocation(flags.queue, exportsDir);
  // The demo town's store is made once these are there: the exports' SQLite is its driver.
  const drivers = [...(db === undefined ? [] : storeFactory(db).drivers), ...queueFactory(queueLocation).drivers];
  const { createServer, exportTaskHandler, deleteOldExports, localArtifacts } = await loadServer(drivers);
  const artifacts = localArtifacts(exportsDir);
  const log = lineLog(flags.logLevel, io.stderr);

  let demoDir: string | undefined;
  let location = db;
  if (location === undefined) {
    const { createDemoStore } = await import("../server/demo/index.js");
    demoDir = mkdtempSync(join(tmpdir(), "basemodel-demo-"));
    location = join(demoDir, "demo.db");
    await createDemoStore(location);
  }
  try {
    const store = await openStore(location);
    let queue;
    try {
      mkdirSync(exportsDir, { recursive: true });
      queue = await openExportQueue(queueLocation, {
        // Only the owner of the embedded queue may: with Redis, workers elsewhere may be writing.
        onOwned: () => artifacts.removeUnfinished(),
        onError: (error) => log.error(`export queue: ${(error as Error).message}`),
      });
    } catch (error) {
      await store.close();
      throw error;
    }
    if (flags.queue === undefined) queue.work(loggedHandler(exportTaskHandler(store, artifacts), log), { concurrency: flags.workers });
    const maxAgeMs = flags.exportMaxAge * 3600 * 1000;
    const cleanUp = () => deleteOldExports(queue, artifacts, maxAgeMs).catch((error) => log.error(`clean-up of old exports failed: ${(error as Error).message}`));
    const cleanupTimer = setInterval(cleanUp, Math.max(1000, Math.min(CLEANUP_INTERVAL_MS, maxAgeMs / 10)));
    const exports = { queue: loggedSubmitter(queue, log), artifacts, maxAreaKm2: flags.maxArea, ...(flags.publicUrl !== undefined && { publicUrl: flags.publicUrl }) };
    let serving: Serving | undefined;
    try {
      await cleanUp();
      if (flags.processes === 1) {
        serving = await serveHere(await createServer({ store, version, exports, log, ...answering }), flags);
      } else {
        try {
          serving = await startHttpProcesses({ count: flags.processes, port: flags.port, host: flags.host, location, queue: exports.queue, log });
        } catch (error) {
          if (error instanceof HttpProcessFailed) return error.exitCode;
          throw error;
        }
      }
      const meta = await store.readMeta();
      const processes = flags.processes === 1 ? "" : ` by ${flags.processes} processes`;
      io.stdout.write(
        `basemodel serve: ${serving.address}${processes} (home page: the data on a map, exports, data quality; API docs at ${serving.address}/docs)\n` +
          `data: ${db === undefined ? "the demo dataset (generated; pass --db for your own import)" : shownLocation(db)}, last updated ${meta?.replicationTimestamp ?? "unknown"}\n` +
          `exports: ${exportsDir} (${flags.queue === undefined ? `${flags.workers} at a time` : `run by basemodel worker from ${withoutPassword(flags.queue)}`}, deleted ${flags.exportMaxAge} h after they finish)\n`,
      );
      return await Promise.race([io.stopped.then(() => 0), serving.ended]);
    } finally {
      clearInterval(cleanupTimer);
      await serving?.close();
      // Running exports are stopped and queued again: the next start finishes them.
      await queue.close();
      await store.close();
    }
  } finally {
    if (demoDir !== undefined) rmSync(demoDir, { recursive: true, force: true });
  }
}
