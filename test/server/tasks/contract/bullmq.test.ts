import { openBullmqTaskQueue } from "../../../../src/server/tasks/bullmq-queue.js";
import { freshRedisPrefix } from "../../../support/redis-keys.js";
import { redisUrl } from "../../../support/requirements.js";
import { describeQueueContract } from "./queue-contract.js";

describeQueueContract("BullMQ", () => {
  const url = redisUrl();
  if (url === undefined) return undefined;
  const prefix = freshRedisPrefix(url);
  let count = 0;
  return (settings = {}) => {
    const name = `queue-${++count}`;
    return { open: () => openBullmqTaskQueue(url, { ...settings, prefix, name }) };
  };
});
