/**
 * The task queue on Redis (BullMQ), for workers on several machines: `basemodel serve --queue`
 * enqueues and reads tasks, `basemodel worker --queue` runs them.
 *
 * BullMQ's own counts are mapped to the SQLite queue's rules: a task runs at most maxAttempts
 * times, a failed run and a crashed run (a worker killed, seen as a stalled job) each use one,
 * and a run stopped by close() uses none. BullMQ counts failed runs (attemptsMade) and stalls
 * (stalledCounter) apart, so the runs a task has used are their sum, and the budget is checked
 * here before each run.
 *
 * BullMQ has no revoked state: a revoked task is a record of its own (the `revoked` hash, the
 * task as JSON by id), written before its job is removed, and what get() answers from then on.
 * A worker finds the revocations of the tasks it runs by polling that record, so that revoke()
 * may come from any process.
 *
 * The history is records of its own too: each entry's summary and owner in two hashes by task id,
 * and the order of the tasks in sorted sets (everyone's, and each owner's), scored by a counter
 * that every process increments, so that the order is one for all and a place in it exact.
 *
 * bullmq and ioredis are optional peer dependencies, imported lazily.
 */
import { randomUUID } from "node:crypto";
import type { Job, Queue, Worker } from "bullmq";
import type { Redis } from "ioredis";
import { errorLine } from "./error-line.js";
import { throttledProgress } from "./progress-throttle.js";
import { newWorkerName, PermanentTaskError, QueueFull } from "./queue.js";
import { DriverMissing, QueueUnavailable, QueueUnreachable, withoutPassword } from "../errors.js";
import type { HistoryEntry, HistoryPage, HistoryQuery, Task, TaskContext, TaskHandler, TaskQueue, TaskQueueFactory, TaskState, WorkOptions } from "./queue.js";

export interface BullmqQueueOptions {
  /** The BullMQ queue's name: every process of one service uses the same (default "exports"). */
  name?: string;
  /** Prefix of every Redis key of the queue (default "basemodel"). */
  prefix?: string;
  /** Runs a task may start before it fails for good (default 3). */
  maxAttempts?: number;
  /** Wait before retry n is retryDelayMs * 2^(n-1) (default 1000). */
  retryDelayMs?: number;
  /**
   * How long a worker's hold on a running task lasts unless renewed (default 5000): a worker
   * that dies stops renewing it, and another worker takes the task within about this time
   * plus stalledIntervalMs. The handler must not block the event loop this long.
   */
  lockDurationMs?: number;
  /** How often workers look for tasks whose worker died (default 2000). */
  stalledIntervalMs?: number;
  /** How long opening waits for Redis to answer (default 5000). */
  connectTimeoutMs?: number;
  /** Told of the failures the queue survives (a lost connection, a state it could not record). */
  onError?: (error: unknown) => void;
}

const DEFAULTS = {
  name: "exports",
  prefix: "basemodel",
  maxAttempts: 3,
  retryDelayMs: 1000,
  lockDurationMs: 5000,
  stalledIntervalMs: 2000,
  connectTimeoutMs: 5000,
  onError: () => {},
} satisfies Required<BullmqQueueOptions>;

type Settings = Required<BullmqQueueOptions>;

/** BullMQ's message when a job's workers died more often than maxStalledCount allows. */
const STALLED_TOO_OFTEN = "job stalled more than allowable limit";
/** Our message for a task whose runs were used up by workers that died. */
const CRASHED = "a worker stopped while running this task";
const crashed = (runs: number) => `${CRASHED} ${runs} times`;
/** The failure of a job whose task was revoked while a worker held it: the job is then removed. */
const REVOKED = "the task was revoked";
/** How often a worker looks for revocations of the tasks it runs. */
const REVOCATION_POLL_MS = 500;
/** How often a working queue records that it is alive; one silent for 3 of these is taken for dead. */
const HEARTBEAT_MS = 2000;

const DRIVERS = ["bullmq", "ioredis"];

async function loadDrivers(): Promise<{ bullmq: typeof import("bullmq"); Redis: typeof import("ioredis").Redis }> {
  try {
    const [bullmq, ioredis] = await Promise.all([import("bullmq"), import("ioredis")]);
    return { bullmq, Redis: ioredis.Redis };
  } catch (error) {
    throw new DriverMissing({ user: "The Redis task queue", packages: DRIVERS }, { cause: error });
  }
}

