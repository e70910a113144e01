/** Redis keys of one test file: the tests of other files share the Redis. */
import { randomUUID } from "node:crypto";
import { Redis } from "ioredis";
import { afterFile } from "./cleanup.js";

/** A prefix of the keys of this file's queues, all deleted after the file. */
export function freshRedisPrefix(url: string): string {
  const prefix = `basemodel-test-${randomUUID()}`;
  afterFile(() => deleteKeys(url, prefix));
  return prefix;
}

async function deleteKeys(url: string, prefix: string): Promise<void> {
  const redis = new Redis(url);
  try {
    const keys = await redis.keys(`${prefix}:*`);
    if (keys.length > 0) await redis.del(...keys);
  } finally {
    await redis.quit();
  }
}
