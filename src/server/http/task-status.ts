/** A queued export task as the wire's task status (docs/decisions.md: every result member in both spellings). */
import type { ExportResult } from "../api/snapshot.js";
import type { TaskStatus } from "../api/tasks.js";
import type { CustomExportResult } from "../api/custom.js";
import type { CustomExportOutcome } from "../exports/custom.js";
import type { SnapshotOutcome } from "../exports/snapshot.js";
import type { ExportFormat } from "../formats/types.js";
import { isCustomOutcome, type ExportTaskResult } from "../tasks/export-tasks.js";
import { zonelessTime } from "./dates.js";
import { downloadUrl } from "./download-url.js";
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

function exportResult(result: SnapshotOutcome, downloadUrl: string): ExportResult {
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

/** Upstream's humanize.naturaldelta, for the durations an export takes: "a moment", "a second", "12 seconds", "a minute", "3 hours". */
export function naturalDelta(seconds: number): string {
  const units: Array<[string, number]> = [
    ["day", 86_400],
    ["hour", 3_600],
    ["minute", 60],
    ["second", 1],
  ];
  for (const [unit, size] of units) {
    const count = Math.floor(seconds / size);
    if (count >= 1) return count === 1 ? `a${unit === "hour" ? "n" : ""} ${unit}` : `${count} ${unit}s`;
  }
  return "a moment";
}

function customResult(result: CustomExportOutcome, urlOf: (download: string) => string): CustomExportResult {
  const datasets = result.categories.map(({ name, resources }) => ({
    [name]: {
      resources: resources.map((resource) => ({
        name: resource.name,
        url: urlOf(resource.download),
        format: resource.format,
        description: DRIVER_NAMES[resource.format],
        size: resource.bytes,
        last_modifed: zonelessTime(resource.madeAt),
      })),
    },
  }));
  return { datasets, elapsed_time: naturalDelta(result.seconds), started_at: zonelessTime(result.startedAt) };
}

/** GDAL's names of the formats, which upstream gives as each file's description. */
const DRIVER_NAMES: Record<ExportFormat, string> = {
  geojson: "GeoJSON",
  shp: "ESRI Shapefile",
  gpkg: "GPKG",
  fgb: "FlatGeobuf",
  kml: "KML",
  csv: "CSV",
  parquet: "PARQUET",
};


/** `baseUrl` is where the server is reached from outside, e.g. "https://exports.example.org". */
export function taskStatus(task: Task<ExportTaskResult>, baseUrl: string): TaskStatus {
  const urlOf = (download: string) => downloadUrl(baseUrl, download);
  const result =
    task.state === "SUCCESS" && task.result !== null
      ? isCustomOutcome(task.result)
        ? customResult(task.result, urlOf)
        : exportResult(task.result, urlOf(task.result.download))
      : task.state === "FAILURE"
        ? { error: task.error ?? "the export failed" }
        : task.state === "REVOKED"
          ? { error: "the task was revoked (GET /tasks/revoke/{task_id}/ or /tasks/purge/): it did not finish" }
          : null;
  return { id: task.id, status: task.state, result, progress: task.progress };
}
