import { randomUUID } from "node:crypto";
import { Redis } from "ioredis";
import { openBullmqTaskQueue } from "../../../../src/server/tasks/bullmq-queue.js";
import { afterFile } from "../../../support/cleanup.js";
import { redisUrl } from "../../../support/requirements.js";
import { describeQueueContract } from "./queue-contract.js";

describeQueueContract("BullMQ", () => {
  const url = redisUrl();
  if (url === undefined) return undefined;
  // Keys of this file's queues only, deleted after it: tests in other files share the Redis.
  const prefix = `basemodel-test-${randomUUID()}`;
  afterFile(() => deleteKeys(url, prefix));
  let count = 0;
  return (settings = {}) => {
    const name = `queue-${++count}`;
    return { open: () => openBullmqTaskQueue(url, { ...settings, prefix, name }) };
  };
});

export async function deleteKeys(url: string, prefix: string): Promise<void> {
  const redis = new Redis(url);
  try {
    const keys = await redis.keys(`${prefix}:*`);
    if (keys.length > 0) await redis.del(...keys);
  } finally {
    await redis.quit();
  }
}
