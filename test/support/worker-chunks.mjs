// Preloaded (NODE_OPTIONS=--import) into `basemodel validate` by test/cli/jobs.test.ts: each chunk
// of files a worker thread validates is written as a line "<threadId> <start>" to the file named
// by BASEMODEL_TEST_CHUNKS, so that a test can tell the worker threads took part. Listening on the
// port would take messages from the worker; its answers are watched instead.
import { appendFileSync } from "node:fs";
import { isMainThread, parentPort, threadId } from "node:worker_threads";

const log = process.env.BASEMODEL_TEST_CHUNKS;
if (!isMainThread && parentPort && log) {
  const post = parentPort.postMessage.bind(parentPort);
  parentPort.postMessage = (message, ...rest) => {
    if (message && typeof message === "object" && "validated" in message) appendFileSync(log, `${threadId} ${message.start}\n`);
    return post(message, ...rest);
  };
}
