/**
 * The task queue contract (src/server/tasks/queue.ts) as tests, run against every queue: what the
 * export routes and workers rely on, whichever queue holds the tasks.
 */
import { hostname } from "node:os";
import { afterEach, describe, expect, it } from "vitest";
import { PermanentTaskError } from "../../../../src/server/tasks/queue.js";
import type { HistoryQuery, Task, TaskContext, TaskQueue } from "../../../../src/server/tasks/queue.js";
import { deferred, eventually, until } from "./wait.js";

export interface QueueSettings {
  maxAttempts?: number;
  retryDelayMs?: number;
}

/** A queue's storage: open() opens it, again after close() to see what the last queue left. */
export interface QueuePlace {
  open<P, R, S = unknown>(): Promise<TaskQueue<P, R, S>>;
}

/** Makes a fresh, empty place for a queue with these settings. */
export type NewPlace = (settings?: QueueSettings) => QueuePlace;

/** For handlers that wait on the test: a failed assertion must not leave close() waiting for them. */
const aborted = (signal: AbortSignal) => new Promise((resolve) => signal.addEventListener("abort", resolve));

const UNKNOWN_ID = "00000000-0000-4000-8000-000000000000";

/**
 * `oneOpener`: the queue's storage opens in one process only (the SQLite file): other processes
 * reach it through that one (queue-ipc.ts, tested there), so what two openers share is not its to test.
 */
