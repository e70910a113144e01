/**
 * The embedded task queue: one SQLite file (better-sqlite3) owned by one process.
 *
 * A task's row stays small (state, progress, result): its payload, which can be as large as a
 * request body, lives deflated in a table of its own and is deleted as the task finishes, so
 * that progress updates do not rewrite it and finished tasks cost a few hundred bytes until
 * prune() forgets them. A task's history entry, deflated too, has a table of its own, whose
 * rows are in the order the tasks were enqueued and go with their tasks.
 *
 * better-sqlite3 is an optional peer dependency (a native module), so it is imported lazily:
 * merely loading the package never requires it.
 */
import { randomUUID } from "node:crypto";
import { constants, deflateRawSync, inflateRawSync } from "node:zlib";
import type BetterSqlite3 from "better-sqlite3";
import { errorLine } from "./error-line.js";
import { throttledProgress } from "./progress-throttle.js";
import { DriverMissing, NotAQueue, QueueInUse } from "../errors.js";
import { newWorkerName, PermanentTaskError, QueueFull } from "./queue.js";
import type { HistoryEntry, HistoryPage, HistoryQuery, Task, TaskContext, TaskHandler, TaskQueue, TaskQueueFactory, TaskState, WorkOptions } from "./queue.js";

type Database = BetterSqlite3.Database;

export interface SqliteQueueOptions {
  /** Runs a task may start before it fails for good (default 3). */
  maxAttempts?: number;
  /** Wait before retry n is retryDelayMs * 2^(n-1) (default 1000). */
  retryDelayMs?: number;
  /** How often idle workers look for tasks whose retry time has come (default 500). */
  pollMs?: number;
  /**
   * Runs once this process owns the queue's file, before the queue writes anything: the place
   * to remove what the tasks of a process that died left behind, which may be what filled the disk.
   */
  onOwned?: () => Promise<void>;
  /** Told of the failures the queue survives: a state it could not record (a full disk), a claim that failed. */
  onError?: (error: unknown) => void;
  /** The file may grow to about this size, then writes fail as on a full disk (SQLITE_FULL); for tests. */
  maxFileBytes?: number;
  /** The clock behind every stored time; for tests. */
  now?: () => Date;
}

/** Stored in PRAGMA user_version: it also tells our files from other SQLite files, which leave it 0. */
const SCHEMA_VERSION = 3;

/**
 * A request's JSON (mostly coordinates) deflates to a third at the fastest level: 0.9 MB in
 * 15 ms, where the default level takes 35 ms for 7 % less. Synchronous, so that tasks are
 * recorded in the order enqueue() was called.
 */
const DEFLATE = { level: constants.Z_BEST_SPEED };

const DRIVERS = ["better-sqlite3"];

async function loadDriver(): Promise<typeof BetterSqlite3> {
  try {
    return (await import("better-sqlite3")).default;
  } catch (error) {
    throw new DriverMissing({ user: "The SQLite task queue", packages: DRIVERS }, { cause: error });
  }
}

/** The queue in the file a location names that is no URL. */
export const sqliteQueueFactory: TaskQueueFactory = {
  takes: (location) => !/^[a-z][a-z\d+.-]*:\/\//i.test(location),
  drivers: DRIVERS,
  open: openSqliteTaskQueue,
};

