import { EventEmitter } from "node:events";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { QueueFull, type Task, type TaskSubmitter } from "../../../src/server/tasks/queue.js";
import { answerTaskCalls, taskSubmitterOver, type IpcChannel } from "../../../src/server/tasks/queue-ipc.js";
import { QueueUnavailable } from "../../../src/server/errors.js";
import { openSqliteTaskQueue } from "../../../src/server/tasks/sqlite-queue.js";
import { afterFile } from "../../support/cleanup.js";
import { deferred, until } from "./contract/wait.js";

/** Two ends of a channel whose messages go through a structured clone, as IPC copies them. */
function channelPair(): { owner: IpcChannel & EventEmitter; submitter: IpcChannel & EventEmitter; close(): void } {
  let open = true;
  const end = (other: () => EventEmitter) =>
    Object.assign(new EventEmitter(), {
      send(message: unknown, callback: (error: Error | null) => void) {
        if (!open) return callback(new Error("Channel closed"));
        const copy = structuredClone(message);
        setImmediate(() => other().emit("message", copy));
        callback(null);
      },
    });
  const owner = end(() => submitter);
  const submitter = end(() => owner);
  return { owner, submitter, close: () => (open = false) };
}

/** The task the fake queue makes of a payload: its id tells which payload arrived. */
function task(id: string): Task<string> {
  return { id, state: "PENDING", progress: 0, result: null, error: null, attempts: 0, createdAt: "2026-11-22T00:00:00Z", startedAt: null, finishedAt: null };
}

