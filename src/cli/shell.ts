/**
 * The one shell every command runs in (main.ts): what a command throws becomes one line on
 * standard error and an exit code, chosen by the error's code (src/server/errors.ts), never by
 * its wording.
 */
import { BasemodelError, DriverMissing, type ErrorCode } from "../server/errors.js";
import { EXIT_USAGE } from "./io.js";

/**
 * "usage": how basemodel was called, configured or installed, exit code 2. "failure": the
 * environment stopped the command (a database or Redis not answering, a full disk).
 */
const MEANINGS: Record<ErrorCode, "usage" | "failure"> = {
  BASEMODEL_USAGE: "usage",
  BASEMODEL_DRIVER_MISSING: "usage",
  BASEMODEL_STORE_MISSING: "usage",
  BASEMODEL_NOT_A_STORE: "usage",
  BASEMODEL_STORE_SCHEMA_VERSION: "usage",
  BASEMODEL_STORE_DAMAGED: "usage",
  BASEMODEL_NOT_A_QUEUE: "usage",
  BASEMODEL_STORE_UNREADABLE: "failure",
  BASEMODEL_STORE_UNWRITABLE: "failure",
  BASEMODEL_STORE_UNREACHABLE: "failure",
  BASEMODEL_STORE_FAILED: "failure",
  BASEMODEL_LOAD_FAILED: "failure",
  BASEMODEL_QUEUE_IN_USE: "failure",
  BASEMODEL_QUEUE_UNREACHABLE: "failure",
  BASEMODEL_QUEUE_UNAVAILABLE: "failure",
  BASEMODEL_STORE_UNAVAILABLE: "failure",
};

/**
 * The exit code of a failure: 1 for a command that does its work and ends. 2 for validate,
 * whose 1 says that an item is invalid, and for serve and worker: a service that cannot start
 * is configured wrongly.
 */
const EXIT_FAILED: Readonly<Record<string, number>> = { validate: EXIT_USAGE, serve: EXIT_USAGE, worker: EXIT_USAGE };

/** Says what `error`, thrown by `basemodel <command>`, means in one line on `stderr` (with the stack, for a bug); returns the exit code. */
export function reportFailure(command: string, error: unknown, stderr: { write(text: string): unknown }): number {
  const failed = EXIT_FAILED[command] ?? 1;
  if (error instanceof BasemodelError) {
    // The command needs the driver, whichever adapter found it missing.
    const { message } = error instanceof DriverMissing ? new DriverMissing({ user: command, packages: error.details.packages }) : error;
    // A message of several lines lists several problems: each gets the prefix.
    for (const line of message.split("\n")) stderr.write(`basemodel: ${line}\n`);
    return MEANINGS[error.code] === "usage" ? EXIT_USAGE : failed;
  }
  // Permission denied, a full disk, a vanished folder: the environment's, as the system says it.
  if ((error as NodeJS.ErrnoException).syscall !== undefined) {
    stderr.write(`basemodel: ${(error as Error).message}\n`);
    return failed;
  }
  stderr.write(`basemodel: internal error: ${(error as Error).stack ?? error}\n`);
  return EXIT_USAGE;
}