export async function openSqliteTaskQueue<P, R, S = unknown>(path: string, options: SqliteQueueOptions = {}): Promise<TaskQueue<P, R, S>> {
  const settings: Settings = {
    maxAttempts: options.maxAttempts ?? 3,
    retryDelayMs: options.retryDelayMs ?? 1000,
    pollMs: options.pollMs ?? 500,
    onError: options.onError ?? (() => {}),
    now: options.now ?? (() => new Date()),
  };
  const Driver = await loadDriver();
  // No busy timeout: the only other connection to wait for would be another process's, and
  // that one keeps its exclusive lock until it closes.
  const db = new Driver(path, { timeout: 0 });
  try {
    // Before the first read: the lock is then kept, not released after each transaction, and
    // WAL needs no shared memory. In WAL mode the first read takes it for the connection's
    // lifetime; a fresh file is written at once, which takes it too.
    db.pragma("locking_mode = EXCLUSIVE");
    const version = prepareSchema(db, path);
    await options.onOwned?.();
    if (version === 1) upgradeFromVersion1(db);
    if (version < 3) addHistory(db);
    recoverInterruptedTasks(db, settings.maxAttempts, settings.now().toISOString());
    if (options.maxFileBytes !== undefined) {
      const pageSize = db.pragma("page_size", { simple: true }) as number;
      db.pragma(`max_page_count = ${Math.max(1, Math.floor(options.maxFileBytes / pageSize))}`);
    }
  } catch (error) {
    db.close();
    if ((error as { code?: unknown }).code === "SQLITE_BUSY") {
      throw new QueueInUse({ location: path }, { cause: error });
    }
    throw error;
  }
  return new SqliteTaskQueue<P, R, S>(db, settings);
}

type Settings = Required<Omit<SqliteQueueOptions, "onOwned" | "maxFileBytes">>;

/**
 * Checks the file before anything writes to it, so that a file that is not ours stays
 * untouched, and creates the tables in a fresh one. Returns the schema version found.
 */
function prepareSchema(db: Database, path: string): number {
  const notAQueue = (cause?: unknown): Error => new NotAQueue({ location: path, version: SCHEMA_VERSION }, { cause });
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
  if (!fresh && version !== SCHEMA_VERSION && version !== 1 && version !== 2) throw notAQueue();
  // Before anything else is written to a fresh file: prune() hands the pages of forgotten
  // tasks back to the file system.
  if (fresh) db.pragma("auto_vacuum = INCREMENTAL");
  db.pragma("journal_mode = WAL");
  // FULL: a task is on disk when enqueue() resolves, even if the machine loses power.
  db.pragma("synchronous = FULL");
  if (!fresh) return version as number;
  db.exec(`
    BEGIN;
    CREATE TABLE tasks (
      id TEXT PRIMARY KEY,
      state TEXT NOT NULL,
      progress INTEGER NOT NULL,
      result TEXT,
      error TEXT,
      attempts INTEGER NOT NULL,
      created_at TEXT NOT NULL,
      started_at TEXT,
      finished_at TEXT,
      run_after TEXT NOT NULL
    );
    -- Pending tasks are few, finished ones pile up until pruned: index only the former, in
    -- claim order (the index's implicit rowid breaks ties).
    CREATE INDEX tasks_pending ON tasks (created_at) WHERE state = 'PENDING';
    -- The payload (JSON, deflated) of every task that has not finished.
    CREATE TABLE payloads (task_id TEXT PRIMARY KEY, data BLOB NOT NULL);
    ${HISTORY_TABLE}
    PRAGMA user_version = ${SCHEMA_VERSION};
    COMMIT;
  `);
  return SCHEMA_VERSION;
}

/**
 * The history entries: a row per task enqueued with one, its rowid in enqueue order (the
 * history's order), its summary deflated, with the length of the summary's JSON (what a page's
 * maxBytes counts). The index finds one owner's tasks in the same order.
 */
const HISTORY_TABLE = `
    CREATE TABLE history (task_id TEXT PRIMARY KEY, owner TEXT, bytes INTEGER NOT NULL, summary BLOB NOT NULL);
    CREATE INDEX history_owner ON history (owner) WHERE owner IS NOT NULL;`;

/** Versions 1 and 2 kept no history: the tasks they queued have none. */
function addHistory(db: Database): void {
  db.exec(`BEGIN; ${HISTORY_TABLE} PRAGMA user_version = ${SCHEMA_VERSION}; COMMIT;`);
}

