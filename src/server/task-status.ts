/** A queued export task as the wire's task status (docs/decisions.md: every result member in both spellings). */
import type { ExportResult, TaskStatus } from "../api/snapshot.js";
import type { ExportTaskResult } from "../tasks/export-tasks.js";
import type { Task } from "../tasks/queue.js";

/** Python's str(timedelta) for durations under a day: `H:MM:SS.ffffff`, as the real worker reports. */
export function formatDuration(seconds: number): string {
  const micros = Math.round(seconds * 1e6);
  const hours = Math.floor(micros / 3.6e9);
  const minutes = Math.floor((micros % 3.6e9) / 6e7);
  const wholeSeconds = Math.floor((micros % 6e7) / 1e6);
  const fraction = micros % 1e6;
  return `${hours}:${String(minutes).padStart(2, "0")}:${String(wholeSeconds).padStart(2, "0")}.${String(fraction).padStart(6, "0")}`;
}

function exportResult(result: ExportTaskResult, downloadUrl: string): ExportResult {
  const time = formatDuration(result.seconds);
  const area = `${result.areaKm2.toFixed(2)} Sq Km`;
  const size = `${(result.fileBytes / 1e6).toFixed(2)} MB`;
  return {
    downloadUrl,
    download_url: downloadUrl,
    fileName: result.fileName,
    file_name: result.fileName,
    responseTime: time,
    response_time: time,
    process_time: time,
    queryArea: area,
    query_area: area,
    bindedFileSize: size,
    binded_file_size: size,
    zipFileSizeBytes: result.downloadBytes,
    zip_file_size_bytes: result.downloadBytes,
    ...(result.stats && { stats: result.stats }),
  };
}

/** `baseUrl` is where the server is reached from outside, e.g. "https://exports.example.org". */
export function taskStatus(task: Task<ExportTaskResult>, baseUrl: string): TaskStatus {
  const result =
    task.state === "SUCCESS" && task.result !== null
      ? exportResult(task.result, `${baseUrl}/exports/${task.result.download.split("/").map(encodeURIComponent).join("/")}`)
      : task.state === "FAILURE"
        ? { error: task.error ?? "the export failed" }
        : null;
  return { id: task.id, status: task.state, result, progress: task.progress };
}