export function describeQueueContract(name: string, newPlace: () => NewPlace | undefined, { oneOpener = false } = {}): void {
  const place = newPlace();
  describe.skipIf(place === undefined)(`the task queue contract: ${name}`, () => {
    /** Every queue a test opens, closed after it even when an assertion failed half-way. */
    const opened: Array<TaskQueue<unknown, unknown>> = [];
    afterEach(async () => {
      await Promise.all(opened.splice(0).map((queue) => queue.close()));
    });
    const open = async <P = string, R = string, S = unknown>(where: QueuePlace): Promise<TaskQueue<P, R, S>> => {
      const queue = await where.open<P, R, S>();
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
      expect(await queue.get(UNKNOWN_ID)).toBeNull();
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

    it("revokes a PENDING task at once: it never runs, and the tasks after it do", async () => {
      const queue = await open(fresh());
      const doomed = await queue.enqueue("doomed");
      const revoked = await queue.revoke(doomed.id);
      expect(revoked).toMatchObject({ id: doomed.id, state: "REVOKED", progress: 0, result: null, error: null, attempts: 0, createdAt: doomed.createdAt, startedAt: null });
      expect(revoked!.finishedAt! >= doomed.createdAt).toBe(true);
      expect(await queue.get(doomed.id)).toEqual(revoked);

      const ran: string[] = [];
      queue.work(async (payload) => {
        ran.push(payload);
        return `${payload} done`;
      }, { concurrency: 1 });
      const after = await queue.enqueue("after");
      await until(queue, after.id, (t) => t.state === "SUCCESS");
      expect(ran).toEqual(["after"]);
      expect(await queue.get(doomed.id)).toEqual(revoked);
    });

    it("revokes a STARTED task: its handler is aborted, it ends REVOKED without a retry, and its worker runs the next task", async () => {
      const queue = await open(fresh({ maxAttempts: 3, retryDelayMs: 10 }));
      const started = deferred<AbortSignal>();
      const ran: string[] = [];
      queue.work(async (payload, { signal, progress }) => {
        ran.push(payload);
        if (payload !== "long") return `${payload} done`;
        progress(40);
        started.resolve(signal);
        // As a handler that stops on its signal does: by failing, which must not count as a failure.
        await aborted(signal);
        throw new Error("stopped");
      }, { concurrency: 1 });
      const long = await queue.enqueue("long");
      const next = await queue.enqueue("next");
      const signal = await started.promise;

      const revoked = await queue.revoke(long.id);
      expect(revoked).toMatchObject({ id: long.id, state: "REVOKED", progress: 0, result: null, error: null, attempts: 1 });
      expect(revoked!.startedAt).not.toBeNull();
      expect(revoked!.finishedAt! >= revoked!.startedAt!).toBe(true);
      await eventually(async () => signal.aborted, Boolean);
      expect(await until(queue, next.id, (t) => t.state === "SUCCESS")).toMatchObject({ result: "next done" });
      expect(await queue.get(long.id)).toEqual(revoked);
      expect(ran).toEqual(["long", "next"]);
    });

    it("revokes nothing for an unknown id, and returns a task that has ended unchanged", async () => {
      const queue = await open(fresh());
      expect(await queue.revoke(UNKNOWN_ID)).toBeNull();
      const revoked = await queue.revoke((await queue.enqueue("revoked")).id);
      expect(await queue.revoke(revoked!.id)).toEqual(revoked);

      queue.work(async (payload) => {
        if (payload === "broken") throw new PermanentTaskError("broken");
        return `${payload} done`;
      }, { concurrency: 1 });
      const done = await until(queue, (await queue.enqueue("done")).id, (t) => t.state === "SUCCESS");
      const broken = await until(queue, (await queue.enqueue("broken")).id, (t) => t.state === "FAILURE");
      expect(await queue.revoke(done.id)).toEqual(done);
      expect(await queue.revoke(broken.id)).toEqual(broken);
      expect(await queue.get(done.id)).toEqual(done);
      expect(await queue.get(broken.id)).toEqual(broken);
      expect(await queue.get(revoked!.id)).toEqual(revoked);
    });

    if (!oneOpener) {
      it("revokes from a second opener: the worker of the first aborts the task within about a second", async () => {
        const where = fresh();
        const queue = await open(where);
        const started = deferred<AbortSignal>();
        queue.work(async (payload, { signal }) => {
          if (payload !== "long") return `${payload} done`;
          started.resolve(signal);
          await aborted(signal);
          throw new Error("stopped");
        }, { concurrency: 1 });
        const other = await open(where);

        const long = await other.enqueue("long");
        const signal = await started.promise;
        const [name] = await queue.workers();
        expect(await other.workers()).toEqual([name]);
        expect(await other.active()).toEqual([{ ...(await other.get(long.id)), payload: "long", worker: name }]);
        expect(await other.revoke(long.id)).toMatchObject({ state: "REVOKED", attempts: 1 });
        expect(await queue.get(long.id)).toMatchObject({ state: "REVOKED", attempts: 1 });
        await eventually(async () => signal.aborted, Boolean, 3000);
        const next = await other.enqueue("next");
        expect(await until(queue, next.id, (t) => t.state === "SUCCESS")).toMatchObject({ result: "next done" });
        expect(await other.get(long.id)).toMatchObject({ state: "REVOKED", attempts: 1 });
        expect(await other.active()).toEqual([]);
      });
    }

    it("lists the PENDING tasks in the order they will run, with their payloads, without those revoked", async () => {
      const queue = await open<{ area: string }, string>(fresh());
      const tasks: Array<Task<string> & { payload: { area: string } }> = [];
      for (const area of ["a", "b", "c", "d"]) tasks.push({ ...(await queue.enqueue({ area })), payload: { area } });
      expect(await queue.waiting()).toEqual(tasks);
      expect(await queue.pendingCount()).toBe(4);
      await queue.revoke(tasks[1]!.id);
      expect(await queue.waiting()).toEqual([tasks[0], tasks[2], tasks[3]]);
      expect(await queue.pendingCount()).toBe(3);
      expect(await queue.active()).toEqual([]);

      const ran: string[] = [];
      queue.work(async ({ area }) => {
        ran.push(area);
        return area;
      }, { concurrency: 1 });
      await until(queue, tasks[3]!.id, (t) => t.state === "SUCCESS");
      expect(ran).toEqual(["a", "c", "d"]);
      expect(await queue.waiting()).toEqual([]);
      expect(await queue.pendingCount()).toBe(0);
    });

    it("lists the STARTED tasks, each with its payload and the name of the worker running it", async () => {
      const queue = await open(fresh());
      const release = deferred();
      queue.work(async (payload, { signal }) => {
        await Promise.race([release.promise, aborted(signal)]);
        return payload;
      }, { concurrency: 2 });
      const [a, b, c] = [await queue.enqueue("a"), await queue.enqueue("b"), await queue.enqueue("c")];
      await until(queue, a!.id, (t) => t.state === "STARTED");
      await until(queue, b!.id, (t) => t.state === "STARTED");

      const [name] = await eventually(() => queue.workers(), (names) => names.length === 1);
      const active = await queue.active();
      expect(active.map((task) => task.id).sort()).toEqual([a!.id, b!.id].sort());
      for (const task of active) expect(task).toEqual({ ...(await queue.get(task.id)), payload: task.id === a!.id ? "a" : "b", worker: name });
      expect(await queue.waiting()).toEqual([{ ...c, payload: "c" }]);
      release.resolve();
      await until(queue, c!.id, (t) => t.state === "SUCCESS");
      expect(await queue.active()).toEqual([]);
    });

    it("names the workers of a working queue, one name per queue, and forgets them after close()", async () => {
      const where = fresh();
      const queue = await open(where);
      expect(await queue.workers()).toEqual([]);
      queue.work(async (payload) => payload, { concurrency: 2 });
      const [name] = await eventually(() => queue.workers(), (names) => names.length === 1);
      const self = `basemodel@${hostname()}:${process.pid}`;
      expect(name!.startsWith(self)).toBe(true);
      expect(name!.slice(self.length)).toMatch(/^(#\d+)?$/);
      const another = await open(fresh());
      another.work(async (payload) => payload, { concurrency: 1 });
      const [otherName] = await eventually(() => another.workers(), (names) => names.length === 1);
      expect(otherName).not.toBe(name);

      await queue.close();
      expect(await (await open(where)).workers()).toEqual([]);
    });

    it("prunes the REVOKED tasks that ended before a time", async () => {
      const queue = await open(fresh());
      const revoked = (await queue.revoke((await queue.enqueue("doomed")).id))!;
      const finishedAt = Date.parse(revoked.finishedAt!);
      expect(await queue.prune(new Date(finishedAt))).toBe(0);
      expect(await queue.get(revoked.id)).toEqual(revoked);
      expect(await queue.prune(new Date(finishedAt + 1))).toBe(1);
      expect(await queue.get(revoked.id)).toBeNull();
    });

    /** A page of the history with room for every summary. */
    const everything = (query: Partial<HistoryQuery> = {}): HistoryQuery => ({ limit: 100, maxBytes: 1e9, ...query });

    it("keeps a history of the tasks enqueued with an entry, newest first, their summaries kept once the payloads are dropped; another opener sees it", async () => {
      const where = fresh();
      const queue = await open<string, string, { area: number[] }>(where);
      // Revoked before any worker could take it.
      const revoked = (await queue.revoke((await queue.enqueue("revoked", { summary: { area: [] }, owner: "7" })).id))!;
      queue.work(async (payload) => {
        if (payload === "broken") throw new PermanentTaskError("the area is empty");
        return `${payload} done`;
      }, { concurrency: 1 });
      const done = await queue.enqueue("done", { summary: { area: [1, 2] }, owner: "7" });
      const unlisted = await queue.enqueue("unlisted");
      const broken = await queue.enqueue("broken", { summary: { area: [3] }, owner: null });
      for (const task of [done, unlisted, broken]) await until(queue, task.id, (t) => t.state === "SUCCESS" || t.state === "FAILURE");

      const expected = [
        { ...(await queue.get(broken.id))!, summary: { area: [3] }, owner: null },
        { ...(await queue.get(done.id))!, summary: { area: [1, 2] }, owner: "7" },
        { ...revoked, summary: { area: [] }, owner: "7" },
      ];
      expect(expected.map((task) => task.state)).toEqual(["FAILURE", "SUCCESS", "REVOKED"]);
      expect(expected[0]).toMatchObject({ error: "the area is empty" });
      expect(await queue.history(everything())).toEqual({ tasks: expected, more: false });
      await queue.close();
      const reopened = await open<string, string, { area: number[] }>(where);
      expect(await reopened.history(everything())).toEqual({ tasks: expected, more: false });
      expect(await reopened.history(everything({ owner: "7" }))).toEqual({ tasks: [expected[1], expected[2]], more: false });
      expect(await reopened.history(everything({ owner: "8" }))).toEqual({ tasks: [], more: false });
    });

    it("pages the history: at most `limit` tasks, those before a task, within `maxBytes` but for the first; null before a task it does not hold", async () => {
      const queue = await open<string, string, string>(fresh());
      const tasks: Array<Task<string>> = [];
      for (const [index, summary] of ["a", "b", "c".repeat(1000), "d", "e"].entries()) tasks.push(await queue.enqueue(summary, { summary, owner: index % 2 === 0 ? "even" : "odd" }));
      const ids = (page: Awaited<ReturnType<typeof queue.history>>) => page && { ids: page.tasks.map((task) => task.summary[0]), more: page.more };

      expect(ids(await queue.history(everything({ limit: 2 })))).toEqual({ ids: ["e", "d"], more: true });
      expect(ids(await queue.history(everything({ limit: 2, before: tasks[3]!.id })))).toEqual({ ids: ["c", "b"], more: true });
      expect(ids(await queue.history(everything({ limit: 2, before: tasks[1]!.id })))).toEqual({ ids: ["a"], more: false });
      expect(ids(await queue.history(everything({ before: tasks[0]!.id })))).toEqual({ ids: [], more: false });
      expect(ids(await queue.history(everything({ limit: 5 })))).toEqual({ ids: ["e", "d", "c", "b", "a"], more: false });
      expect(ids(await queue.history(everything({ owner: "even", before: tasks[4]!.id })))).toEqual({ ids: ["c", "a"], more: false });
      expect(ids(await queue.history(everything({ owner: "odd", limit: 1 })))).toEqual({ ids: ["d"], more: true });
      // Each summary is its JSON text: "e" is 3 bytes, the c's 1,002.
      expect(ids(await queue.history(everything({ maxBytes: 6 })))).toEqual({ ids: ["e", "d"], more: true });
      expect(ids(await queue.history(everything({ maxBytes: 5 })))).toEqual({ ids: ["e"], more: true });
      expect(ids(await queue.history(everything({ maxBytes: 1, before: tasks[3]!.id })))).toEqual({ ids: ["c"], more: true });
      expect(await queue.history(everything({ before: UNKNOWN_ID }))).toBeNull();
    });

    it("forgets a pruned task's history entry with it; unfinished tasks stay listed however late the time", async () => {
      const queue = await open<string, string, string>(fresh());
      const release = deferred();
      queue.work(async (payload, { signal }) => {
        if (payload === "broken") throw new PermanentTaskError("broken");
        if (payload === "running") await Promise.race([release.promise, aborted(signal)]);
        return payload;
      }, { concurrency: 1 });
      const entry = (summary: string) => ({ summary, owner: "7" });
      const done = await until(queue, (await queue.enqueue("done", entry("done"))).id, (t) => t.state === "SUCCESS");
      await until(queue, (await queue.enqueue("broken", entry("broken"))).id, (t) => t.state === "FAILURE");
      const running = await queue.enqueue("running", entry("running"));
      await until(queue, running.id, (t) => t.state === "STARTED");
      // Behind the running task, which holds the one worker: revoked before it can run.
      await queue.revoke((await queue.enqueue("revoked", entry("revoked"))).id);
      await queue.enqueue("pending", entry("pending"));
      const listed = async (query?: Partial<HistoryQuery>) => (await queue.history(everything(query)))!.tasks.map((task) => task.summary);
      expect(await listed()).toEqual(["pending", "revoked", "running", "broken", "done"]);

      expect(await queue.prune(new Date(Date.now() + 60_000))).toBe(3);
      expect(await listed()).toEqual(["pending", "running"]);
      expect(await listed({ owner: "7" })).toEqual(["pending", "running"]);
      expect(await queue.history(everything({ before: done.id }))).toBeNull();
      release.resolve();
      expect(await until(queue, running.id, (t) => t.state === "SUCCESS")).toMatchObject({ result: "running" });
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