/**
 * Connects to the Redis at `url` (redis://host:port[/db]) and opens the queue there. Fails with
 * one line when Redis does not answer within connectTimeoutMs.
 */
export async function openBullmqTaskQueue<P, R, S = unknown>(url: string, options: BullmqQueueOptions = {}): Promise<TaskQueue<P, R, S>> {
  const settings: Settings = { ...DEFAULTS, ...options };
  const { bullmq, Redis } = await loadDrivers();
  // Submitting and looking up fail at once while Redis is away (QueueUnavailable, a 503), rather
  // than keep an HTTP request waiting; the connection comes back on its own.
  const connection = new Redis(url, { enableOfflineQueue: false, lazyConnect: true });
  // connect() rejects with "Connection is closed"; the first error event says why.
  let firstError: Error | undefined;
  const noteError = (error: Error) => (firstError ??= error);
  connection.on("error", noteError);
  try {
    await withTimeout(connection.connect(), settings.connectTimeoutMs, `no answer within ${settings.connectTimeoutMs / 1000} s`);
  } catch (error) {
    connection.disconnect();
    const reason = firstError ?? (error as Error);
    // The connection's own error event says why better than the timeout that followed it.
    throw new QueueUnreachable({ location: withoutPassword(url), why: reason.message }, { cause: reason });
  } finally {
    connection.off("error", noteError);
  }
  connection.on("error", settings.onError);
  const queue = new bullmq.Queue(settings.name, { connection, prefix: settings.prefix });
  queue.on("error", settings.onError);
  return new BullmqTaskQueue<P, R, S>(bullmq, connection, queue, settings);
}

/** The queue on the Redis that a redis:// or rediss:// URL names. */
export const bullmqQueueFactory: TaskQueueFactory = {
  takes: (location) => /^rediss?:\/\//i.test(location),
  drivers: DRIVERS,
  open: openBullmqTaskQueue,
};

/** A command that failed for want of Redis: the caller may try again later. */
function unavailable(error: unknown): Error {
  return new QueueUnavailable({ why: `Redis: ${(error as Error).message}` }, { cause: error });
}

/**
 * Runs `tick` now, then `ms` after each run has ended, until the function returned is called.
 * `tick` must not reject.
 */
function repeat(ms: number, tick: () => Promise<void>): () => void {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  const run = (): void => {
    void tick().then(() => {
      if (!stopped) timer = setTimeout(run, ms);
    });
  };
  run();
  return () => {
    stopped = true;
    clearTimeout(timer);
  };
}

function withTimeout<T>(promise: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => (timer = setTimeout(() => reject(new Error(message)), ms)));
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

const STATES: Record<string, TaskState> = {
  waiting: "PENDING",
  delayed: "PENDING",
  prioritized: "PENDING",
  "waiting-children": "PENDING",
  active: "STARTED",
  completed: "SUCCESS",
  failed: "FAILURE",
};

/** Runs the task has used: failed ones and crashed ones, and the current one. */
function runsUsed(job: Job, state: TaskState): number {
  return job.attemptsMade + job.stalledCounter + (state === "STARTED" ? 1 : 0);
}

/** Redis refuses writes when it has reached maxmemory and may evict nothing (noeviction). */
function isOutOfMemory(error: unknown): boolean {
  return error instanceof Error && error.message.startsWith("OOM ");
}

function toTask<R>(job: Job, bullmqState: string): Task<R> | null {
  const state = STATES[bullmqState];
  if (state === undefined) return null;
  let attempts = runsUsed(job, state);
  let error: string | null = null;
  if (state === "FAILURE") {
    // A task failed for its crashes was failed by a worker that took it without running it.
    if (job.failedReason === STALLED_TOO_OFTEN || job.failedReason?.startsWith(CRASHED)) attempts--;
    error = job.failedReason === STALLED_TOO_OFTEN ? crashed(job.stalledCounter) : job.failedReason;
  }
  const time = (ms: number | undefined) => (ms === undefined || ms === null ? null : new Date(ms).toISOString());
  return {
    id: job.id!,
    state,
    // Only a run shows progress: a crashed run's stays on the job until the next run resets it.
    progress: state === "SUCCESS" ? 100 : state === "STARTED" && typeof job.progress === "number" ? job.progress : 0,
    result: state === "SUCCESS" ? ((job.returnvalue as R | undefined) ?? null) : null,
    error,
    attempts,
    createdAt: new Date(job.timestamp).toISOString(),
    startedAt: time(job.processedOn),
    finishedAt: state === "SUCCESS" || state === "FAILURE" ? time(job.finishedOn) : null,
  };
}

