/**
 * The embedded task queue: one SQLite file (better-sqlite3) owned by one process.
 *
 * better-sqlite3 is an optional peer dependency (a native module), so it is imported lazily:
 * merely loading the package never requires it.
 */
import { randomUUID } from "node:crypto";
import type BetterSqlite3 from "better-sqlite3";
import { PermanentTaskError } from "./queue.js";
import type { Task, TaskContext, TaskHandler, TaskQueue, TaskState, WorkOptions } from "./queue.js";

type Database = BetterSqlite3.Database;

export interface SqliteQueueOptions {
  /** Runs a task may start before it fails for good (default 3). */
  maxAttempts?: number;
  /** Wait before retry n is retryDelayMs * 2^(n-1) (default 1000). */
  retryDelayMs?: number;
  /** How often idle workers look for tasks whose retry time has come (default 500). */
  pollMs?: number;
  /** The clock behind every stored time; for tests. */
  now?: () => Date;
}

/** Stored in PRAGMA user_version: it also tells our files from other SQLite files, which leave it 0. */
const SCHEMA_VERSION = 1;
const PROGRESS_INTERVAL_MS = 200;
const MAX_ERROR_LENGTH = 300;

async function loadDriver(): Promise<typeof BetterSqlite3> {
  try {
    return (await import("better-sqlite3")).default;
  } catch (error) {
    throw new Error("The SQLite task queue needs the optional dependency better-sqlite3: run `npm install better-sqlite3@12`", { cause: error });
  }
}

export async function openSqliteTaskQueue<P, R>(path: string, options: SqliteQueueOptions = {}): Promise<TaskQueue<P, R>> {
  const settings: Required<SqliteQueueOptions> = {
    maxAttempts: options.maxAttempts ?? 3,
    retryDelayMs: options.retryDelayMs ?? 1000,
    pollMs: options.pollMs ?? 500,
    now: options.now ?? (() => new Date()),
  };
  const Driver = await loadDriver();
  // No busy timeout: the only other connection to wait for would be another process's, and
  // that one keeps its exclusive lock until it closes.
  const db = new Driver(path, { timeout: 0 });
  try {
    // Before the first read: the lock is then kept, not released after each transaction, and
    // WAL needs no shared memory. Our first write below takes it for the connection's lifetime.
    db.pragma("locking_mode = EXCLUSIVE");
    prepareSchema(db, path);
    recoverInterruptedTasks(db, settings.maxAttempts, settings.now().toISOString());
  } catch (error) {
    db.close();
    if ((error as { code?: unknown }).code === "SQLITE_BUSY") {
      throw new Error(`task queue ${path} is in use by another process`, { cause: error });
    }
    throw error;
  }
  return new SqliteTaskQueue<P, R>(db, settings);
}

/** Checks the file before anything writes to it, so that a file that is not ours stays untouched. */
function prepareSchema(db: Database, path: string): void {
  const notAQueue = (cause?: unknown): Error => new Error(`${path} is not a task queue of schema version ${SCHEMA_VERSION}`, { cause });
  let version: unknown;
  let objects: unknown;
  try {
    version = db.pragma("user_version", { simple: true });
    objects = db.prepare("SELECT count(*) FROM sqlite_master").pluck().get();
  } catch (error) {
    if ((error as { code?: unknown }).code === "SQLITE_NOTADB") throw notAQueue(error);
    throw error;
  }
  const fresh = version === 0 && objects === 0;
  if (!fresh && version !== SCHEMA_VERSION) throw notAQueue();
  db.pragma("journal_mode = WAL");
  // FULL: a task is on disk when enqueue() resolves, even if the machine loses power.
  db.pragma("synchronous = FULL");
  if (!fresh) return;
  db.exec(`
    BEGIN;
    CREATE TABLE tasks (
      id TEXT PRIMARY KEY,
      state TEXT NOT NULL,
      progress INTEGER NOT NULL,
      payload TEXT NOT NULL,
      result TEXT,
      error TEXT,
      attempts INTEGER NOT NULL,
      created_at TEXT NOT NULL,
      started_at TEXT,
      finished_at TEXT,
      run_after TEXT NOT NULL
    );
    -- Pending tasks are few, finished ones pile up until clean-up: index only the former, in
    -- claim order (the index's implicit rowid breaks ties).
    CREATE INDEX tasks_pending ON tasks (created_at) WHERE state = 'PENDING';
    PRAGMA user_version = ${SCHEMA_VERSION};
    COMMIT;
  `);
}

