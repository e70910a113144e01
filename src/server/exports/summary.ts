/**
 * What the history of exports keeps of an export beside its task's state (the queue's history
 * entry, src/server/tasks/queue.ts): the request as it was sent, to run it again, and what a list
 * of exports shows of it, read once from the checked request, as the payload is dropped when the
 * task ends.
 */
import type { CustomType } from "../api/custom.js";
import type { SnapshotGeometryType } from "../api/snapshot.js";
import type { ExportFormat } from "../formats/types.js";
import type { CustomExportJob } from "./custom.js";
import { sanitizeFileName } from "./file-name.js";
import type { ExportParams } from "./request.js";

/** A POST as the client sent it: the route's path and the body, before any member was renamed. */
export interface SentRequest {
  path: string;
  body: unknown;
}

export interface ExportSummary {
  kind: "snapshot" | "custom";
  request: SentRequest;
  formats: ExportFormat[];
  /** A snapshot's geometryType; null: all of them (and for a custom export). */
  geometryTypes: SnapshotGeometryType[] | null;
  /** A custom export's categories; null for a snapshot. */
  categories: Array<{ name: string; types: CustomType[]; formats: ExportFormat[] }> | null;
  /** The name the files are named by: a snapshot's (sanitised), a custom export's dataset prefix. */
  fileName: string;
}

export function snapshotSummary(params: ExportParams, request: SentRequest): ExportSummary {
  return { kind: "snapshot", request, formats: [params.outputType ?? "geojson"], geometryTypes: params.geometryType ?? null, categories: null, fileName: sanitizeFileName(params.fileName) };
}

export function customSummary(job: CustomExportJob, request: SentRequest): ExportSummary {
  const categories = job.categories.map(({ name, types, formats }) => ({ name, types, formats }));
  return { kind: "custom", request, formats: [...new Set(categories.flatMap(({ formats }) => formats))], geometryTypes: null, categories, fileName: job.prefix };
}
