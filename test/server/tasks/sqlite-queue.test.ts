import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import Database from "better-sqlite3";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { PermanentTaskError, QueueFull } from "../../../src/server/tasks/queue.js";
import type { Task, TaskQueue } from "../../../src/server/tasks/queue.js";
import { openSqliteTaskQueue } from "../../../src/server/tasks/sqlite-queue.js";
import type { SqliteQueueOptions } from "../../../src/server/tasks/sqlite-queue.js";
import { deferred, until } from "./contract/wait.js";

const directory = mkdtempSync(join(tmpdir(), "basemodel-queue-"));
afterAll(() => rmSync(directory, { recursive: true, force: true }));
let counter = 0;
const freshPath = (): string => join(directory, `queue-${++counter}.db`);

/** Every queue a test opens, closed after it even when an assertion failed half-way. */
const opened: Array<TaskQueue<unknown, unknown>> = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((queue) => queue.close()));
});

async function open<P = string, R = string, S = unknown>(path: string, options?: SqliteQueueOptions): Promise<TaskQueue<P, R, S>> {
  const queue = await openSqliteTaskQueue<P, R, S>(path, options);
  opened.push(queue as TaskQueue<unknown, unknown>);
  return queue;
}

/** A queue file written behind the queue's back, as a crashed process would have left it. */
function tamper(path: string, sql: string, ...parameters: unknown[]): void {
  const db = new Database(path);
  db.prepare(sql).run(...parameters);
  db.close();
}