/** Version 1 kept every payload, as JSON text, in its task's row, finished or not. */
function upgradeFromVersion1(db: Database): void {
  db.transaction(() => {
    db.exec("CREATE TABLE payloads (task_id TEXT PRIMARY KEY, data BLOB NOT NULL)");
    const insert = db.prepare("INSERT INTO payloads (task_id, data) VALUES (?, ?)");
    const unfinished = db.prepare("SELECT id, payload FROM tasks WHERE state IN ('PENDING', 'STARTED')").all() as Array<{ id: string; payload: string }>;
    for (const { id, payload } of unfinished) insert.run(id, deflateRawSync(payload, DEFLATE));
    db.exec("ALTER TABLE tasks DROP COLUMN payload");
    db.pragma("user_version = 2");
  })();
  // The payloads of finished tasks filled most of the file: give their pages back, once.
  db.pragma("auto_vacuum = INCREMENTAL");
  db.exec("VACUUM");
}

/** Tasks left STARTED were running when the process died: they run again, unless that was their last attempt. */
function recoverInterruptedTasks(db: Database, maxAttempts: number, now: string): void {
  // Always writes (user_version rewrites the header even when no task was STARTED), so that
  // a file that cannot be written is found now, not by the first task.
  db.transaction(() => {
    db.prepare(
      `UPDATE tasks SET state = 'FAILURE', finished_at = ?,
         error = 'the server stopped while running this task ' || attempts || ' times'
       WHERE state = 'STARTED' AND attempts >= ?`,
    ).run(now, maxAttempts);
    db.prepare("DELETE FROM payloads WHERE task_id IN (SELECT id FROM tasks WHERE state IN ('SUCCESS', 'FAILURE'))").run();
    db.prepare("UPDATE tasks SET state = 'PENDING', progress = 0, run_after = ? WHERE state = 'STARTED'").run(now);
    db.pragma(`user_version = ${SCHEMA_VERSION}`);
  })();
}

interface TaskRow {
  id: string;
  state: TaskState;
  progress: number;
  result: string | null;
  error: string | null;
  attempts: number;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
}

/** A task a worker has taken, with its payload as stored. */
interface Claimed {
  row: TaskRow;
  payload: Buffer;
}

/** An unfinished task's row with its payload as stored. */
type RowWithPayload = TaskRow & { payload: Buffer };

/** A task's row with its history entry as stored. */
type RowWithEntry = TaskRow & { owner: string | null; bytes: number; summary: Buffer };

function unpack<P>(payload: Buffer): P {
  return JSON.parse(inflateRawSync(payload).toString("utf8")) as P;
}

/** A history entry as its row holds it. */
interface StoredEntry {
  owner: string | null;
  bytes: number;
  summary: Buffer;
}

function storedEntry<S>({ summary, owner }: HistoryEntry<S>): StoredEntry {
  const json = Buffer.from(JSON.stringify(summary), "utf8");
  return { owner, bytes: json.length, summary: deflateRawSync(json, DEFLATE) };
}

function toTask<R>(row: TaskRow): Task<R> {
  return {
    id: row.id,
    state: row.state,
    progress: row.progress,
    result: row.result === null ? null : (JSON.parse(row.result) as R),
    error: row.error,
    attempts: row.attempts,
    createdAt: row.created_at,
    startedAt: row.started_at,
    finishedAt: row.finished_at,
  };
}

class SqliteTaskQueue<P, R, S> implements TaskQueue<P, R, S> {
  private readonly statements;
  private readonly insert: (id: string, payload: Buffer, now: string, entry: StoredEntry | undefined) => TaskRow;
  private readonly claim: (now: string) => Claimed | undefined;
  /** Runs `write` (which records how the task ended) and deletes the task's payload, together. */
  private readonly finish: (id: string, write: () => void) => void;
  private readonly revokeRow: (id: string, now: string) => TaskRow | undefined;
  private readonly pruneRows: (before: string) => number;
  private workLoops: Array<Promise<void>> | undefined;
  /**
   * Set by work(). Only this process can open the file, so only its workers ever run the
   * queue's tasks and it needs no heartbeat to know who is alive.
   */
  private workerName: string | undefined;
  /** Resolvers of idle workers; enqueue() calls one, close() all. */
  private readonly sleepers = new Set<() => void>();
  /** By task id: the tasks this queue's workers run are all the STARTED ones. */
  private readonly running = new Map<string, AbortController>();
  private closing = false;
  private closed: Promise<void> | undefined;

