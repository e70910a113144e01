/**
 * The files of a validate run turned into their reports, in the order found: in this thread, or
 * spread over worker threads (validate-threads.ts) when there are enough of them for threads to
 * pay. Either way each file's report comes from inputReport, so the output cannot tell them apart.
 */
import { availableParallelism } from "node:os";
import type { DocumentFormat } from "../validator/engine/text.js";
import { formatOf, validatedFile, type ValidatedFile } from "./file-report.js";
import type { FoundFile } from "./files.js";
import { readItemFile } from "./read.js";
import type { ThreadRun } from "./validate-threads.js";

export interface FilesRun extends ThreadRun {
  /** --jobs: how many threads validate (1: this one alone); by default, one per core but one once the files are many enough. */
  jobs?: number;
  /** Awaited before each file is validated (--fetch downloads its schemas): the run then stays in this thread. */
  beforeFile?: (bytes: Buffer, format: DocumentFormat) => Promise<void>;
}

/**
 * Below this many files a default run stays in one thread: a worker costs this thread about 10 ms
 * to spawn and starts in about 50 ms of its own core, while one of fAIr's real items takes about
 * 0.2 ms to read and validate.
 */
export const THREADS_FROM = 100;

/**
 * How many threads validate `files` files. By default one core is left to V8's own threads: each
 * JavaScript thread's code is optimised by a compiler thread of its own, and its heap collected by
 * helper threads, which run beside it on a free core. On 2 cores two validating threads were
 * slower than one (BENCHMARKS.md, session 20: 2,000 real items 500 against 440 ms, with --stac 875
 * against 834 ms), and one thread alone ran ~40 % slower when its compiler had to share that
 * thread (node --single-threaded). Machines of more cores were not measured.
 */
export function threadCount(files: number, jobs: number | undefined, cores = availableParallelism()): number {
  if (jobs !== undefined) return Math.max(1, Math.min(jobs, files));
  return files < THREADS_FROM ? 1 : Math.max(1, cores - 1);
}

export async function validateFiles(files: readonly FoundFile[], run: FilesRun): Promise<ValidatedFile[]> {
  const threads = run.beforeFile === undefined ? threadCount(files.length, run.jobs) : 1;
  if (threads > 1) return (await import("./validate-threads.js")).validateOnThreads(files, threads, run);
  const validated: ValidatedFile[] = [];
  for (const file of files) {
    const read = readItemFile(file.path);
    if (run.beforeFile !== undefined && "bytes" in read) await run.beforeFile(read.bytes, formatOf(file.shown));
    validated.push(validatedFile(file, read, run.validator, run.keep));
    run.tick(validated.length);
  }
  return validated;
}
