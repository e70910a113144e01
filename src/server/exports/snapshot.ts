/**
 * One snapshot export, start to finish: query the store part by part (request -> query ->
 * write), stream the features into the format's writer, then zip the files beside the
 * clipping boundary and a Readme, or publish the one file bare (bindZip false). Works in a
 * hidden folder of its own and publishes only the finished file, so a crash at any point
 * leaves nothing a client can download, and running the same task again starts clean.
 */
import { stat } from "node:fs/promises";
import { basename } from "node:path";
import { setImmediate as yieldToEventLoop } from "node:timers/promises";
import type { AreaStats, PolygonalGeometry } from "../api/snapshot.js";
import { areaKm2 } from "../../model/area.js";
import { areaOf, type AreaFilter } from "../../model/query.js";
import type { FeatureSnapshot, FeatureStore } from "../store/store.js";
import { areaStats } from "./area-stats.js";
import type { ArtifactStore } from "./artifacts.js";
import { sanitizeFileName } from "./file-name.js";
import { createWriter, type ExportFormat, type ExportWriter } from "../formats/index.js";
import { planMatches } from "./matches.js";
import { planExport, type ExportPlan } from "./plan.js";
import { downloadPath } from "./published.js";
import { flagOf, type ExportParams } from "./request.js";
import { writeZip, type ZipEntry } from "../formats/zip.js";

export interface SnapshotOutcome {
  /** The published file's download path ("/"-separated): the zip, or the bare file (bindZip false). */
  download: string;
  /** The sanitised name of the export's files. */
  fileName: string;
  features: number;
  areaKm2: number;
  /** Bytes of the exported files before zipping. */
  fileBytes: number;
  /** Bytes of the published file. */
  downloadBytes: number;
  /** From the start of the export to the file in place. */
  seconds: number;
  /** With includeStats. */
  stats?: AreaStats;
}

export interface SnapshotOptions {
  /** Where the export is published. */
  artifacts: ArtifactStore;
  /** Names the published file, as the real service does (src/server/exports/published.ts). */
  taskId: string;
  /** 0-100 */
  onProgress?: (percent: number) => void;
  signal?: AbortSignal;
}

/** Share of the progress bar for the queries and writing; the zip gets the rest. */
const WRITING_SHARE = 90;
/** Features written between two turns of the event loop: an export must not starve the HTTP server. */
const FEATURES_PER_TURN = 256;

export async function exportSnapshot(store: FeatureStore, params: ExportParams, options: SnapshotOptions): Promise<SnapshotOutcome> {
  const started = performance.now();
  const outputType = params.outputType ?? "geojson";
  const fileName = sanitizeFileName(params.fileName);
  const zipped = flagOf(params, "bindZip");
  const download = downloadPath({ fileName, outputType, taskId: options.taskId, uuid: flagOf(params, "uuid"), extension: zipped ? "zip" : outputType });
  return withExportResources(store, params.geometry, options, async (data, area, work) => {
    const { files, features } = await writeFeatures(data, area, params, planExport(params), work, fileName, options);
    const stats = flagOf(params, "includeStats") ? await areaStats(data, area) : undefined;
    const fileBytes = (await Promise.all(files.map((file) => stat(file)))).reduce((sum, file) => sum + file.size, 0);
    const downloadBytes = zipped
      ? await zipFiles(options.artifacts, download, files, params, features, stats, options.signal)
      : await publishBare(options.artifacts, download, files);
    options.onProgress?.(100);
    return { download, fileName, features, areaKm2: areaKm2(params.geometry), fileBytes, downloadBytes, seconds: (performance.now() - started) / 1000, ...(stats && { stats }) };
  });
}

/**
 * Runs `body` with what an export works with: the task's work folder, the area, and every table
 * as of one moment (whatever `basemodel update` commits while the export runs). The folder and
 * the snapshot are released however `body` ends.
 */
export async function withExportResources<T>(
  store: FeatureStore,
  geometry: PolygonalGeometry,
  options: Pick<SnapshotOptions, "artifacts" | "taskId">,
  body: (data: FeatureSnapshot, area: AreaFilter, work: string) => Promise<T>,
): Promise<T> {
  // By task, not by name: without the task id in it, a name may be another task's too.
  const work = await options.artifacts.workFolder(options.taskId);
  try {
    const data = await store.snapshot();
    try {
      return await body(data, areaOf(geometry), work);
    } finally {
      await data.close();
    }
  } finally {
    await options.artifacts.removeWorkFolder(options.taskId);
  }
}