  constructor(
    private readonly db: Database,
    private readonly settings: Settings,
  ) {
    const statements = {
      insertTask: db.prepare(
        `INSERT INTO tasks (id, state, progress, attempts, created_at, run_after)
         VALUES (?, 'PENDING', 0, 0, ?, ?) RETURNING *`,
      ),
      insertPayload: db.prepare("INSERT INTO payloads (task_id, data) VALUES (?, ?)"),
      insertEntry: db.prepare("INSERT INTO history (task_id, owner, bytes, summary) VALUES (@id, @owner, @bytes, @summary)"),
      get: db.prepare("SELECT * FROM tasks WHERE id = ?"),
      claim: db.prepare(
        `UPDATE tasks SET state = 'STARTED', attempts = attempts + 1, started_at = @now, progress = 0
         WHERE id = (SELECT id FROM tasks WHERE state = 'PENDING' AND run_after <= @now ORDER BY created_at, rowid LIMIT 1)
         RETURNING *`,
      ),
      payload: db.prepare("SELECT data FROM payloads WHERE task_id = ?").pluck(),
      deletePayload: db.prepare("DELETE FROM payloads WHERE task_id = ?"),
      progress: db.prepare("UPDATE tasks SET progress = ? WHERE id = ? AND state = 'STARTED'"),
      // A run's outcome is written only while its task is STARTED: one revoked meanwhile stays REVOKED.
      succeed: db.prepare("UPDATE tasks SET state = 'SUCCESS', progress = 100, result = ?, finished_at = ? WHERE id = ? AND state = 'STARTED'"),
      fail: db.prepare("UPDATE tasks SET state = 'FAILURE', error = ?, finished_at = ? WHERE id = ? AND state = 'STARTED'"),
      requeue: db.prepare("UPDATE tasks SET state = 'PENDING', progress = 0, attempts = attempts - ?, run_after = ? WHERE id = ? AND state = 'STARTED'"),
      revoke: db.prepare(
        `UPDATE tasks SET state = 'REVOKED', progress = 0, finished_at = ?
         WHERE id = ? AND state IN ('PENDING', 'STARTED') RETURNING *`,
      ),
      waiting: db.prepare(
        `SELECT tasks.*, data AS payload FROM tasks JOIN payloads ON task_id = id
         WHERE state = 'PENDING' ORDER BY created_at, tasks.rowid`,
      ),
      pendingCount: db.prepare("SELECT count(*) FROM tasks WHERE state = 'PENDING'").pluck(),
      started: db.prepare(
        `SELECT tasks.*, data AS payload FROM tasks JOIN payloads ON task_id = id
         WHERE id IN (SELECT value FROM json_each(?)) AND state = 'STARTED' ORDER BY started_at, tasks.rowid`,
      ),
      pruneEntries: db.prepare("DELETE FROM history WHERE task_id IN (SELECT id FROM tasks WHERE state IN ('SUCCESS', 'FAILURE', 'REVOKED') AND finished_at < ?)"),
      prune: db.prepare("DELETE FROM tasks WHERE state IN ('SUCCESS', 'FAILURE', 'REVOKED') AND finished_at < ?"),
      entryPlace: db.prepare("SELECT rowid FROM history WHERE task_id = ?").pluck(),
      // Newest first from a place in the history: everyone's, or one owner's (through its index).
      history: db.prepare(
        `SELECT tasks.*, owner, bytes, summary FROM history JOIN tasks ON id = task_id
         WHERE history.rowid < ? ORDER BY history.rowid DESC`,
      ),
      ownerHistory: db.prepare(
        `SELECT tasks.*, owner, bytes, summary FROM history JOIN tasks ON id = task_id
         WHERE owner = ? AND history.rowid < ? ORDER BY history.rowid DESC`,
      ),
    };
    this.statements = statements;
    this.insert = db.transaction((id: string, payload: Buffer, now: string, entry: StoredEntry | undefined) => {
      statements.insertPayload.run(id, payload);
      if (entry) statements.insertEntry.run({ id, ...entry });
      return statements.insertTask.get(id, now, now) as TaskRow;
    });
    this.claim = db.transaction((now: string) => {
      const row = statements.claim.get({ now }) as TaskRow | undefined;
      return row && { row, payload: statements.payload.get(row.id) as Buffer };
    });
    // The payload goes first: the pages it frees make room for the outcome on a full disk.
    this.finish = db.transaction((id: string, write: () => void) => {
      statements.deletePayload.run(id);
      write();
    });
    // As in finish; a task that had ended has no payload left to delete.
    this.revokeRow = db.transaction((id: string, now: string) => {
      statements.deletePayload.run(id);
      return statements.revoke.get(now, id) as TaskRow | undefined;
    });
    this.pruneRows = db.transaction((before: string) => {
      statements.pruneEntries.run(before);
      return statements.prune.run(before).changes;
    });
  }