/** The first of `ids` that make a page: at most `limit`, their `sizes` within `maxBytes` but for the first. */
function pageOf(ids: readonly string[], sizes: readonly number[], limit: number, maxBytes: number): string[] {
  let bytes = 0;
  let count = 0;
  while (count < Math.min(limit, ids.length) && (count === 0 || bytes + sizes[count]! <= maxBytes)) bytes += sizes[count++]!;
  return ids.slice(0, count);
}

/** A run under way in this process; `revoked` once a revocation of its task has been seen. */
interface Run {
  revoked: boolean;
}

class BullmqTaskQueue<P, R, S> implements TaskQueue<P, R, S> {
  private worker: Worker | undefined;
  private workerConnection: Redis | undefined;
  private workerName: string | undefined;
  /** The runs of this queue's workers, by task id. */
  private readonly runs = new Map<string, Run>();
  /** Stop the heartbeat and the polling for revocations. */
  private readonly stops: Array<() => void> = [];
  private closed: Promise<void> | undefined;
  /** The revoked tasks, as JSON by id: their jobs are removed, so this is all there is of them. */
  private readonly revokedKey: string;
  /** The names of working queues, scored by the time (ms) of their last heartbeat. */
  private readonly workersKey: string;
  /** The history: summaries (JSON) and owners by task id, the order (every task, and by owner), and the counter that scores it. */
  private readonly historyKeys: { summaries: string; owners: string; order: string; counter: string };

  constructor(
    private readonly bullmq: typeof import("bullmq"),
    private readonly connection: Redis,
    private readonly queue: Queue,
    private readonly settings: Settings,
  ) {
    this.revokedKey = queue.toKey("revoked");
    this.workersKey = queue.toKey("workers");
    this.historyKeys = { summaries: queue.toKey("history"), owners: queue.toKey("history:owners"), order: queue.toKey("history:order"), counter: queue.toKey("history:counter") };
  }

  /** The order of one owner's tasks. */
  private ownerOrder(owner: string): string {
    return `${this.historyKeys.order}:${owner}`;
  }

  async enqueue(payload: P, entry?: HistoryEntry<S>): Promise<Task<R>> {
    const id = randomUUID();
    let job: Job;
    try {
      // The history's order: one counter, whichever process enqueues.
      const place = entry && (await this.connection.incr(this.historyKeys.counter));
      job = await this.queue.add("task", payload, {
        // Not an integer: BullMQ takes integer ids for its own counter's.
        jobId: id,
        // The budget is ours (run()); BullMQ must only never stop retrying before it.
        attempts: this.settings.maxAttempts,
        backoff: { type: "exponential", delay: this.settings.retryDelayMs },
        removeOnComplete: false,
        removeOnFail: false,
      });
      // After the job: a failure in between leaves a task without a history entry, never an entry without a task.
      if (entry) await this.addEntry(id, place!, entry).catch(async (error: unknown) => {
        await this.queue.remove(id).catch(this.settings.onError);
        throw error;
      });
    } catch (error) {
      if (isOutOfMemory(error)) throw new QueueFull("the Redis of the task queue is full", { cause: error });
      throw unavailable(error);
    }
    return toTask<R>(job, "waiting")!;
  }

  private async addEntry(id: string, place: number, { summary, owner }: HistoryEntry<S>): Promise<void> {
    const write = this.connection.multi().hset(this.historyKeys.summaries, id, JSON.stringify(summary)).zadd(this.historyKeys.order, place, id);
    if (owner !== null) write.hset(this.historyKeys.owners, id, owner).zadd(this.ownerOrder(owner), place, id);
    // A command refused inside the transaction (Redis out of memory) is in its results, not thrown.
    const failed = (await write.exec())?.find(([error]) => error !== null);
    if (failed) throw failed[0]!;
  }

