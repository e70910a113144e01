/**
 * The export flow as a raw-data-api client runs it: POST /latest/snapshot/, poll the trackLink
 * until SUCCESS, download the zip. Zips are read by GDAL (/vsizip/), never by our own code.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect } from "vitest";
import { afterFile } from "../../support/cleanup.js";
import { localArtifacts, type ArtifactStore } from "../../../src/server/exports/artifacts.js";
import { exportTaskHandler, type ExportQueue, type ExportSummary, type ExportTaskPayload, type ExportTaskResult } from "../../../src/server/tasks/export-tasks.js";
import type { TaskHandler } from "../../../src/server/tasks/queue.js";
import { openSqliteTaskQueue, type SqliteQueueOptions } from "../../../src/server/tasks/sqlite-queue.js";
import { monacoStorePath, startServer, type RunningServer } from "./helpers.js";
import type { ServerOptions } from "../../../src/server/app.js";
import type { CustomExportResult, ExportResult, TaskStatus } from "../../../src/server/api/index.js";

export interface ExportServer extends RunningServer {
  queue: ExportQueue;
  /** The export folder, for tests that put things there behind the server's back. */
  directory: string;
  artifacts: ArtifactStore;
}

/**
 * The real server over Monaco (or `store`) with an export queue and `concurrency` workers in this
 * process (none for 0). The queue is SQLite's in the export folder, or the one `openQueue` opens
 * for it; the folder is a fresh one, or `directory`, which a server used before (a restart).
 */
export async function startExportServer(
  options: {
    concurrency?: number;
    exports?: Partial<NonNullable<ServerOptions["exports"]>>;
    store?: string;
    queue?: SqliteQueueOptions;
    openQueue?: (directory: string) => Promise<ExportQueue>;
    directory?: string;
    server?: Omit<ServerOptions, "store" | "exports">;
    /** Wraps the real export handler: a test may hold a task running, or watch it. */
    wrap?: (handler: TaskHandler<ExportTaskPayload, ExportTaskResult>) => TaskHandler<ExportTaskPayload, ExportTaskResult>;
  } = {},
): Promise<ExportServer> {
  const directory = options.directory ?? freshExportFolder();
  const artifacts = localArtifacts(directory);
  const queue = await (options.openQueue ?? ((at) => openSqliteTaskQueue<ExportTaskPayload, ExportTaskResult, ExportSummary>(join(at, ".tasks.sqlite"), { retryDelayMs: 50, ...options.queue })))(directory);
  const server = await startServer(options.store ?? (await monacoStorePath()), { ...options.server, exports: { queue, artifacts, ...options.exports } });
  const handler = exportTaskHandler(server.store, artifacts);
  // Concurrency 0: no worker in this process, as a server with --queue runs none.
  if (options.concurrency !== 0) queue.work(options.wrap ? options.wrap(handler) : handler, { concurrency: options.concurrency ?? 2 });
  // The queue stops before the server closes the store.
  const close = async () => {
    await queue.close();
    await server.close();
  };
  afterFile(close);
  return { ...server, queue, directory, artifacts, close };
}

/** An export folder alone in a folder of its own, so that a test can see that nothing lands beside it; removed after the file. */
function freshExportFolder(): string {
  const root = mkdtempSync(join(tmpdir(), "basemodel-exports-"));
  afterFile(() => rmSync(root, { recursive: true, force: true }));
  const directory = join(root, "exports");
  mkdirSync(directory);
  return directory;
}

/** A finished snapshot export's task status: its result says where the file is. */
export type FinishedExport = TaskStatus & { result: ExportResult };

/** The result of a snapshot export's task; fails, showing the status, when the task holds none. */
export function exportResultOf(status: TaskStatus): ExportResult {
  const { result } = status;
  if (result === null || !("downloadUrl" in result)) throw new Error(`no snapshot export's result in ${JSON.stringify(status)}`);
  return result;
}

/** The result of a custom export's task; fails, showing the status, when the task holds none. */
export function customResultOf(status: TaskStatus): CustomExportResult {
  const { result } = status;
  if (result === null || !("datasets" in result)) throw new Error(`no custom export's result in ${JSON.stringify(status)}`);
  return result;
}

/** Polls a task the way raw-data-api clients do, until it ends; returns the last status body. */
export async function waitForTask(server: Pick<RunningServer, "get">, trackLink: string, timeoutMs = 240_000): Promise<TaskStatus> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { status, body } = await server.get(`/latest${trackLink}`);
    expect(status).toBe(200);
    if (body.status === "SUCCESS" || body.status === "FAILURE") return body;
    if (Date.now() > deadline) throw new Error(`task still ${body.status} (${body.progress}%) after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** POSTs an export (to `path`) and waits for SUCCESS; returns the task status. */
export async function finishedExport(server: Pick<RunningServer, "get" | "post">, body: unknown, path = "/latest/snapshot/"): Promise<FinishedExport> {
  const accepted = await server.post(path, body);
  expect(accepted.status, accepted.text).toBe(200);
  const status = await waitForTask(server, accepted.body.trackLink);
  expect(status.status, JSON.stringify(status.result)).toBe("SUCCESS");
  return { ...status, result: exportResultOf(status) };
}

/** POSTs an export, waits for SUCCESS and downloads the zip to a temporary file; returns its path and the task status. */
export async function exportZip(server: RunningServer, body: unknown): Promise<{ zip: string; status: FinishedExport }> {
  const status = await finishedExport(server, body);
  return { zip: await downloadZip(status.result.downloadUrl), status };
}

/** Downloads a zip to a temporary file (removed after the test file) and returns its path. */
export function downloadZip(url: string): Promise<string> {
  return downloadFile(url, "download.zip");
}

/** Downloads `url` to a temporary file called `name` (removed after the test file) and returns its path. */
export async function downloadFile(url: string, name: string): Promise<string> {
  const download = await fetch(url);
  expect(download.status).toBe(200);
  const directory = mkdtempSync(join(tmpdir(), "basemodel-download-"));
  afterFile(() => rmSync(directory, { recursive: true, force: true }));
  const path = join(directory, name);
  writeFileSync(path, Buffer.from(await download.arrayBuffer()));
  return path;
}

/** Runs `code` with `z`, the zip opened by Python's zipfile: a reader that is not ours, CRC checks included. */
export function pythonZip(zip: string, code: string): string {
  return execFileSync("python3", ["-c", `import sys, zipfile\nz = zipfile.ZipFile(sys.argv[1])\n${code}`, zip], { encoding: "utf8" });
}