// What every queue does is tested in contract/; here, what is the SQLite queue's own.
describe("the SQLite task queue", () => {
  it("wakes an idle worker on enqueue, without waiting for its next poll", async () => {
    // A poll far beyond the test's length: only enqueue() waking the idle worker can start the task.
    const queue = await open<string, string>(freshPath(), { pollMs: 600_000 });
    queue.work(async (payload) => `${payload} done`, { concurrency: 1 });
    // Enqueued once the worker has found nothing and sleeps.
    await new Promise((resolve) => setTimeout(resolve, 50));
    const task = await queue.enqueue("export");
    expect(await until(queue, task.id, (t) => t.state === "SUCCESS")).toMatchObject({ result: "export done", attempts: 1 });
  });
  it("retries a failing task after a doubling delay until it succeeds", async () => {
    let clock = Date.parse("2025-06-01T12:00:00.000Z");
    const queue = await open(freshPath(), { retryDelayMs: 1000, pollMs: 10, now: () => new Date(clock) });
    const attemptsSeen: number[] = [];
    queue.work(async (payload, { attempt }) => {
      if (payload !== "flaky") return "other done";
      attemptsSeen.push(attempt);
      if (attempt < 3) throw new Error(`flaky failure ${attempt}`);
      return "flaky done";
    }, { concurrency: 1 });
    const flaky = await queue.enqueue("flaky");
    const start = clock;

    expect(await until(queue, flaky.id, (t) => t.attempts === 1 && t.state === "PENDING")).toMatchObject({ error: null, progress: 0 });
    // Not due before its first delay: a newer task enqueued now runs first.
    clock = start + 999;
    const other = await queue.enqueue("other");
    await until(queue, other.id, (t) => t.state === "SUCCESS");
    expect(await queue.get(flaky.id)).toMatchObject({ state: "PENDING", attempts: 1 });

    clock = start + 1000;
    await until(queue, flaky.id, (t) => t.attempts === 2 && t.state === "PENDING");
    // The second failure happened at start + 1000 and waits twice as long.
    clock = start + 2999;
    const another = await queue.enqueue("other");
    await until(queue, another.id, (t) => t.state === "SUCCESS");
    expect(await queue.get(flaky.id)).toMatchObject({ state: "PENDING", attempts: 2 });

    clock = start + 3000;
    expect(await until(queue, flaky.id, (t) => t.state === "SUCCESS")).toMatchObject({ attempts: 3, result: "flaky done", error: null });
    expect(attemptsSeen).toEqual([1, 2, 3]);
  });

  it("runs again the tasks a dead process left STARTED, unless they have no attempt left", async () => {
    const path = freshPath();
    const first = await open(path, { maxAttempts: 3 });
    const interrupted = await first.enqueue("interrupted");
    const exhausted = await first.enqueue("exhausted");
    await first.close();
    tamper(path, "UPDATE tasks SET state = 'STARTED', attempts = 1, progress = 50, started_at = created_at WHERE id = ?", interrupted.id);
    tamper(path, "UPDATE tasks SET state = 'STARTED', attempts = 3, progress = 50, started_at = created_at WHERE id = ?", exhausted.id);

    const queue = await open(path, { maxAttempts: 3 });
    expect(await queue.get(interrupted.id)).toMatchObject({ state: "PENDING", attempts: 1, progress: 0 });
    const failed = await queue.get(exhausted.id);
    expect(failed).toMatchObject({ state: "FAILURE", attempts: 3, error: "the server stopped while running this task 3 times" });
    expect(failed!.finishedAt).not.toBeNull();

    const attempts: number[] = [];
    queue.work(async (payload, { attempt }) => {
      attempts.push(attempt);
      return `${payload} done`;
    }, { concurrency: 1 });
    expect(await until(queue, interrupted.id, (t) => t.state === "SUCCESS")).toMatchObject({ attempts: 2, result: "interrupted done" });
    expect(attempts).toEqual([2]);
  });

  it("is owned by one process: a second opener fails while the first has it open", async () => {
    const path = freshPath();
    await (await open(path)).close();
    const queue = await open(path); // an existing file, where nothing but the lock needs writing
    await expect(openSqliteTaskQueue(path)).rejects.toThrow(`task queue ${path} is in use by another process`);

    // The lock is the operating system's too, not only SQLite's bookkeeping inside this process.
    const script = `
      import Database from "better-sqlite3";
      try { new Database(process.argv[1], { timeout: 0 }).prepare("SELECT count(*) FROM tasks").get(); console.log("read"); }
      catch (error) { console.log(error.code); }`;
    const { stdout } = await promisify(execFile)(process.execPath, ["--input-type=module", "-e", script, path], { cwd: process.cwd() });
    expect(stdout.trim()).toBe("SQLITE_BUSY");

    await queue.close();
    await expect(open(path)).resolves.toBeDefined();
  });

  it("refuses files that are not task queues and leaves them unchanged", async () => {
    const text = join(directory, "notes.txt");
    writeFileSync(text, "not a database\n".repeat(100));
    await expect(openSqliteTaskQueue(text)).rejects.toThrow(`${text} is not a task queue of schema version 3`);
    expect(readFileSync(text, "utf8")).toBe("not a database\n".repeat(100));

    const other = join(directory, "other.db");
    const db = new Database(other);
    db.exec("CREATE TABLE notes (body TEXT); INSERT INTO notes VALUES ('keep me')");
    db.close();
    const before = readFileSync(other);
    await expect(openSqliteTaskQueue(other)).rejects.toThrow(`${other} is not a task queue of schema version 3`);
    expect(readFileSync(other).equals(before)).toBe(true);
  });

  it("prunes the tasks that finished before a time, SUCCESS and FAILURE; the others stay", async () => {
    let clock = Date.parse("2025-06-01T00:00:00.000Z");
    const queue = await open<string, string>(freshPath(), { now: () => new Date(clock) });
    const release = deferred();
    queue.work(async (payload) => {
      if (payload === "broken") throw new PermanentTaskError("broken");
      if (payload === "running") await release.promise;
      return `${payload} done`;
    }, { concurrency: 1 });
    const runAt = async (time: string, payload: string): Promise<Task<string>> => {
      clock = Date.parse(time);
      const task = await queue.enqueue(payload);
      return until(queue, task.id, (t) => t.state === "SUCCESS" || t.state === "FAILURE");
    };
    const early = await runAt("2025-06-01T01:00:00.000Z", "early");
    const broken = await runAt("2025-06-01T01:30:00.000Z", "broken");
    const late = await runAt("2025-06-01T03:00:00.000Z", "late");
    const running = await queue.enqueue("running");
    await until(queue, running.id, (t) => t.state === "STARTED");
    const pending = await queue.enqueue("pending");

    expect(await queue.prune(new Date("2025-06-01T01:00:00.000Z"))).toBe(0);
    expect(await queue.prune(new Date("2025-06-01T02:30:00.000Z"))).toBe(2);
    expect(await queue.get(early.id)).toBeNull();
    expect(await queue.get(broken.id)).toBeNull();
    expect(await queue.get(late.id)).toMatchObject({ state: "SUCCESS", result: "late done" });
    // Unfinished tasks are never pruned, however old.
    expect(await queue.prune(new Date("2026-01-01T00:00:00.000Z"))).toBe(1);
    expect(await queue.get(running.id)).toMatchObject({ state: "STARTED" });
    expect(await queue.get(pending.id)).toMatchObject({ state: "PENDING" });
    release.resolve();
    expect(await until(queue, pending.id, (t) => t.state === "SUCCESS")).toMatchObject({ result: "pending done" });
  });

  it("keeps a payload, deflated, only until its task finishes, and pruning gives the space back", async () => {
    const path = freshPath();
    // A polygon of 24,000 vertices, as a request body near the 1 MB limit holds.
    const ring = Array.from({ length: 24_000 }, (_, i) => [7.425 + 0.005 * Math.cos(i / 3820), 43.735 + 0.004 * Math.sin(i / 3820)]);
    const payload = { geometry: { type: "Polygon", coordinates: [ring] } };
    expect(JSON.stringify(payload).length).toBeGreaterThan(800_000);
    const queued = await open<typeof payload, number>(path);
    const tasks = await Promise.all(Array.from({ length: 12 }, () => queued.enqueue(payload)));
    await queued.close();
    const stored = (): number => ["", "-wal"].reduce((sum, suffix) => sum + (existsSync(path + suffix) ? statSync(path + suffix).size : 0), 0);
    // Deflated: less than half of the JSON text each.
    expect(stored()).toBeLessThan(12 * 400_000);

    const queue = await open<typeof payload, number>(path);
    queue.work(async ({ geometry }) => geometry.coordinates[0]!.length, { concurrency: 2 });
    for (const task of tasks) expect(await until(queue, task.id, (t) => t.state === "SUCCESS")).toMatchObject({ result: 24_000 });
    await queue.prune(new Date(0));
    await queue.close();
    // Closed: the WAL is folded in and removed; what is left is twelve small rows.
    expect(stored()).toBeLessThan(100_000);
    const db = new Database(path, { readonly: true });
    expect(db.prepare("SELECT count(*) FROM payloads").pluck().get()).toBe(0);
    expect(db.prepare("SELECT count(*) FROM tasks").pluck().get()).toBe(12);
    db.close();
  });

  it("deletes a revoked task's payload at once, and keeps it REVOKED whatever its handler returns", async () => {
    const path = freshPath();
    const queue = await open<string, string>(path);
    queue.work(async (payload, { signal }) => {
      // A handler that, once aborted, returns as if it had succeeded.
      await new Promise((resolve) => signal.addEventListener("abort", resolve));
      return `${payload} done`;
    }, { concurrency: 1 });
    const running = await queue.enqueue("running");
    await until(queue, running.id, (t) => t.state === "STARTED");
    const pending = await queue.enqueue("pending");
    const kept = await queue.enqueue("kept");

    await queue.revoke(pending.id);
    const revoked = await queue.revoke(running.id);
    await until(queue, kept.id, (t) => t.state === "STARTED");
    expect(await queue.get(running.id)).toEqual(revoked);
    expect(await queue.get(pending.id)).toMatchObject({ state: "REVOKED", attempts: 0 });
    await queue.close();
    const db = new Database(path, { readonly: true });
    expect(db.prepare("SELECT task_id FROM payloads").pluck().all()).toEqual([kept.id]);
    db.close();
  });

  it("outlives a full disk: a task whose outcome cannot be written fails in one line, the workers go on", async () => {
    const errors: unknown[] = [];
    // A real SQLITE_FULL from a real file: max_page_count stops it growing, as a full disk would.
    const queue = await open<string, string>(freshPath(), { maxFileBytes: 64 * 1024, retryDelayMs: 5, pollMs: 5, onError: (error) => errors.push(error) });
    queue.work(async (payload) => (payload === "large" ? "x".repeat(200_000) : `${payload} done`), { concurrency: 1 });

    const large = await queue.enqueue("large");
    expect(await until(queue, large.id, (t) => t.state === "FAILURE")).toMatchObject({ error: "the disk of the task queue is full", result: null, attempts: 1 });
    expect(errors).toEqual([expect.objectContaining({ code: "SQLITE_FULL" })]);

    // A request too large for the space left is refused as the queue being full, and the queue goes on.
    const refused = queue.enqueue(randomBytes(300_000).toString("base64"));
    await expect(refused).rejects.toBeInstanceOf(QueueFull);
    await expect(refused).rejects.toMatchObject({ message: "the disk of the task queue is full", cause: expect.objectContaining({ code: "SQLITE_FULL" }) });
    const small = await queue.enqueue("small");
    expect(await until(queue, small.id, (t) => t.state === "SUCCESS")).toMatchObject({ result: "small done" });
  });

  it("calls onOwned once the file is locked and before anything is written to it", async () => {
    const path = freshPath();
    const first = await open(path);
    const task = await first.enqueue("interrupted");
    await first.close();
    tamper(path, "UPDATE tasks SET state = 'STARTED', attempts = 3 WHERE id = ?", task.id);
    const before = readFileSync(path);

    let seen: { bytes: Buffer; secondOpener: unknown } | undefined;
    const queue = await open(path, {
      onOwned: async () => {
        seen = { bytes: readFileSync(path), secondOpener: await openSqliteTaskQueue(path).catch((error: Error) => error.message) };
      },
    });
    expect(seen!.secondOpener).toBe(`task queue ${path} is in use by another process`);
    expect(seen!.bytes.equals(before)).toBe(true);
    expect(await queue.get(task.id)).toMatchObject({ state: "FAILURE" });
  });

  it("upgrades a queue of schema version 1, whose rows held their payloads: unfinished tasks keep theirs", async () => {
    const path = freshPath();
    const v1 = new Database(path);
    v1.pragma("journal_mode = WAL");
    v1.exec(`
      CREATE TABLE tasks (id TEXT PRIMARY KEY, state TEXT NOT NULL, progress INTEGER NOT NULL, payload TEXT NOT NULL, result TEXT, error TEXT,
        attempts INTEGER NOT NULL, created_at TEXT NOT NULL, started_at TEXT, finished_at TEXT, run_after TEXT NOT NULL);
      CREATE INDEX tasks_pending ON tasks (created_at) WHERE state = 'PENDING';
      PRAGMA user_version = 1;`);
    const insert = v1.prepare("INSERT INTO tasks VALUES (?, ?, ?, ?, ?, NULL, ?, '2025-06-01T00:00:00.000Z', NULL, ?, '2025-06-01T00:00:00.000Z')");
    insert.run("00000000-0000-4000-8000-000000000001", "SUCCESS", 100, JSON.stringify("x".repeat(100_000)), JSON.stringify("done"), 1, "2025-06-01T00:01:00.000Z");
    insert.run("00000000-0000-4000-8000-000000000002", "PENDING", 0, JSON.stringify("waiting"), null, 0, null);
    v1.close();

    const queue = await open<string, string>(path);
    expect(await queue.get("00000000-0000-4000-8000-000000000001")).toMatchObject({ state: "SUCCESS", result: "done" });
    queue.work(async (payload) => `${payload} ran`, { concurrency: 1 });
    expect(await until(queue, "00000000-0000-4000-8000-000000000002", (t) => t.state === "SUCCESS")).toMatchObject({ result: "waiting ran" });
    await queue.close();
    // The finished task's payload is gone, and its pages with it.
    expect(statSync(path).size).toBeLessThan(50_000);
    const upgraded = new Database(path, { readonly: true });
    expect(upgraded.pragma("user_version", { simple: true })).toBe(3);
    upgraded.close();
  });

  it("upgrades a queue of schema version 2, which kept no history: its tasks stay, out of the history, and new ones are in it", async () => {
    const path = freshPath();
    const v2 = await open<string, string>(path);
    const old = await v2.enqueue("old");
    await v2.close();
    tamper(path, "DROP TABLE history");
    tamper(path, "PRAGMA user_version = 2");

    const queue = await open<string, string, string>(path);
    const fresh = await queue.enqueue("new", { summary: "new", owner: null });
    expect(await queue.history({ limit: 10, maxBytes: 1000 })).toEqual({ tasks: [{ ...fresh, summary: "new", owner: null }], more: false });
    queue.work(async (payload) => `${payload} ran`, { concurrency: 1 });
    expect(await until(queue, old.id, (t) => t.state === "SUCCESS")).toMatchObject({ result: "old ran" });
  });

  it("keeps a history entry deflated, as long as its task", async () => {
    const path = freshPath();
    const ring = Array.from({ length: 24_000 }, (_, i) => [7.425 + 0.005 * Math.cos(i / 3820), 43.735 + 0.004 * Math.sin(i / 3820)]);
    const summary = { geometry: { type: "Polygon", coordinates: [ring] } };
    const queue = await open<string, number, typeof summary>(path);
    queue.work(async (payload) => payload.length, { concurrency: 1 });
    const task = await queue.enqueue("export", { summary, owner: "7" });
    await until(queue, task.id, (t) => t.state === "SUCCESS");
    expect((await queue.history({ limit: 1, maxBytes: 1 }))!.tasks[0]!.summary).toEqual(summary);
    await queue.close();
    const db = new Database(path, { readonly: true });
    const row = db.prepare("SELECT bytes, length(summary) AS stored FROM history").get() as { bytes: number; stored: number };
    expect(row.bytes).toBe(Buffer.byteLength(JSON.stringify(summary)));
    expect(row.stored).toBeLessThan(row.bytes / 2);
    db.close();
  });
});