  async history({ limit, before, owner, maxBytes }: HistoryQuery): Promise<HistoryPage<R, S> | null> {
    const page = await this.historyPage(limit, before, owner, maxBytes).catch((error: unknown) => {
      throw unavailable(error);
    });
    if (page === null) return null;
    // Read as get() reads them (its failures are its own); a task forgotten since the page was read is left out.
    const tasks = await Promise.all(page.ids.map((id) => this.get(id)));
    const entries = page.ids.flatMap((_id, index) => {
      const task = tasks[index];
      const summary = page.summaries[index];
      return task && summary ? [{ ...task, summary: JSON.parse(summary) as S, owner: page.owners[index] ?? null }] : [];
    });
    return { tasks: entries, more: page.more };
  }

  /** The ids of a page of the history with their summaries (JSON) and owners; null when `before` is in none. */
  private async historyPage(limit: number, before: string | undefined, owner: string | undefined, maxBytes: number) {
    let below = "+inf";
    if (before !== undefined) {
      const place = await this.connection.zscore(this.historyKeys.order, before);
      if (place === null) return null;
      below = `(${place}`;
    }
    // One more than asked: whether it exists says whether more are left.
    const candidates = await this.connection.zrevrangebyscore(owner === undefined ? this.historyKeys.order : this.ownerOrder(owner), below, "-inf", "LIMIT", 0, limit + 1);
    const sizes = await Promise.all(candidates.map((id) => this.connection.hstrlen(this.historyKeys.summaries, id)));
    const ids = pageOf(candidates, sizes, limit, maxBytes);
    if (ids.length === 0) return { ids, summaries: [], owners: [], more: false };
    const [summaries, owners] = await Promise.all([this.connection.hmget(this.historyKeys.summaries, ...ids), this.connection.hmget(this.historyKeys.owners, ...ids)]);
    return { ids, summaries, owners, more: candidates.length > ids.length };
  }

  /** Removes the history entries of forgotten tasks. */
  private async forgetEntries(ids: readonly string[]): Promise<void> {
    if (ids.length === 0) return;
    const owners = await this.connection.hmget(this.historyKeys.owners, ...ids);
    const write = this.connection.multi().hdel(this.historyKeys.summaries, ...ids).hdel(this.historyKeys.owners, ...ids).zrem(this.historyKeys.order, ...ids);
    for (const [index, owner] of owners.entries()) if (owner !== null) write.zrem(this.ownerOrder(owner), ids[index]!);
    await write.exec();
  }

  async get(id: string): Promise<Task<R> | null> {
    try {
      // The state first: the job read after it is at least as new, so a finished state finds
      // the outcome recorded. The revocation last: a task revoked meanwhile may have lost its
      // job already, never its record.
      const state = await this.queue.getJobState(id);
      const job = state === "unknown" ? undefined : await this.queue.getJob(id);
      const revoked = await this.connection.hget(this.revokedKey, id);
      if (revoked !== null) return JSON.parse(revoked) as Task<R>;
      return job ? toTask<R>(job, state) : null;
    } catch (error) {
      throw unavailable(error);
    }
  }

  async revoke(id: string): Promise<Task<R> | null> {
    const task = await this.get(id);
    if (task === null || (task.state !== "PENDING" && task.state !== "STARTED")) return task;
    const revoked: Task<R> = { ...task, state: "REVOKED", progress: 0, finishedAt: new Date().toISOString() };
    try {
      // The record first: a worker that holds the job, or takes it before it is removed, finds it.
      await this.connection.hset(this.revokedKey, id, JSON.stringify(revoked));
      // Removes nothing while a worker holds the job: that worker ends it once it finds the record.
      await this.queue.remove(id);
    } catch (error) {
      throw unavailable(error);
    }
    this.stopRun(id);
    return revoked;
  }

  async waiting(): Promise<Array<Task<R> & { payload: P }>> {
    try {
      // The wait list in the order workers take it, then the retries by when they come due.
      const jobs = await this.queue.getJobs(["waiting", "prioritized", "delayed"], 0, -1, true);
      return (await this.unrevoked(jobs)).map((job) => ({ ...toTask<R>(job, "waiting")!, payload: job.data as P }));
    } catch (error) {
      throw unavailable(error);
    }
  }

