/** How a task's failure is shown to clients, whichever queue ran it. */
const MAX_ERROR_LENGTH = 300;

/** What a client may see of a failure: one line, no stack, bounded. */
export function errorLine(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const line = message.split("\n").map((part) => part.trim()).find((part) => part !== "");
  return (line ?? "the task failed without a message").slice(0, MAX_ERROR_LENGTH);
}
