/**
 * Raised by a queue that cannot be reached now, such as one owned by another process that does
 * not answer: the task was not queued or looked up, and the caller may try again later.
 */
export class QueueUnavailable extends Error {
  override name = "QueueUnavailable";
}
