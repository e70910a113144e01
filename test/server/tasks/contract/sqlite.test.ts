import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openSqliteTaskQueue } from "../../../../src/server/tasks/sqlite-queue.js";
import { afterFile } from "../../../support/cleanup.js";
import { describeQueueContract } from "./queue-contract.js";

describeQueueContract("SQLite", () => {
  const directory = mkdtempSync(join(tmpdir(), "basemodel-queue-contract-"));
  afterFile(() => rmSync(directory, { recursive: true, force: true }));
  let count = 0;
  return (settings = {}) => {
    const path = join(directory, `queue-${++count}.db`);
    // A short poll: retries come due within the tests' short delays.
    return { open: () => openSqliteTaskQueue(path, { ...settings, pollMs: 10 }) };
  };
}, { oneOpener: true });