describe("a task queue over IPC", () => {
  it("enqueues and looks up tasks in the owning process, and passes its failures on as errors", async () => {
    const tasks = new Map<string, Task<string>>();
    const queue: TaskSubmitter<{ n: number }, string> = {
      async enqueue(payload) {
        if (payload.n < 0) throw new Error("n must not be negative");
        if (payload.n > 1000) throw new QueueFull("no room for n");
        const created = task(`t${tasks.size}-n${payload.n}`);
        tasks.set(created.id, created);
        return created;
      },
      get: async (id) => tasks.get(id) ?? null,
      revoke: () => Promise.reject(new Error("not used")),
      waiting: () => Promise.reject(new Error("not used")),
      pendingCount: () => Promise.reject(new Error("not used")),
      active: () => Promise.reject(new Error("not used")),
      workers: () => Promise.reject(new Error("not used")),
      history: () => Promise.reject(new Error("not used")),
    };
    const { owner, submitter } = channelPair();
    const stop = answerTaskCalls(queue, owner);
    const remote = taskSubmitterOver<{ n: number }, string>(submitter);

    const [a, b] = await Promise.all([remote.enqueue({ n: 1 }), remote.enqueue({ n: 2 })]);
    expect(a).toEqual(task("t0-n1"));
    expect(b).toEqual(task("t1-n2"));
    expect(await remote.get("t1-n2")).toEqual(b);
    expect(await remote.get("missing")).toBeNull();
    await expect(remote.enqueue({ n: -1 })).rejects.toThrow("n must not be negative");
    await expect(remote.enqueue({ n: -1 })).rejects.not.toBeInstanceOf(QueueFull);
    // A full queue stays a QueueFull across the channel: the route answers it with its own 503.
    await expect(remote.enqueue({ n: 1001 })).rejects.toThrow(new QueueFull("no room for n"));
    await expect(remote.enqueue({ n: 1001 })).rejects.toBeInstanceOf(QueueFull);

    // Messages that are not the queue's are left to their own listeners.
    owner.emit("message", { kind: "something else", id: 0 });
    submitter.emit("message", "not an object");
    stop();
    expect(owner.listenerCount("message")).toBe(0);
  });

  it("revokes tasks and lists the waiting and active ones, the workers and the history in the owning process", async () => {
    const revoked: Task<string> = { ...task("t0"), state: "REVOKED", finishedAt: "2026-11-22T00:01:00Z" };
    const running = { ...task("t1"), state: "STARTED" as const, attempts: 1, startedAt: "2026-11-22T00:00:30Z", payload: { n: 1 }, worker: "basemodel@host:7" };
    const waiting = [{ ...task("t2"), payload: { n: 2 } }, { ...task("t3"), payload: { n: 3 } }];
    const queue: TaskSubmitter<{ n: number }, string> = {
      enqueue: () => Promise.reject(new Error("not used")),
      get: () => Promise.reject(new Error("not used")),
      async revoke(id) {
        if (id === "t9") throw new Error("Redis: connection lost");
        return id === "t0" ? revoked : null;
      },
      waiting: async () => waiting,
      pendingCount: async () => waiting.length,
      active: async () => [running],
      workers: async () => ["basemodel@host:7", "basemodel@host:7#2"],
      history: async (query) => (query.before === "t9" ? null : { tasks: [{ ...revoked, summary: query, owner: query.owner ?? null }], more: true }),
    };
    const { owner, submitter } = channelPair();
    answerTaskCalls(queue, owner);
    const remote = taskSubmitterOver<{ n: number }, string>(submitter);

    expect(await remote.revoke("t0")).toEqual(revoked);
    expect(await remote.revoke("missing")).toBeNull();
    await expect(remote.revoke("t9")).rejects.toThrow("Redis: connection lost");
    expect(await remote.waiting()).toEqual(waiting);
    expect(await remote.pendingCount()).toBe(2);
    expect(await remote.active()).toEqual([running]);
    expect(await remote.workers()).toEqual(["basemodel@host:7", "basemodel@host:7#2"]);
    const query = { limit: 2, maxBytes: 100, before: "t3", owner: "7" };
    expect(await remote.history(query)).toEqual({ tasks: [{ ...revoked, summary: query, owner: "7" }], more: true });
    expect(await remote.history({ limit: 2, maxBytes: 100, before: "t9" })).toBeNull();
  });

  it("stops a task the owning process runs when another process revokes it", async () => {
    const directory = mkdtempSync(join(tmpdir(), "basemodel-queue-ipc-"));
    afterFile(() => rmSync(directory, { recursive: true, force: true }));
    const queue = await openSqliteTaskQueue<string, string>(join(directory, "tasks.sqlite"), { pollMs: 10 });
    try {
      const started = deferred<AbortSignal>();
      queue.work(async (payload, { signal }) => {
        if (payload !== "long") return `${payload} done`;
        started.resolve(signal);
        await new Promise((_resolve, reject) => signal.addEventListener("abort", () => reject(signal.reason)));
        return "unreachable";
      }, { concurrency: 1 });
      const { owner, submitter } = channelPair();
      answerTaskCalls(queue, owner);
      const remote = taskSubmitterOver<string, string>(submitter);
      const long = await remote.enqueue("long");
      const next = await remote.enqueue("next", { summary: "the next one", owner: "7" });
      const signal = await started.promise;

      const [worker] = await remote.workers();
      expect(await remote.active()).toEqual([{ ...(await queue.get(long.id)), payload: "long", worker }]);
      expect(await remote.waiting()).toEqual([{ ...next, payload: "next" }]);
      expect(await remote.revoke(long.id)).toMatchObject({ id: long.id, state: "REVOKED", attempts: 1 });
      expect(signal.aborted).toBe(true);
      expect(await until(remote, next.id, (t) => t.state === "SUCCESS")).toMatchObject({ result: "next done" });
      expect(await remote.get(long.id)).toMatchObject({ state: "REVOKED", attempts: 1 });
      expect(await remote.history({ limit: 10, maxBytes: 1000 })).toEqual({ tasks: [{ ...(await queue.get(next.id)), summary: "the next one", owner: "7" }], more: false });
    } finally {
      await queue.close();
    }
  });

  it("fails a call the owning process does not answer within the time allowed, as unavailable", async () => {
    const deaf: IpcChannel = { send: (_message, callback) => callback(null), on: () => undefined, off: () => undefined };
    const remote = taskSubmitterOver(deaf, { timeoutMs: 20 });
    await expect(remote.get("t0")).rejects.toThrow(QueueUnavailable);
    await expect(remote.enqueue({ n: 1 })).rejects.toThrow("did not answer within 0.02 s");
    await expect(remote.revoke("t0")).rejects.toThrow(QueueUnavailable);
    await expect(remote.workers()).rejects.toThrow("did not answer within 0.02 s");
  });

  it("fails a call at once when the owning process has gone", async () => {
    const { submitter, close } = channelPair();
    close();
    await expect(taskSubmitterOver(submitter).get("t0")).rejects.toThrow("Channel closed");
  });
});
