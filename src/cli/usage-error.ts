/** A problem with how basemodel was called or configured: exit code 2, no stack trace. */
export class UsageError extends Error {
  override name = "UsageError";
}
