/** The history of exports on the wire (GET /history/): each task with its summary, and what is left of its files. */
import type { ExportHistoryEntry } from "../api/history.js";
import type { ArtifactStore } from "../exports/artifacts.js";
import type { ExportSummary } from "../exports/summary.js";
import { isCustomOutcome, type ExportTaskResult } from "../tasks/export-tasks.js";
import type { HistoryEntry, Task } from "../tasks/queue.js";
import { downloadUrl } from "./download-url.js";

export type ExportInHistory = Task<ExportTaskResult> & HistoryEntry<ExportSummary>;

type ExportFile = ExportHistoryEntry["files"][number];

/** A published file as the task's result names it: its download path, and what the entry shows of it. */
type Published = Omit<ExportFile, "url"> & { download: string };

function publishedFiles(result: ExportTaskResult, summary: ExportSummary): Published[] {
  if (!isCustomOutcome(result)) {
    const name = result.download.slice(result.download.lastIndexOf("/") + 1);
    return [{ name, download: result.download, format: summary.formats[0]!, category: null, size: result.downloadBytes, features: result.features }];
  }
  return result.categories.flatMap(({ name: category, resources }) => resources.map(({ name, download, format, bytes, features }) => ({ name, download, format, category, size: bytes, features })));
}

/** The area as the request gave it, and the country of a custom export by iso3. */
function areaOf(body: unknown): Pick<ExportHistoryEntry, "area" | "iso3"> {
  // The route checked it: an object whose geometry, when there is one, is GeoJSON.
  const { geometry, iso3 } = body as { geometry?: Record<string, unknown>; iso3?: string };
  return { area: geometry ?? null, iso3: iso3 ?? null };
}

/**
 * The entries of the history, each file's URL only while the file is there: one deleted after
 * the exports' maximum age (or by hand) before its task was forgotten leaves the entry expired.
 */
export async function historyEntries(tasks: readonly ExportInHistory[], artifacts: ArtifactStore, base: string): Promise<ExportHistoryEntry[]> {
  return Promise.all(
    tasks.map(async (task) => {
      const { summary } = task;
      const published = task.state === "SUCCESS" && task.result !== null ? publishedFiles(task.result, summary) : [];
      const files = await Promise.all(
        published.map(async ({ download, ...file }): Promise<ExportFile> => ({ ...file, url: (await artifacts.stat(download)) === null ? null : downloadUrl(base, download) })),
      );
      return {
        id: task.id,
        kind: summary.kind,
        status: task.state,
        progress: task.progress,
        createdAt: task.createdAt,
        startedAt: task.startedAt,
        finishedAt: task.finishedAt,
        ...areaOf(summary.request.body),
        formats: summary.formats,
        geometryTypes: summary.geometryTypes,
        categories: summary.categories,
        fileName: summary.fileName,
        files,
        size: task.state === "SUCCESS" ? files.reduce((sum, file) => sum + file.size, 0) : null,
        expired: files.some((file) => file.url === null),
        error: task.state === "FAILURE" ? task.error : null,
        request: { method: "POST", ...summary.request },
      };
    }),
  );
}
