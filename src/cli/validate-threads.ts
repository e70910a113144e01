/**
 * The files of a validate run spread over threads: this one and `threads - 1` worker threads
 * (validate-worker.ts), each taking the next chunk of the list as it is free, so that a core the
 * machine's other work slows down takes fewer. Each worker is given one chunk as it is started and
 * more once it says it is ready, while this thread validates from the start: a worker's start-up
 * (tens of milliseconds) costs this thread nothing. Reports are put back in the list's order.
 */
import { setImmediate as nextTurn } from "node:timers/promises";
import { parentPort, Worker, workerData } from "node:worker_threads";
import { validatorWith, type DocumentValidator } from "../validator/engine/validator.js";
import type { EngineSettings } from "../validator/item/settings.js";
import { validatedFile, type Keep, type ValidatedFile } from "./file-report.js";
import type { FoundFile } from "./files.js";
import { readItemFile } from "./read.js";

export interface ThreadRun {
  validator: DocumentValidator;
  /** What each file's ValidatedFile keeps beside its report. */
  keep: Keep;
  /** Told how many files are done, as they are. */
  tick: (done: number) => void;
}

/** What a worker is started with. */
export interface WorkerStart {
  settings: EngineSettings;
  files: readonly FoundFile[];
  keep: Keep;
}

/** A chunk of the list: files start to end (exclusive). */
export interface Chunk {
  start: number;
  end: number;
}

export type WorkerMessage = { ready: true } | { start: number; validated: ValidatedFile[] } | { error: Error };

/** Files per chunk: small enough that the last chunks even out the threads, large enough that messages cost little beside them. */
const CHUNK_FILES = 16;
/** Chunks a worker holds at once: it starts its next while this thread, busy with its own chunk, has not yet read the last result. */
const AHEAD = 2;

const WORKER = new URL("./validate-worker.js", import.meta.url);

/** Validates the chunk's files in this thread (also the worker's way: validate-worker.ts). */
export function validateChunk({ start, end }: Chunk, files: readonly FoundFile[], validate: (file: FoundFile) => ValidatedFile): ValidatedFile[] {
  return files.slice(start, end).map(validate);
}

export function validateOnThreads(files: readonly FoundFile[], threads: number, run: ThreadRun): Promise<ValidatedFile[]> {
  const results: ValidatedFile[] = new Array(files.length);
  let next = 0;
  let done = 0;
  /** Chunks given back by a worker that stopped before it validated them. */
  const returned: Chunk[] = [];
  const take = (): Chunk | undefined => {
    if (returned.length > 0) return returned.pop();
    if (next >= files.length) return undefined;
    const start = next;
    next = Math.min(files.length, next + CHUNK_FILES);
    return { start, end: next };
  };
  const store = (start: number, validated: readonly ValidatedFile[]) => {
    for (const [offset, file] of validated.entries()) results[start + offset] = file;
    done += validated.length;
    run.tick(done);
  };
  const start: WorkerStart = { settings: run.validator.settings, files, keep: run.keep };
  const chunks = Math.ceil(files.length / CHUNK_FILES);
  // A worker writes nothing of the run's; what Node writes of one that cannot start is not shown,
  // since its files are validated all the same (below).
  const workers = Array.from({ length: Math.min(threads - 1, chunks) }, () => {
    const worker = new Worker(WORKER, { workerData: start, stderr: true });
    worker.stderr.resume();
    return worker;
  });
  const stopAll = () => {
    for (const worker of workers) void worker.terminate();
  };

  return new Promise((resolve, reject) => {
    let settled = false;
    const fail = (error: Error) => {
      if (settled) return;
      settled = true;
      stopAll();
      reject(error);
    };
    const finishIfDone = () => {
      if (settled || done < files.length) return;
      settled = true;
      stopAll();
      resolve(results);
    };
    const validate = (file: FoundFile) => validatedFile(file, readItemFile(file.path), run.validator, run.keep);
    let working = false;
    // This thread's share: chunk after chunk, the workers' messages read between them.
    const work = async () => {
      if (working) return;
      working = true;
      for (let chunk = take(); chunk !== undefined; chunk = take()) {
        store(chunk.start, validateChunk(chunk, files, validate));
        await nextTurn();
      }
      working = false;
      finishIfDone();
    };
    for (const worker of workers) {
      const held = new Map<number, Chunk>();
      const feed = (upTo: number) => {
        for (let chunk = held.size < upTo ? take() : undefined; chunk !== undefined; chunk = held.size < upTo ? take() : undefined) {
          worker.postMessage(chunk);
          held.set(chunk.start, chunk);
        }
        if (held.size === 0) void worker.terminate();
      };
      // One chunk waits for it while it starts: every worker takes part, however fast this thread is.
      feed(1);
      worker.on("message", (message: WorkerMessage) => {
        if ("error" in message) return fail(message.error);
        if ("validated" in message) {
          held.delete(message.start);
          store(message.start, message.validated.map(asBuffers));
        }
        feed(AHEAD);
        finishIfDone();
      });
      // A worker that cannot start (too few file descriptors, too little memory) or stops leaves
      // its chunks to the other threads: the run is slower, its report the same.
      const giveBack = () => {
        returned.push(...held.values());
        held.clear();
        if (!settled) work().catch(fail);
      };
      worker.on("error", giveBack);
      worker.on("exit", giveBack);
    }
    work().catch(fail);
  });
}

/** A Buffer crosses to this thread as a plain Uint8Array. */
function asBuffers(file: ValidatedFile): ValidatedFile {
  return file.bytes === undefined ? file : { ...file, bytes: Buffer.from(file.bytes.buffer, file.bytes.byteOffset, file.bytes.byteLength) };
}

/**
 * A worker's side (validate-worker.ts is its entry, and only that, so that the worker and this
 * module share every bundle chunk and the worker adds none to the command line's start): builds
 * the run's validator from its settings, says it is ready, then validates each chunk it is sent.
 */
export async function workOnChunks(): Promise<void> {
  const port = parentPort!;
  const { settings, files, keep } = workerData as WorkerStart;
  const stac = settings.stac ? (await import("../validator/stac/index.js")).stacIssues : undefined;
  const validator = validatorWith(settings, stac);
  const validate = (file: FoundFile) => validatedFile(file, readItemFile(file.path), validator, keep);
  const send = (message: WorkerMessage) => port.postMessage(message);
  port.on("message", (chunk: Chunk) => {
    try {
      send({ start: chunk.start, validated: validateChunk(chunk, files, validate) });
    } catch (error) {
      send({ error: error as Error });
    }
  });
  send({ ready: true });
}