/** The zip is written where the store stages it, under a partial name, and published when complete. */
async function zipFiles(
  artifacts: ArtifactStore,
  download: string,
  files: string[],
  params: ExportParams,
  features: number,
  stats: AreaStats | undefined,
  signal?: AbortSignal,
): Promise<number> {
  const entries: ZipEntry[] = [
    ...files.map((path) => ({ name: basename(path), path })),
    { name: "clipping_boundary.geojson", content: JSON.stringify(params.geometry) + "\n" },
    { name: "Readme.txt", content: readme(params, features, stats) },
  ];
  return publishZip(artifacts, download, entries, signal);
}

/** Zips `entries` where the artifact store stages `download`, then publishes the zip whole; returns its size. */
export async function publishZip(artifacts: ArtifactStore, download: string, entries: readonly ZipEntry[], signal?: AbortSignal): Promise<number> {
  const staged = await artifacts.stagingPath(download);
  await writeZip(staged, entries, signal);
  return artifacts.publish(staged, download);
}

/** The export's one file, published as it is. */
async function publishBare(artifacts: ArtifactStore, download: string, files: string[]): Promise<number> {
  // The request was checked: bindZip false only for formats whose export is one file.
  const [file] = files;
  if (file === undefined || files.length !== 1) throw new Error(`a bare export must be one file; the writer made ${files.length}`);
  return artifacts.publish(file, download);
}

async function writeFeatures(
  data: FeatureSnapshot,
  area: AreaFilter,
  params: ExportParams,
  plan: ExportPlan,
  work: string,
  fileName: string,
  options: SnapshotOptions,
): Promise<{ files: string[]; features: number }> {
  const { files, features } = await writeFormats(data, area, plan, [{ format: params.outputType ?? "geojson", baseName: fileName }], work, options);
  return { files: files[0]!, features };
}

/** One file (or set of files, for a shapefile) an export writes, in this format and under this sanitised name. */
export interface FormatFile {
  format: ExportFormat;
  baseName: string;
}

/**
 * Streams the plan's matches into one writer per format (one query, however many formats) and
 * finishes them: the files of each, in the order given. On failure every writer is aborted.
 */
export async function writeFormats(
  data: FeatureSnapshot,
  area: AreaFilter,
  plan: ExportPlan,
  outputs: readonly FormatFile[],
  work: string,
  options: Pick<SnapshotOptions, "onProgress" | "signal">,
): Promise<{ files: string[][]; features: number }> {
  const writers: ExportWriter[] = [];
  try {
    for (const { format, baseName } of outputs) writers.push(await createWriter(format, work, baseName, { columns: plan.columns, oneGeometryKind: plan.oneGeometryKind }));
    const features = await writeMatches(data, area, plan, writers, options);
    const files: string[][] = [];
    for (const writer of writers) files.push(await writer.finish());
    return { files, features };
  } catch (error) {
    await Promise.all(writers.map((writer) => writer.abort()));
    throw error;
  }
}

/** Streams the plan's matches into every writer; returns how many features each got. */
async function writeMatches(
  data: FeatureSnapshot,
  area: AreaFilter,
  plan: ExportPlan,
  writers: readonly ExportWriter[],
  options: Pick<SnapshotOptions, "onProgress" | "signal">,
): Promise<number> {
  const queries = plan.parts.flatMap((part) => part.tables.map((table) => ({ part, table })));
  const counts = await Promise.all(queries.map(({ part, table }) => data.countCandidates(table, area, { tags: part.tags, relation: plan.relation, geometry: part.kind })));
  const total = counts.reduce((sum, count) => sum + count, 0);
  let read = 0;
  let lastPercent = -1;
  const onRead = () => {
    read++;
    const percent = total === 0 ? WRITING_SHARE : Math.floor((read / total) * WRITING_SHARE);
    if (percent !== lastPercent) options.onProgress?.((lastPercent = percent));
  };
  let features = 0;
  for await (const feature of planMatches(data, area, plan, onRead)) {
    for (const writer of writers) await writer.write(feature);
    if (++features % FEATURES_PER_TURN === 0) {
      await yieldToEventLoop();
      options.signal?.throwIfAborted();
    }
  }
  return features;
}

/** The zip's Readme.txt: what was asked (`request`, as JSON), how many features came, and the data's licence. */
export function readme(request: unknown, features: number, stats?: AreaStats): string {
  return [
    "Exported by basemodel's reference server (raw data export API).",
    `Export time (UTC): ${new Date().toISOString()}`,
    `Features: ${features}`,
    "",
    "Request:",
    JSON.stringify(request, null, 2),
    "",
    ...(stats ? ["About the area:", stats.summary.buildings, stats.summary.roads, stats.meta.description, ""] : []),
    "Data © OpenStreetMap contributors, available under the Open Database License (ODbL) 1.0:",
    "https://opendatacommons.org/licenses/odbl/1-0/",
    "Individual contents of the database are licensed under the Database Contents License (DbCL) 1.0.",
    "",
  ].join("\r\n");
}