  async pendingCount(): Promise<number> {
    try {
      const counts = await this.queue.getJobCounts("waiting", "prioritized", "delayed");
      return Object.values(counts).reduce((sum, count) => sum + count, 0);
    } catch (error) {
      throw unavailable(error);
    }
  }

  async active(): Promise<Array<Task<R> & { payload: P; worker: string }>> {
    try {
      const jobs = await this.queue.getJobs(["active"], 0, -1, true);
      // processedBy: the name of the worker that took the job (work() names its workers).
      return (await this.unrevoked(jobs)).map((job) => ({ ...toTask<R>(job, "active")!, payload: job.data as P, worker: job.processedBy ?? "unknown" }));
    } catch (error) {
      throw unavailable(error);
    }
  }

  async workers(): Promise<string[]> {
    try {
      // Each heartbeat is the time on its worker's machine: machines' clocks are taken to agree
      // within a heartbeat, as BullMQ's own times on jobs are.
      return await this.connection.zrangebyscore(this.workersKey, Date.now() - 3 * HEARTBEAT_MS, "+inf");
    } catch (error) {
      throw unavailable(error);
    }
  }

  /** Leaves out the jobs of revoked tasks, which their workers have yet to end. */
  private async unrevoked(jobs: Job[]): Promise<Job[]> {
    if (jobs.length === 0) return jobs;
    const records = await this.connection.hmget(this.revokedKey, ...jobs.map((job) => job.id!));
    return jobs.filter((_job, index) => records[index] === null);
  }

  work(handler: TaskHandler<P, R>, options: WorkOptions): void {
    if (this.worker) throw new Error("work() was already called on this task queue");
    if (!Number.isInteger(options.concurrency) || options.concurrency < 1) {
      throw new RangeError(`concurrency must be a positive integer, not ${options.concurrency}`);
    }
    this.workerName = newWorkerName();
    // Its own connection, whose commands wait for Redis however long it is away: workers block on
    // Redis, and must outlive a restart of it.
    this.workerConnection = this.connection.duplicate({ enableOfflineQueue: true, maxRetriesPerRequest: null });
    this.workerConnection.on("error", this.settings.onError);
    this.worker = new this.bullmq.Worker(this.settings.name, (job, token, signal) => this.run(job, token!, signal!, handler), {
      connection: this.workerConnection,
      prefix: this.settings.prefix,
      name: this.workerName,
      concurrency: options.concurrency,
      lockDuration: this.settings.lockDurationMs,
      stalledInterval: this.settings.stalledIntervalMs,
      // A crash uses an attempt: after maxAttempts - 1 crashes, the next one fails the task.
      maxStalledCount: this.settings.maxAttempts - 1,
      // Jobs run until they end: BullMQ's own limit on runs started would count close()'s too.
      maxStartedAttempts: undefined,
    });
    this.worker.on("error", this.settings.onError);
    // A finished task's request is needed no more, and Redis keeps it in memory until prune():
    // it may be as large as a request body (1 MB). A failed run to be retried keeps it.
    const dropPayload = (job: Job | undefined) => {
      if (job?.finishedOn !== undefined) job.updateData(null).catch(this.settings.onError);
    };
    this.worker.on("completed", dropPayload);
    // A revoked task's job goes whole: the task's record is all that is kept of it.
    this.worker.on("failed", (job, error) => (error.message === REVOKED ? void job?.remove().catch(this.settings.onError) : dropPayload(job)));
    this.stops.push(
      repeat(HEARTBEAT_MS, () => this.beat()),
      repeat(REVOCATION_POLL_MS, () => this.findRevocations()),
    );
  }

  /** Records that this queue's workers are alive, and forgets the queues silent for too long. */
  private async beat(): Promise<void> {
    // Skipped while Redis is away, rather than failing on every beat.
    if (this.connection.status !== "ready") return;
    const now = Date.now();
    await this.connection
      .multi()
      .zadd(this.workersKey, now, this.workerName!)
      .zremrangebyscore(this.workersKey, "-inf", now - 3 * HEARTBEAT_MS)
      .exec()
      .catch(this.settings.onError);
  }