/** Tasks left STARTED were running when the process died: they run again, unless that was their last attempt. */
function recoverInterruptedTasks(db: Database, maxAttempts: number, now: string): void {
  // Always writes (user_version rewrites the header even when no task was STARTED): a write is
  // what surely takes the exclusive lock, so another process is turned away from now on.
  db.transaction(() => {
    db.prepare(
      `UPDATE tasks SET state = 'FAILURE', finished_at = ?,
         error = 'the server stopped while running this task ' || attempts || ' times'
       WHERE state = 'STARTED' AND attempts >= ?`,
    ).run(now, maxAttempts);
    db.prepare("UPDATE tasks SET state = 'PENDING', progress = 0, run_after = ? WHERE state = 'STARTED'").run(now);
    db.pragma(`user_version = ${SCHEMA_VERSION}`);
  })();
}

interface TaskRow {
  id: string;
  state: TaskState;
  progress: number;
  payload: string;
  result: string | null;
  error: string | null;
  attempts: number;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
}

function toTask<P, R>(row: TaskRow): Task<P, R> {
  return {
    id: row.id,
    state: row.state,
    progress: row.progress,
    payload: JSON.parse(row.payload) as P,
    result: row.result === null ? null : (JSON.parse(row.result) as R),
    error: row.error,
    attempts: row.attempts,
    createdAt: row.created_at,
    startedAt: row.started_at,
    finishedAt: row.finished_at,
  };
}

/** What a client may see of a failure: one line, no stack, bounded. */
function errorLine(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const line = message.split("\n").map((part) => part.trim()).find((part) => part !== "");
  return (line ?? "the task failed without a message").slice(0, MAX_ERROR_LENGTH);
}

class SqliteTaskQueue<P, R> implements TaskQueue<P, R> {
  private readonly statements;
  private workers: Array<Promise<void>> | undefined;
  /** Resolvers of idle workers; enqueue() calls one, close() all. */
  private readonly sleepers = new Set<() => void>();
  private readonly running = new Set<AbortController>();
  private closing = false;
  private closed: Promise<void> | undefined;

  constructor(
    private readonly db: Database,
    private readonly settings: Required<SqliteQueueOptions>,
  ) {
    this.statements = {
      insert: db.prepare(
        `INSERT INTO tasks (id, state, progress, payload, attempts, created_at, run_after)
         VALUES (?, 'PENDING', 0, ?, 0, ?, ?) RETURNING *`,
      ),
      get: db.prepare("SELECT * FROM tasks WHERE id = ?"),
      claim: db.prepare(
        `UPDATE tasks SET state = 'STARTED', attempts = attempts + 1, started_at = @now, progress = 0
         WHERE id = (SELECT id FROM tasks WHERE state = 'PENDING' AND run_after <= @now ORDER BY created_at, rowid LIMIT 1)
         RETURNING *`,
      ),
      progress: db.prepare("UPDATE tasks SET progress = ? WHERE id = ? AND state = 'STARTED'"),
      succeed: db.prepare("UPDATE tasks SET state = 'SUCCESS', progress = 100, result = ?, finished_at = ? WHERE id = ?"),
      fail: db.prepare("UPDATE tasks SET state = 'FAILURE', error = ?, finished_at = ? WHERE id = ?"),
      requeue: db.prepare("UPDATE tasks SET state = 'PENDING', progress = 0, attempts = attempts - ?, run_after = ? WHERE id = ?"),
      finishedBefore: db.prepare("SELECT * FROM tasks WHERE state = 'SUCCESS' AND finished_at < ? ORDER BY finished_at, rowid"),
      setResult: db.prepare("UPDATE tasks SET result = ? WHERE id = ? AND state = 'SUCCESS'"),
    };
  }

  async enqueue(payload: P): Promise<Task<P, R>> {
    const now = this.settings.now().toISOString();
    const row = this.statements.insert.get(randomUUID(), JSON.stringify(payload), now, now) as TaskRow;
    this.sleepers.values().next().value?.();
    return toTask(row);
  }

  async get(id: string): Promise<Task<P, R> | null> {
    const row = this.statements.get.get(id) as TaskRow | undefined;
    return row ? toTask(row) : null;
  }

