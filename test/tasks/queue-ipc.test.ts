import { EventEmitter } from "node:events";
import { describe, expect, it } from "vitest";
import { QueueFull, type Task, type TaskSubmitter } from "../../src/tasks/queue.js";
import { answerTaskCalls, taskSubmitterOver, type IpcChannel } from "../../src/tasks/queue-ipc.js";
import { QueueUnavailable } from "../../src/tasks/queue-unavailable.js";

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

  it("fails a call the owning process does not answer within the time allowed, as unavailable", async () => {
    const deaf: IpcChannel = { send: (_message, callback) => callback(null), on: () => undefined, off: () => undefined };
    const remote = taskSubmitterOver(deaf, { timeoutMs: 20 });
    await expect(remote.get("t0")).rejects.toThrow(QueueUnavailable);
    await expect(remote.enqueue({ n: 1 })).rejects.toThrow("did not answer within 0.02 s");
  });

  it("fails a call at once when the owning process has gone", async () => {
    const { submitter, close } = channelPair();
    close();
    await expect(taskSubmitterOver(submitter).get("t0")).rejects.toThrow("Channel closed");
  });
});
