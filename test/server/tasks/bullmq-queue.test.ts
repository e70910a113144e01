/**
 * What is the BullMQ queue's own (what every queue does is in contract/): reaching Redis, a
 * Redis that refuses writes, and the records it keeps beside BullMQ's (revocations, heartbeats). Each test runs its own redis-server, so that limits set here never
 * reach the shared one.
 */
import { Redis } from "ioredis";
import { afterEach, describe, expect, it } from "vitest";
import { openBullmqTaskQueue } from "../../../src/server/tasks/bullmq-queue.js";
import { PermanentTaskError, QueueFull, type TaskQueue } from "../../../src/server/tasks/queue.js";
import { QueueUnavailable } from "../../../src/server/errors.js";
import { eventually, until } from "./contract/wait.js";
import { freePort } from "../../support/free-port.js";
import { ownRedis } from "../../support/own-services.js";
import { hasTool } from "../../support/requirements.js";

const opened: Array<TaskQueue<unknown, unknown>> = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((queue) => queue.close()));
});

describe("the BullMQ task queue", () => {
  it.skipIf(!hasTool(["redis-server"], "redis-server"))("keeps a task's request only until the task finishes; a failed run to be retried keeps it", async () => {
    const { url } = await ownRedis();
    const queue = await openBullmqTaskQueue<string, number>(url, { name: "payloads", retryDelayMs: 10 });
    opened.push(queue as TaskQueue<unknown, unknown>);
    const runs: string[] = [];
    queue.work(async (payload, { attempt }) => {
      runs.push(`${payload[0]} ${attempt}`);
      if (payload.startsWith("f") && attempt < 3) throw new Error("flaky");
      if (payload.startsWith("p")) throw new PermanentTaskError("broken");
      return payload.length;
    }, { concurrency: 1 });
    const request = (letter: string) => letter + "x".repeat(500_000);
    const tasks = [await queue.enqueue(request("o")), await queue.enqueue(request("f")), await queue.enqueue(request("p"))];
    for (const task of tasks) await until(queue, task.id, (t) => t.state === "SUCCESS" || t.state === "FAILURE");
    expect(runs.sort()).toEqual(["f 1", "f 2", "f 3", "o 1", "p 1"]);
    const redis = new Redis(url);
    try {
      const stored = await eventually(
        () => Promise.all(tasks.map((task) => redis.hget(`basemodel:payloads:${task.id}`, "data"))),
        (values) => values.every((value) => value === "null"),
      );
      expect(stored).toEqual(["null", "null", "null"]);
    } finally {
      await redis.quit();
    }
  });

  it.skipIf(!hasTool(["redis-server"], "redis-server"))("while Redis is away, enqueue and get fail at once with QueueUnavailable, and work again once it is back", async () => {
    const redis = await ownRedis();
    const queue = await openBullmqTaskQueue<string, string>(redis.url, { name: "away" });
    opened.push(queue as TaskQueue<unknown, unknown>);
    const task = await queue.enqueue("before");
    await redis.stop();
    const refusal = await eventually(
      () => queue.enqueue("while away").catch((error: unknown) => error),
      (outcome) => outcome instanceof QueueUnavailable,
    );
    expect((refusal as Error).message).toMatch(/^Redis: /);
    await expect(queue.get(task.id)).rejects.toBeInstanceOf(QueueUnavailable);

    // The same port again: the connection comes back on its own.
    await redis.start();
    const back = await eventually(
      () => queue.enqueue("after").catch((error: unknown) => error),
      (outcome) => !(outcome instanceof Error),
    );
    expect(back).toMatchObject({ state: "PENDING" });
  });

  it.skipIf(!hasTool(["redis-server"], "redis-server"))("does not run a task revoked as a worker took it, and keeps nothing of its job", async () => {
    const { url } = await ownRedis();
    const queue = await openBullmqTaskQueue<string, string>(url, { name: "race" });
    opened.push(queue as TaskQueue<unknown, unknown>);
    const doomed = await queue.enqueue("doomed");
    const redis = new Redis(url);
    try {
      // What revoke() leaves when a worker takes the job before it can be removed: the record alone.
      const revoked = { ...doomed, state: "REVOKED", finishedAt: new Date().toISOString() };
      await redis.hset("basemodel:race:revoked", doomed.id, JSON.stringify(revoked));
      const ran: string[] = [];
      queue.work(async (payload) => {
        ran.push(payload);
        return payload;
      }, { concurrency: 1 });
      const after = await queue.enqueue("after");
      await until(queue, after.id, (t) => t.state === "SUCCESS");
      expect(ran).toEqual(["after"]);
      expect(await queue.get(doomed.id)).toEqual(revoked);
      await eventually(() => redis.exists(`basemodel:race:${doomed.id}`), (count) => count === 0);
    } finally {
      await redis.quit();
    }
  });

  it.skipIf(!hasTool(["redis-server"], "redis-server"))("forgets a worker whose heartbeats stopped 3 heartbeats ago", async () => {
    const { url } = await ownRedis();
    const queue = await openBullmqTaskQueue(url, { name: "beats" });
    opened.push(queue as TaskQueue<unknown, unknown>);
    const redis = new Redis(url);
    try {
      // Heartbeats every 2 s: workers whose processes died 5 s and 7 s ago.
      await redis.zadd("basemodel:beats:workers", Date.now() - 5000, "basemodel@gone:1", Date.now() - 7000, "basemodel@gone:2");
      expect(await queue.workers()).toEqual(["basemodel@gone:1"]);
    } finally {
      await redis.quit();
    }
  });

  it("says in one line that Redis cannot be reached", async () => {
    const url = `redis://127.0.0.1:${await freePort()}`;
    await expect(openBullmqTaskQueue(url, { connectTimeoutMs: 1000 })).rejects.toThrow(new RegExp(`^cannot reach Redis at ${url}: (connect ECONNREFUSED|no answer within 1 s)`));
  });

  it.skipIf(!hasTool(["redis-server"], "redis-server"))("refuses a task as QueueFull when Redis has no memory left for it (noeviction)", async () => {
    const { url } = await ownRedis("--maxmemory", "3mb", "--maxmemory-policy", "noeviction");
    const queue = await openBullmqTaskQueue<string, string>(url, { name: "full" });
    opened.push(queue as TaskQueue<unknown, unknown>);
    const payload = "x".repeat(200_000);
    let refused: unknown;
    for (let count = 0; count < 100 && refused === undefined; count++) await queue.enqueue(payload).catch((error: unknown) => (refused = error));
    expect(refused).toBeInstanceOf(QueueFull);
    expect(refused).toMatchObject({ message: "the Redis of the task queue is full", cause: expect.objectContaining({ message: expect.stringMatching(/^OOM /) }) });
  });
});
