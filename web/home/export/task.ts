/** An export from its request to its end: submitted, then its task asked after until it ends. */
import type { SnapshotAccepted, TaskStatus } from "basemodel/api";
import { call } from "../../shared/http.js";
import type { ExportRequest } from "./request.js";

/** How often a running task is asked after; raw-data-api's own page asks every few seconds. */
const POLL_MS = 1000;

const ENDED = new Set<TaskStatus["status"]>(["SUCCESS", "FAILURE", "REVOKED"]);

/** A task's state in words. */
export const STATE_WORDS: Record<TaskStatus["status"], string> = {
  PENDING: "Queued",
  STARTED: "Running",
  SUCCESS: "Done",
  FAILURE: "Failed",
  REVOKED: "Stopped",
};

export function submitExport(request: ExportRequest): Promise<SnapshotAccepted> {
  return call(request.path, { method: "POST", headers: { "content-type": request.contentType, ...request.headers }, body: request.body }, (response) => response.json() as Promise<SnapshotAccepted>);
}

/** Asks after the task until it ends, telling `onStatus` each state; the last one is the answer. */
export async function followTask(taskId: string, onStatus: (status: TaskStatus) => void): Promise<TaskStatus> {
  for (;;) {
    const status = await call(`/latest/tasks/status/${encodeURIComponent(taskId)}/`, {}, (response) => response.json() as Promise<TaskStatus>);
    onStatus(status);
    if (ENDED.has(status.status)) return status;
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}
