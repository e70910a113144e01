/** Waiting for states a queue's workers reach on their own time: bounded polls, never a fixed sleep. */
import type { Task, TaskQueue } from "../../../../src/server/tasks/queue.js";

/** Polls until `check` passes, or fails after `timeoutMs` with the last value seen. */
export async function eventually<T>(read: () => Promise<T>, check: (value: T) => boolean, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (check(value)) return value;
    if (Date.now() > deadline) throw new Error(`Timed out; last value: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

export const until = <P, R>(queue: Pick<TaskQueue<P, R>, "get">, id: string, check: (task: Task<R>) => boolean, timeoutMs?: number): Promise<Task<R>> =>
  eventually(
    () => queue.get(id),
    (task) => task !== null && check(task),
    timeoutMs,
  ) as Promise<Task<R>>;

export function deferred<T = void>(): { promise: Promise<T>; resolve: (value: T) => void } {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((done) => (resolve = done));
  return { promise, resolve };
}