  work(handler: TaskHandler<P, R>, options: WorkOptions): void {
    if (this.workers) throw new Error("work() was already called on this task queue");
    if (!Number.isInteger(options.concurrency) || options.concurrency < 1) {
      throw new RangeError(`concurrency must be a positive integer, not ${options.concurrency}`);
    }
    this.workers = Array.from({ length: options.concurrency }, () => this.workLoop(handler));
  }

  private async workLoop(handler: TaskHandler<P, R>): Promise<void> {
    while (!this.closing) {
      const row = this.statements.claim.get({ now: this.settings.now().toISOString() }) as TaskRow | undefined;
      if (row) await this.run(toTask(row), handler);
      else await this.idle();
    }
  }

  /** Resolves when enqueue() or close() wakes this worker, or after pollMs for retries that have come due. */
  private idle(): Promise<void> {
    return new Promise((resolve) => {
      const wake = (): void => {
        clearTimeout(timer);
        this.sleepers.delete(wake);
        resolve();
      };
      const timer = setTimeout(wake, this.settings.pollMs);
      this.sleepers.add(wake);
    });
  }

  private async run(task: Task<P, R>, handler: TaskHandler<P, R>): Promise<void> {
    const controller = new AbortController();
    const progress = this.progressReporter(task.id);
    this.running.add(controller);
    const context: TaskContext = { id: task.id, attempt: task.attempts, progress: progress.report, signal: controller.signal };
    let outcome: { result: string | null } | { error: unknown };
    try {
      // Serialised here so that a result JSON cannot hold counts as the run's failure.
      outcome = { result: JSON.stringify(await handler(task.payload, context)) ?? null };
    } catch (error) {
      outcome = { error };
    } finally {
      progress.stop();
      this.running.delete(controller);
    }
    const now = this.settings.now();
    if (controller.signal.aborted) {
      // Stopped by close(): not the task's fault, so the attempt does not count.
      this.statements.requeue.run(1, now.toISOString(), task.id);
    } else if ("result" in outcome) {
      this.statements.succeed.run(outcome.result, now.toISOString(), task.id);
    } else if (outcome.error instanceof PermanentTaskError || task.attempts >= this.settings.maxAttempts) {
      this.statements.fail.run(errorLine(outcome.error), now.toISOString(), task.id);
    } else {
      const retryAt = new Date(now.getTime() + this.settings.retryDelayMs * 2 ** (task.attempts - 1));
      this.statements.requeue.run(0, retryAt.toISOString(), task.id);
    }
  }

  /**
   * Handlers may report progress on every item they process: write the latest value at most
   * every PROGRESS_INTERVAL_MS, the last one of a burst on a timer so that it is not lost.
   */
  private progressReporter(id: string): { report: (percent: number) => void; stop: () => void } {
    let stopped = false;
    let written = 0;
    let latest = 0;
    let writtenAt = -Infinity;
    let timer: NodeJS.Timeout | undefined;
    const write = (): void => {
      timer = undefined;
      if (stopped || latest === written) return;
      this.statements.progress.run(latest, id);
      written = latest;
      writtenAt = performance.now();
    };
    return {
      report: (percent) => {
        if (stopped || Number.isNaN(percent)) return;
        latest = Math.round(Math.min(100, Math.max(0, percent)));
        if (timer !== undefined || latest === written) return;
        const wait = writtenAt + PROGRESS_INTERVAL_MS - performance.now();
        if (wait <= 0) write();
        else timer = setTimeout(write, wait);
      },
      stop: () => {
        stopped = true;
        clearTimeout(timer);
      },
    };
  }

  async finishedBefore(before: Date): Promise<Array<Task<P, R>>> {
    return (this.statements.finishedBefore.all(before.toISOString()) as TaskRow[]).map((row) => toTask(row));
  }

  async setResult(id: string, result: R): Promise<void> {
    const { changes } = this.statements.setResult.run(JSON.stringify(result) ?? null, id);
    if (changes === 0) throw new Error(`There is no SUCCESS task ${id} to set the result of`);
  }

  close(): Promise<void> {
    this.closed ??= (async () => {
      this.closing = true;
      for (const controller of this.running) controller.abort(new Error("the task queue is closing"));
      for (const wake of [...this.sleepers]) wake();
      await Promise.all(this.workers ?? []);
      this.db.close();
    })();
    return this.closed;
  }
}
