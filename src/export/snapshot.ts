/**
 * One snapshot export, start to finish: query the store part by part (request -> query ->
 * write), stream the features into the format's writer, then zip the files beside the
 * clipping boundary and a Readme. Works in a hidden folder of its own and publishes only the
 * finished zip, so a crash at any point leaves nothing a client can download, and running the
 * same task again starts clean.
 */
import { mkdir, readdir, rm, stat } from "node:fs/promises";
import { basename, join } from "node:path";
import { setImmediate as yieldToEventLoop } from "node:timers/promises";
import type { SnapshotParams } from "../api/snapshot.js";
import { areaKm2 } from "../geometry/area.js";
import { prepareArea, type PreparedArea } from "../geometry/geos.js";
import { tableMatches } from "../query/find.js";
import type { FeatureSnapshot, FeatureStore } from "../store/store.js";
import { sanitizeFileName } from "./file-name.js";
import { createWriter, type ExportWriter } from "./index.js";
import { planExport, type ExportPlan } from "./plan.js";
import { PARTIAL_SUFFIX, writeZip } from "./zip.js";

export interface SnapshotOutcome {
  /** The zip's file name in the export directory. */
  zipName: string;
  /** The sanitised name of the export's files. */
  fileName: string;
  features: number;
  areaKm2: number;
  /** Bytes of the exported files before zipping. */
  fileBytes: number;
  zipBytes: number;
  /** From the start of the export to the zip in place. */
  seconds: number;
}

export interface SnapshotOptions {
  /** Where the zip is published. */
  directory: string;
  /** Names the zip, as the real service does: `<fileName>_<outputType>_uid_<taskId>.zip`. */
  taskId: string;
  /** 0-100 */
  onProgress?: (percent: number) => void;
  signal?: AbortSignal;
}

/** Share of the progress bar for the queries and writing; the zip gets the rest. */
const WRITING_SHARE = 90;
/** Features written between two turns of the event loop: an export must not starve the HTTP server. */
const FEATURES_PER_TURN = 256;

/** An export's work folder: a dot folder, hidden from the download route. */
const WORK_FOLDER = /^\..+\.zip\.work$/;

function zipNameOf(fileName: string, outputType: string, taskId: string): string {
  return `${fileName}_${outputType}_uid_${taskId}.zip`;
}

export async function exportSnapshot(store: FeatureStore, params: SnapshotParams, options: SnapshotOptions): Promise<SnapshotOutcome> {
  const started = performance.now();
  const outputType = params.outputType ?? "geojson";
  const fileName = sanitizeFileName(params.fileName);
  const zipName = zipNameOf(fileName, outputType, options.taskId);
  // Removed first in case a crash left it.
  const work = join(options.directory, `.${zipName}.work`);
  await rm(work, { recursive: true, force: true });
  await mkdir(work, { recursive: true });
  try {
    const plan = planExport(params);
    const { files, features } = await writeFeatures(store, params, plan, work, fileName, options);
    const fileBytes = (await Promise.all(files.map((file) => stat(file)))).reduce((sum, file) => sum + file.size, 0);
    const zipBytes = await writeZip(
      join(options.directory, zipName),
      [
        ...files.map((path) => ({ name: basename(path), path })),
        { name: "clipping_boundary.geojson", content: JSON.stringify(params.geometry) + "\n" },
        { name: "Readme.txt", content: readme(params, features) },
      ],
      options.signal,
    );
    options.onProgress?.(100);
    return { zipName, fileName, features, areaKm2: areaKm2(params.geometry), fileBytes, zipBytes, seconds: (performance.now() - started) / 1000 };
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

/**
 * Removes what exports that never finished left in `directory` (work folders, partial zips),
 * when a process died in the middle of them. Only while no export runs there.
 */
export async function removeUnfinishedExports(directory: string): Promise<void> {
  for (const name of await readdir(directory)) {
    if (WORK_FOLDER.test(name) || name.endsWith(`.zip${PARTIAL_SUFFIX}`)) await rm(join(directory, name), { recursive: true, force: true });
  }
}

async function writeFeatures(
  store: FeatureStore,
  params: SnapshotParams,
  plan: ExportPlan,
  work: string,
  fileName: string,
  options: SnapshotOptions,
): Promise<{ files: string[]; features: number }> {
  const area = await prepareArea(params.geometry);
  try {
    // Every table as of one moment, whatever `basemodel update` commits while the export runs.
    const data = await store.snapshot();
    try {
      const writer = await createWriter(params.outputType ?? "geojson", work, fileName, { columns: plan.columns });
      try {
        return await writeMatches(data, area, plan, writer, options);
      } catch (error) {
        await writer.abort();
        throw error;
      }
    } finally {
      await data.close();
    }
  } finally {
    area.dispose();
  }
}

/** Streams the plan's matches into `writer` and finishes it. */
async function writeMatches(
  data: FeatureSnapshot,
  area: PreparedArea,
  plan: ExportPlan,
  writer: ExportWriter,
  options: SnapshotOptions,
): Promise<{ files: string[]; features: number }> {
  const queries = plan.parts.flatMap((part) => part.tables.map((table) => ({ part, table })));
  const counts = await Promise.all(queries.map(({ part, table }) => data.countCandidates(table, area.bbox, { tags: part.tags })));
  const total = counts.reduce((sum, count) => sum + count, 0);
  let read = 0;
  let lastPercent = -1;
  const onCandidate = () => {
    read++;
    const percent = total === 0 ? WRITING_SHARE : Math.floor((read / total) * WRITING_SHARE);
    if (percent !== lastPercent) options.onProgress?.((lastPercent = percent));
  };
  let features = 0;
  for (const { part, table } of queries) {
    for await (const { feature } of tableMatches(data, { area, tags: part.tags, geometry: part.kind }, table, "id", onCandidate)) {
      await writer.write({ geometry: feature.geometry, properties: part.properties(feature) });
      if (++features % FEATURES_PER_TURN === 0) {
        await yieldToEventLoop();
        options.signal?.throwIfAborted();
      }
    }
  }
  return { files: await writer.finish(), features };
}

function readme(params: SnapshotParams, features: number): string {
  return [
    "Exported by basemodel's reference server (raw data export API).",
    `Export time (UTC): ${new Date().toISOString()}`,
    `Features: ${features}`,
    "",
    "Request:",
    JSON.stringify(params, null, 2),
    "",
    "Data © OpenStreetMap contributors, available under the Open Database License (ODbL) 1.0:",
    "https://opendatacommons.org/licenses/odbl/1-0/",
    "Individual contents of the database are licensed under the Database Contents License (DbCL) 1.0.",
    "",
  ].join("\r\n");
}
