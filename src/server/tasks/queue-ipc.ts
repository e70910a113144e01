/**
 * A task queue reached across processes: the process that owns the queue answers the calls of
 * a TaskSubmitter for processes that only submit, look up and administer tasks (the HTTP
 * processes of `basemodel serve --processes`). Only the owner runs tasks, so the queue keeps one owner.
 */
import { QueueFull, type HistoryEntry, type HistoryQuery, type TaskSubmitter } from "./queue.js";
import { QueueUnavailable } from "../errors.js";

/** One end of an IPC channel: a cluster worker seen from the primary, or `process` in a worker. */
export interface IpcChannel {
  /** Reports a failure (the other process gone) to the callback, never as an 'error' event. */
  send(message: unknown, callback: (error: Error | null) => void): unknown;
  on(event: "message", listener: (message: unknown) => void): unknown;
  off(event: "message", listener: (message: unknown) => void): unknown;
}

const KIND = "basemodel-task-queue";

type Method = keyof TaskSubmitter<unknown, unknown>;
type Call = { kind: typeof KIND; id: number; method: Method; args: unknown[] };
/** `full`: the owner's queue refused the task for want of room (QueueFull), which the caller answers differently. */
type Reply = { kind: typeof KIND; id: number; value: unknown } | { kind: typeof KIND; id: number; error: string; full?: true };

function isOurs(message: unknown): message is { kind: typeof KIND; id: number } {
  return typeof message === "object" && message !== null && (message as { kind?: unknown }).kind === KIND;
}

/** Answers the calls that arrive on `channel` from `queue`; returns what stops answering. */
export function answerTaskCalls<P, R, S>(queue: TaskSubmitter<P, R, S>, channel: IpcChannel): () => void {
  const methods: Record<Method, (...args: unknown[]) => Promise<unknown>> = {
    enqueue: (payload, entry) => queue.enqueue(payload as P, entry as HistoryEntry<S> | undefined),
    get: (id) => queue.get(id as string),
    revoke: (id) => queue.revoke(id as string),
    waiting: () => queue.waiting(),
    pendingCount: () => queue.pendingCount(),
    active: () => queue.active(),
    workers: () => queue.workers(),
    history: (query) => queue.history(query as HistoryQuery),
  };
  const listener = (message: unknown) => {
    if (!isOurs(message)) return;
    const call = message as Call;
    const answer = methods[call.method](...call.args);
    // A caller that has gone meanwhile needs no answer: a failed send is dropped.
    const reply = (message: Reply) => channel.send(message, () => {});
    answer.then(
      (value) => reply({ kind: KIND, id: call.id, value }),
      (error: unknown) => reply({ kind: KIND, id: call.id, error: (error as Error).message ?? String(error), ...(error instanceof QueueFull && { full: true }) }),
    );
  };
  channel.on("message", listener);
  return () => channel.off("message", listener);
}

/** How long a call waits for the owner's answer before it fails with QueueUnavailable. */
export const DEFAULT_CALL_TIMEOUT_MS = 10_000;

/**
 * A submitter whose calls travel over `channel` to the process that owns the queue. A call the
 * owner does not answer within `timeoutMs` fails (an enqueue may still have been recorded: the
 * owner may be slow rather than gone).
 */
export function taskSubmitterOver<P, R, S = unknown>(channel: IpcChannel, { timeoutMs = DEFAULT_CALL_TIMEOUT_MS } = {}): TaskSubmitter<P, R, S> {
  let nextId = 0;
  const pending = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void; timer: NodeJS.Timeout }>();
  channel.on("message", (message) => {
    if (!isOurs(message)) return;
    const reply = message as Reply;
    const waiting = pending.get(reply.id);
    if (!waiting) return;
    pending.delete(reply.id);
    clearTimeout(waiting.timer);
    if ("error" in reply) waiting.reject(reply.full ? new QueueFull(reply.error) : new Error(reply.error));
    else waiting.resolve(reply.value);
  });
  // The owner's queue answers with what the method returns: the type is the method's.
  const call = <T>(method: Method, ...args: unknown[]) =>
    new Promise<T>((resolve, reject) => {
      const id = nextId++;
      const fail = (why: string) => {
        const waiting = pending.get(id);
        if (!waiting) return;
        pending.delete(id);
        clearTimeout(waiting.timer);
        reject(new QueueUnavailable({ why }));
      };
      const timer = setTimeout(() => fail(`the process that owns the queue did not answer within ${timeoutMs / 1000} s`), timeoutMs).unref();
      pending.set(id, { resolve: resolve as (value: unknown) => void, reject, timer });
      channel.send({ kind: KIND, id, method, args }, (error) => {
        // The owner is gone (the channel is closed): the request fails now rather than never.
        if (error) fail(`the process that owns the queue has gone: ${error.message}`);
      });
    });
  return {
    // An absent entry stays absent: IPC's copy would make an undefined argument null.
    enqueue: (payload, entry) => (entry === undefined ? call("enqueue", payload) : call("enqueue", payload, entry)),
    get: (id) => call("get", id),
    revoke: (id) => call("revoke", id),
    waiting: () => call("waiting"),
    pendingCount: () => call("pendingCount"),
    active: () => call("active"),
    workers: () => call("workers"),
    history: (query) => call("history", query),
  };
}
