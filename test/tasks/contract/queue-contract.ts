/**
 * The task queue contract (src/tasks/queue.ts) as tests, run against every queue: what the
 * export routes and workers rely on, whichever queue holds the tasks.
 */
import { afterEach, describe, expect, it } from "vitest";
import { PermanentTaskError } from "../../../src/tasks/queue.js";
import type { Task, TaskContext, TaskQueue } from "../../../src/tasks/queue.js";
import { deferred, eventually, until } from "./wait.js";

export interface QueueSettings {
  maxAttempts?: number;
  retryDelayMs?: number;
}

/** A queue's storage: open() opens it, again after close() to see what the last queue left. */
export interface QueuePlace {
  open<P, R>(): Promise<TaskQueue<P, R>>;
}

/** Makes a fresh, empty place for a queue with these settings. */
export type NewPlace = (settings?: QueueSettings) => QueuePlace;

/** For handlers that wait on the test: a failed assertion must not leave close() waiting for them. */
const aborted = (signal: AbortSignal) => new Promise((resolve) => signal.addEventListener("abort", resolve));

export function describeQueueContract(name: string, newPlace: () => NewPlace | undefined): void {
  const place = newPlace();
  describe.skipIf(place === undefined)(`the task queue contract: ${name}`, () => {
    /** Every queue a test opens, closed after it even when an assertion failed half-way. */
    const opened: Array<TaskQueue<unknown, unknown>> = [];
    afterEach(async () => {
      await Promise.all(opened.splice(0).map((queue) => queue.close()));
    });
    const open = async <P = string, R = string>(where: QueuePlace): Promise<TaskQueue<P, R>> => {
      const queue = await where.open<P, R>();
      opened.push(queue as TaskQueue<unknown, unknown>);
      return queue;
    };
    const fresh = (settings?: QueueSettings) => place!(settings);

    it("records tasks as PENDING and finds them by id; the payload reaches the handler; another opener sees them", async () => {
      const where = fresh();
      const queue = await open<{ area: number[] }, number[]>(where);
      const task = await queue.enqueue({ area: [1, 2, 3] });
      expect(task).toMatchObject({ state: "PENDING", progress: 0, result: null, error: null, attempts: 0, startedAt: null, finishedAt: null });
      expect(task.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[0-9a-f]{4}-[0-9a-f]{12}$/);
      expect(new Date(task.createdAt).toISOString()).toBe(task.createdAt);
      expect(await queue.get(task.id)).toEqual(task);
      expect(await queue.get("00000000-0000-4000-8000-000000000000")).toBeNull();
      await queue.close();

      const reopened = await open<{ area: number[] }, number[]>(where);
      expect(await reopened.get(task.id)).toEqual(task);
      reopened.work(async ({ area }) => area.map((n) => n * 2), { concurrency: 1 });
      const done = await until(reopened, task.id, (t) => t.state === "SUCCESS");
      expect(done).toMatchObject({ result: [2, 4, 6], progress: 100, attempts: 1, error: null });
      expect(done.startedAt! <= done.finishedAt!).toBe(true);
    });

    it("shows progress while a task runs, clamped to 0-100, and 100 on SUCCESS", async () => {
      const queue = await open<string, { files: string[] }>(fresh());
      const release = deferred();
      let context: TaskContext | undefined;
      queue.work(async (payload, ctx) => {
        context = ctx;
        // A burst: the last value is written when the throttle allows.
        ctx.progress(-5);
        ctx.progress(12);
        ctx.progress(42.6);
        await release.promise;
        return { files: [`${payload}.zip`] };
      }, { concurrency: 1 });
      const task = await queue.enqueue("export");

      const running = await until(queue, task.id, (t) => t.progress === 43);
      expect(running).toMatchObject({ state: "STARTED", attempts: 1, result: null, finishedAt: null });
      expect(running.startedAt).not.toBeNull();
      expect(context).toMatchObject({ id: task.id, attempt: 1 });
      expect(context!.signal.aborted).toBe(false);
      context!.progress(250);
      expect(await until(queue, task.id, (t) => t.progress === 100)).toMatchObject({ state: "STARTED" });

      release.resolve();
      expect(await until(queue, task.id, (t) => t.state === "SUCCESS")).toMatchObject({ progress: 100, result: { files: ["export.zip"] } });
      // A handler's stray callback after the end changes nothing and does not throw.
      expect(() => context!.progress(10)).not.toThrow();
      expect((await queue.get(task.id))!.progress).toBe(100);
    });

    it("runs at most `concurrency` tasks at once, oldest first", async () => {
      const queue = await open(fresh());
      const waiting: Array<() => void> = [];
      let running = 0;
      let mostRunning = 0;
      queue.work(async (payload) => {
        mostRunning = Math.max(mostRunning, ++running);
        const release = deferred();
        waiting.push(release.resolve);
        await release.promise;
        running--;
        return payload;
      }, { concurrency: 3 });
      const tasks: Array<Task<string>> = [];
      for (const payload of ["a", "b", "c", "d", "e", "f"]) tasks.push(await queue.enqueue(payload));
      const states = async (): Promise<string[]> => Promise.all(tasks.map(async (task) => (await queue.get(task.id))!.state));

      await eventually(states, (all) => all.filter((state) => state === "STARTED").length === 3);
      expect(await states()).toEqual(["STARTED", "STARTED", "STARTED", "PENDING", "PENDING", "PENDING"]);
      for (let released = 0; released < tasks.length; released++) {
        await eventually(() => Promise.resolve(waiting.length), (count) => count > released);
        waiting[released]!();
      }
      await eventually(states, (all) => all.every((state) => state === "SUCCESS"));
      expect(mostRunning).toBe(3);
    });

    it("retries a failing task, the new run's progress starting from 0, until it succeeds", async () => {
      const queue = await open(fresh({ maxAttempts: 3, retryDelayMs: 50 }));
      const attemptsSeen: number[] = [];
      const second = deferred();
      queue.work(async (_payload, { attempt, progress, signal }) => {
        attemptsSeen.push(attempt);
        if (attempt === 1) {
          progress(80);
          // Long enough for the throttled write to land before the failure.
          await new Promise((resolve) => setTimeout(resolve, 300));
          throw new Error("flaky failure");
        }
        if (attempt === 2) await Promise.race([second.promise, aborted(signal)]);
        return `done on ${attempt}`;
      }, { concurrency: 1 });
      const task = await queue.enqueue("flaky");

      const rerun = await until(queue, task.id, (t) => t.state === "STARTED" && t.attempts === 2);
      expect(rerun).toMatchObject({ progress: 0, error: null });
      second.resolve();
      expect(await until(queue, task.id, (t) => t.state === "SUCCESS")).toMatchObject({ attempts: 2, result: "done on 2", error: null });
      expect(attemptsSeen).toEqual([1, 2]);
    });

    it("fails a task for good after maxAttempts, or at once on a PermanentTaskError, with a one-line error of 300 characters at most", async () => {
      const queue = await open(fresh({ maxAttempts: 3, retryDelayMs: 10 }));
      queue.work(async (payload) => {
        if (payload === "permanent") throw new PermanentTaskError("the area is empty\nmore detail");
        if (payload === "long") throw new PermanentTaskError("x".repeat(1000));
        throw new Error("  disk full  \n    at writeFile (fs.js:1:1)\n    at run (task.js:2:2)");
      }, { concurrency: 2 });
      const always = await queue.enqueue("always");
      const permanent = await queue.enqueue("permanent");
      const long = await queue.enqueue("long");

      const exhausted = await until(queue, always.id, (t) => t.state === "FAILURE");
      expect(exhausted).toMatchObject({ attempts: 3, error: "disk full", result: null, progress: 0 });
      expect(exhausted.finishedAt).not.toBeNull();
      expect(await until(queue, permanent.id, (t) => t.state === "FAILURE")).toMatchObject({ attempts: 1, error: "the area is empty" });
      expect((await until(queue, long.id, (t) => t.state === "FAILURE")).error).toBe("x".repeat(300));
    });

    it("on close() aborts running handlers and gives their tasks back without using up an attempt", async () => {
      const where = fresh();
      const queue = await open(where);
      const started = deferred<AbortSignal>();
      let handlerSettled = false;
      queue.work(async (_payload, { signal, progress }) => {
        progress(30);
        started.resolve(signal);
        try {
          await new Promise((_resolve, reject) => signal.addEventListener("abort", () => reject(signal.reason)));
        } finally {
          // Lets close() prove it waits for the handler rather than just for the abort.
          await new Promise((resolve) => setTimeout(resolve, 20));
          handlerSettled = true;
        }
        return "unreachable";
      }, { concurrency: 1 });
      const task = await queue.enqueue("long export");
      const signal = await started.promise;

      await queue.close();
      expect(signal.aborted).toBe(true);
      expect(handlerSettled).toBe(true);
      await queue.close(); // idempotent

      const reopened = await open(where);
      expect(await reopened.get(task.id)).toMatchObject({ state: "PENDING", attempts: 0, progress: 0 });
      reopened.work(async (payload, { attempt }) => `${payload} ${attempt}`, { concurrency: 1 });
      expect(await until(reopened, task.id, (t) => t.state === "SUCCESS")).toMatchObject({ attempts: 1, result: "long export 1" });
    });

    it("prunes the tasks that finished before a time, SUCCESS and FAILURE; unfinished ones stay", async () => {
      const queue = await open<string, string>(fresh());
      const release = deferred();
      queue.work(async (payload, { signal }) => {
        if (payload === "broken") throw new PermanentTaskError("broken");
        if (payload === "running") await Promise.race([release.promise, aborted(signal)]);
        return `${payload} done`;
      }, { concurrency: 1 });
      const finished = async (payload: string): Promise<Task<string>> => {
        const task = await queue.enqueue(payload);
        return until(queue, task.id, (t) => t.state === "SUCCESS" || t.state === "FAILURE");
      };
      const done = await finished("done");
      const broken = await finished("broken");
      const running = await queue.enqueue("running");
      await until(queue, running.id, (t) => t.state === "STARTED");
      const pending = await queue.enqueue("pending");

      const pruned = await queue.prune(new Date(Date.parse(done.finishedAt!) - 1));
      expect([pruned, await queue.get(done.id), await queue.get(broken.id)]).toEqual([0, done, broken]);
      expect(await queue.get(done.id)).toMatchObject({ state: "SUCCESS" });
      // Unfinished tasks are never pruned, however late the time.
      expect(await queue.prune(new Date(Date.now() + 60_000))).toBe(2);
      expect(await queue.get(done.id)).toBeNull();
      expect(await queue.get(broken.id)).toBeNull();
      expect(await queue.get(running.id)).toMatchObject({ state: "STARTED" });
      expect(await queue.get(pending.id)).toMatchObject({ state: "PENDING" });
      release.resolve();
      expect(await until(queue, pending.id, (t) => t.state === "SUCCESS")).toMatchObject({ result: "pending done" });
    });

    it("refuses a second work() call and a concurrency that is not a positive integer", async () => {
      const queue = await open(fresh());
      expect(() => queue.work(async () => "", { concurrency: 0 })).toThrow(RangeError);
      expect(() => queue.work(async () => "", { concurrency: 1.5 })).toThrow(RangeError);
      queue.work(async () => "", { concurrency: 1 });
      expect(() => queue.work(async () => "", { concurrency: 1 })).toThrow(/already/);
    });
  });
}