  async enqueue(payload: P, entry?: HistoryEntry<S>): Promise<Task<R>> {
    const packed = deflateRawSync(JSON.stringify(payload), DEFLATE);
    let row: TaskRow;
    try {
      row = this.insert(randomUUID(), packed, this.settings.now().toISOString(), entry && storedEntry(entry));
    } catch (error) {
      if ((error as { code?: unknown }).code === "SQLITE_FULL") throw new QueueFull("the disk of the task queue is full", { cause: error });
      throw error;
    }
    this.sleepers.values().next().value?.();
    return toTask(row);
  }

  async get(id: string): Promise<Task<R> | null> {
    const row = this.statements.get.get(id) as TaskRow | undefined;
    return row ? toTask(row) : null;
  }

  async revoke(id: string): Promise<Task<R> | null> {
    const row = this.revokeRow(id, this.settings.now().toISOString());
    if (!row) return this.get(id);
    // Its run ends as one stopped by close(), whose requeue finds the task no longer STARTED.
    this.running.get(id)?.abort(new Error("the task was revoked"));
    return toTask(row);
  }

  async waiting(): Promise<Array<Task<R> & { payload: P }>> {
    return (this.statements.waiting.all() as RowWithPayload[]).map((row) => ({ ...toTask<R>(row), payload: unpack<P>(row.payload) }));
  }

  async pendingCount(): Promise<number> {
    return this.statements.pendingCount.get() as number;
  }

  async active(): Promise<Array<Task<R> & { payload: P; worker: string }>> {
    const rows = this.statements.started.all(JSON.stringify([...this.running.keys()])) as RowWithPayload[];
    return rows.map((row) => ({ ...toTask<R>(row), payload: unpack<P>(row.payload), worker: this.workerName! }));
  }

  async workers(): Promise<string[]> {
    return this.workerName === undefined || this.closing ? [] : [this.workerName];
  }

  work(handler: TaskHandler<P, R>, options: WorkOptions): void {
    if (this.workLoops) throw new Error("work() was already called on this task queue");
    if (!Number.isInteger(options.concurrency) || options.concurrency < 1) {
      throw new RangeError(`concurrency must be a positive integer, not ${options.concurrency}`);
    }
    this.workerName = newWorkerName();
    this.workLoops = Array.from({ length: options.concurrency }, () => this.workLoop(handler));
  }