  /** Stops the runs whose tasks were revoked, from whichever process. */
  private async findRevocations(): Promise<void> {
    const ids = [...this.runs.keys()];
    if (ids.length === 0 || this.connection.status !== "ready") return;
    try {
      const records = await this.connection.hmget(this.revokedKey, ...ids);
      for (const [index, id] of ids.entries()) if (records[index] !== null) this.stopRun(id);
    } catch (error) {
      this.settings.onError(error);
    }
  }

  /** Aborts this process's run of a revoked task, if there is one. */
  private stopRun(id: string): void {
    const run = this.runs.get(id);
    if (!run) return;
    run.revoked = true;
    this.worker!.cancelJob(id, REVOKED);
  }

  private async run(job: Job, token: string, signal: AbortSignal, handler: TaskHandler<P, R>): Promise<R> {
    const attempt = runsUsed(job, "STARTED");
    if (attempt > this.settings.maxAttempts) throw new this.bullmq.UnrecoverableError(crashed(job.stalledCounter));
    const run: Run = { revoked: false };
    this.runs.set(job.id!, run);
    const progress = throttledProgress((percent) => void job.updateProgress(percent).catch(this.settings.onError));
    const context: TaskContext = { id: job.id!, attempt, progress: progress.report, signal };
    try {
      // Revoked after a worker took its job, before revoke() could remove it: it does not run.
      if (await this.workerConnection!.hexists(this.revokedKey, job.id!)) run.revoked = true;
      else {
        // A crashed run's progress is still on the job: this run starts from nothing.
        if (job.progress !== 0) await job.updateProgress(0);
        const result = await handler(job.data as P, context);
        if (!run.revoked) return result;
      }
    } catch (error) {
      if (!run.revoked) {
        // Whether it runs again or not, this run's progress is over.
        await job.updateProgress(0).catch(this.settings.onError);
        if (signal.aborted) {
          // Stopped by close(): not the task's fault, so the attempt does not count; WaitingError
          // tells BullMQ the job has been moved already.
          await job.moveToWait(token);
          throw new this.bullmq.WaitingError();
        }
        if (error instanceof PermanentTaskError || attempt >= this.settings.maxAttempts) {
          throw new this.bullmq.UnrecoverableError(errorLine(error));
        }
        throw new Error(errorLine(error), { cause: error });
      }
    } finally {
      progress.stop();
      this.runs.delete(job.id!);
    }
    // Whatever the handler made of it, the task is REVOKED: its job fails, then goes (work()).
    throw new this.bullmq.UnrecoverableError(REVOKED);
  }

  async prune(before: Date): Promise<number> {
    // By the finished sets' scores (finish times) rather than Queue.clean(), whose grace period
    // is measured from its own clock reading and so drifts from `before`.
    const keys = [this.queue.keys.completed!, this.queue.keys.failed!];
    const finished = (await Promise.all(keys.map((key) => this.connection.zrangebyscore(key, 0, `(${before.getTime()}`)))).flat();
    const revoked = Object.entries(await this.connection.hgetall(this.revokedKey))
      .filter(([, record]) => Date.parse((JSON.parse(record) as Task).finishedAt!) < before.getTime())
      .map(([id]) => id);
    const forgotten = new Set(revoked);
    // A revoked task may have left a finished job (its handler ended before its worker found the
    // revocation): it goes with the record, or get() would find the task again.
    await Promise.all(
      [...finished, ...revoked].map(async (id) => {
        if ((await this.queue.remove(id)) > 0) forgotten.add(id);
      }),
    );
    if (revoked.length > 0) await this.connection.hdel(this.revokedKey, ...revoked);
    await this.forgetEntries([...forgotten]);
    return forgotten.size;
  }

  close(): Promise<void> {
    this.closed ??= (async () => {
      for (const stop of this.stops) stop();
      if (this.worker) {
        // Aborts the running handlers (their signal); run() gives their tasks back.
        this.worker.cancelAllJobs("the task queue is closing");
        await this.worker.close();
        // Forgotten at once rather than after 3 heartbeats; those will do should Redis be away.
        await this.connection.zrem(this.workersKey, this.workerName!).catch(this.settings.onError);
      }
      await this.queue.close();
      for (const connection of [this.workerConnection, this.connection]) await connection?.quit().catch(() => connection.disconnect());
    })();
    return this.closed;
  }
}
