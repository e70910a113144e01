/**
 * --queue of `serve` and `worker`: the Redis that holds the export tasks. Checked while the
 * options are parsed, so that a mistake is one line before anything starts.
 */
import { InvalidArgumentError } from "commander";

export function redisQueueUrl(text: string): string {
  let url: URL | undefined;
  try {
    url = new URL(text);
  } catch {
    // Said below with the example.
  }
  if (url === undefined || (url.protocol !== "redis:" && url.protocol !== "rediss:") || url.hostname === "") {
    throw new InvalidArgumentError(`expected a Redis address such as redis://127.0.0.1:6379; found ${JSON.stringify(text)}`);
  }
  return text;
}