  private async workLoop(handler: TaskHandler<P, R>): Promise<void> {
    while (!this.closing) {
      let claimed: Claimed | undefined;
      try {
        claimed = this.claim(this.settings.now().toISOString());
      } catch (error) {
        // A full disk, say: the task stays PENDING, and this worker tries again after a pause.
        this.settings.onError(error);
      }
      if (claimed) await this.run(claimed, handler);
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

  private async run({ row, payload }: Claimed, handler: TaskHandler<P, R>): Promise<void> {
    const controller = new AbortController();
    const progress = throttledProgress((percent) => this.survive(() => this.statements.progress.run(percent, row.id)));
    this.running.set(row.id, controller);
    const context: TaskContext = { id: row.id, attempt: row.attempts, progress: progress.report, signal: controller.signal };
    let outcome: { result: string | null } | { error: unknown };
    try {
      const input = unpack<P>(payload);
      // Serialised here so that a result JSON cannot hold counts as the run's failure.
      outcome = { result: JSON.stringify(await handler(input, context)) ?? null };
    } catch (error) {
      outcome = { error };
    } finally {
      progress.stop();
      this.running.delete(row.id);
    }
    const now = this.settings.now();
    if (controller.signal.aborted) {
      // Stopped by close(): not the task's fault, so the attempt does not count. Should this
      // write fail, the task stays STARTED and runs again at the next start all the same.
      // Stopped by revoke(): the task is REVOKED already, and stays so.
      this.survive(() => this.statements.requeue.run(1, now.toISOString(), row.id));
      return;
    }
    try {
      this.record(row, outcome, now);
    } catch (error) {
      // The outcome could not be recorded (a full disk): the failure to record it is the outcome.
      // Should even that fail, the task stays STARTED and runs again at the next start.
      this.settings.onError(error);
      const reason = (error as { code?: unknown }).code === "SQLITE_FULL" ? "the disk of the task queue is full" : errorLine(error);
      this.survive(() => this.finish(row.id, () => this.statements.fail.run(reason, now.toISOString(), row.id)));
    }
  }

  private record(row: TaskRow, outcome: { result: string | null } | { error: unknown }, now: Date): void {
    if ("result" in outcome) {
      this.finish(row.id, () => this.statements.succeed.run(outcome.result, now.toISOString(), row.id));
    } else if (outcome.error instanceof PermanentTaskError || row.attempts >= this.settings.maxAttempts) {
      this.finish(row.id, () => this.statements.fail.run(errorLine(outcome.error), now.toISOString(), row.id));
    } else {
      const retryAt = new Date(now.getTime() + this.settings.retryDelayMs * 2 ** (row.attempts - 1));
      this.statements.requeue.run(0, retryAt.toISOString(), row.id);
    }
  }

  /** Runs a write whose failure the queue outlives, telling onError. */
  private survive(write: () => unknown): void {
    try {
      write();
    } catch (error) {
      this.settings.onError(error);
    }
  }

  async history({ limit, before, owner, maxBytes }: HistoryQuery): Promise<HistoryPage<R, S> | null> {
    let place = Number.MAX_SAFE_INTEGER;
    if (before !== undefined) {
      const found = this.statements.entryPlace.get(before) as number | undefined;
      if (found === undefined) return null;
      place = found;
    }
    const rows = (owner === undefined ? this.statements.history.iterate(place) : this.statements.ownerHistory.iterate(owner, place)) as IterableIterator<RowWithEntry>;
    const tasks: HistoryPage<R, S>["tasks"] = [];
    let bytes = 0;
    // Row by row, so that the summaries past the page are never inflated.
    for (const row of rows) {
      bytes += row.bytes;
      if (tasks.length === limit || (tasks.length > 0 && bytes > maxBytes)) {
        rows.return?.();
        return { tasks, more: true };
      }
      tasks.push({ ...toTask<R>(row), summary: unpack<S>(row.summary), owner: row.owner });
    }
    return { tasks, more: false };
  }

  async prune(before: Date): Promise<number> {
    const changes = this.pruneRows(before.toISOString());
    // Hands the freed pages back to the file system: the file shrinks after a burst of tasks.
    this.db.exec("PRAGMA incremental_vacuum");
    return changes;
  }

  close(): Promise<void> {
    this.closed ??= (async () => {
      this.closing = true;
      for (const controller of this.running.values()) controller.abort(new Error("the task queue is closing"));
      for (const wake of [...this.sleepers]) wake();
      await Promise.all(this.workLoops ?? []);
      this.db.close();
    })();
    return this.closed;
  }
}
