/**
 * GET /history/: the history of exports, this server's own route (raw-data-api keeps none: its
 * task metadata is "ephemeral", raw-data-api #300). Each export's state, area, formats, files and
 * the request that made it, so that a page can show it, draw it and run it again.
 */
import { CUSTOM_TYPES } from "./custom.js";
import { EXPORT_FORMATS } from "../formats/types.js";
import { SNAPSHOT_GEOMETRY_TYPES, UUID_PATTERN } from "./snapshot.js";
import { TASK_STATES } from "./tasks.js";
import type { Answer, Request } from "./wire.js";

export const DEFAULT_HISTORY_LIMIT = 50;
export const MAX_HISTORY_LIMIT = 500;

export const historyQuerySchema = {
  $id: "HistoryQuery",
  type: "object",
  properties: {
    // A query string is text: the number is its digits (the server does not coerce types), checked by the route.
    limit: { type: "string", maxLength: 20, default: String(DEFAULT_HISTORY_LIMIT), description: `How many exports at most: a whole number from 1 to ${MAX_HISTORY_LIMIT}`, examples: ["20"] },
    before: { type: "string", pattern: UUID_PATTERN, description: "Only the exports queued before this one: the id of the last export of a page, for the next page" },
  },
} as const;

export type HistoryQuery = Request<typeof historyQuerySchema>;

const time = (description: string) => ({ type: ["string", "null"], description: `${description}: ISO 8601, UTC` }) as const;

export const exportHistoryEntrySchema = {
  $id: "ExportHistoryEntry",
  description: "One export: its task's state, what it was asked for, what it published, and the request that made it",
  type: "object",
  required: ["id", "kind", "status", "progress", "createdAt", "startedAt", "finishedAt", "area", "iso3", "formats", "geometryTypes", "categories", "fileName", "files", "size", "expired", "error", "request"],
  additionalProperties: false,
  properties: {
    id: { type: "string", pattern: UUID_PATTERN, description: "The task id (GET /latest/tasks/status/{task_id}/)" },
    kind: { enum: ["snapshot", "custom"], description: "snapshot: POST /snapshot/; custom: POST /custom/snapshot/ (or its YAML route)" },
    status: { enum: TASK_STATES },
    progress: { type: "integer", minimum: 0, maximum: 100 },
    createdAt: { type: "string", description: "When it was queued: ISO 8601, UTC" },
    startedAt: time("When its last run started; null before"),
    finishedAt: time("When it ended (SUCCESS, FAILURE or REVOKED); null before"),
    area: {
      type: ["object", "null"],
      description: "The area as the request gave it, to draw on a map: a GeoJSON Polygon or MultiPolygon, or a Feature or FeatureCollection of them; null for a custom export of a country (iso3)",
    },
    iso3: { type: ["string", "null"], description: "The country of a custom export by iso3, as the request gave it; null otherwise" },
    formats: { type: "array", items: { enum: EXPORT_FORMATS }, description: "The formats asked for" },
    geometryTypes: {
      type: ["array", "null"],
      items: { enum: SNAPSHOT_GEOMETRY_TYPES },
      description: "A snapshot's geometryType as asked; null for all of them, and for a custom export (its categories say)",
    },
    categories: {
      type: ["array", "null"],
      description: "A custom export's categories; null for a snapshot",
      items: {
        type: "object",
        required: ["name", "types", "formats"],
        additionalProperties: false,
        properties: { name: { type: "string" }, types: { type: "array", items: { enum: CUSTOM_TYPES } }, formats: { type: "array", items: { enum: EXPORT_FORMATS } } },
      },
    },
    fileName: { type: "string", description: "A snapshot's file name as its files are named (sanitised), or a custom export's dataset prefix" },
    files: {
      type: "array",
      description: "What it published, once SUCCESS (empty before): a snapshot's one file, a custom export's zips",
      items: {
        type: "object",
        required: ["name", "format", "category", "size", "features", "url"],
        additionalProperties: false,
        properties: {
          name: { type: "string" },
          format: { enum: EXPORT_FORMATS },
          category: { type: ["string", "null"], description: "The custom export's category the zip is of; null for a snapshot" },
          size: { type: "integer", minimum: 0, description: "Bytes of the file" },
          features: { type: "integer", minimum: 0, description: "Features in it: 0 for an area that holds none of those asked for" },
          url: { type: ["string", "null"], description: "Where to download it; null once it is deleted (expired)" },
        },
      },
    },
    size: { type: ["integer", "null"], minimum: 0, description: "Bytes of all its files, once SUCCESS; null before" },
    expired: { type: "boolean", description: "True when its files were deleted (after --export-max-age, or by hand) while the export is still remembered: nothing to download, run it again" },
    error: { type: ["string", "null"], description: "One line: why it failed (FAILURE); null otherwise" },
    request: {
      type: "object",
      description: "The request that made it, as it was sent: POST `body` (JSON) to `path` again to run it again",
      required: ["method", "path", "body"],
      additionalProperties: false,
      properties: { method: { const: "POST" }, path: { type: "string", description: "e.g. /latest/snapshot/" }, body: { description: "The body as sent, unknown members included" } },
    },
  },
} as const;

export const exportHistorySchema = {
  $id: "ExportHistory",
  description: "Exports, newest first",
  type: "object",
  required: ["exports", "hasMore"],
  additionalProperties: false,
  properties: {
    exports: { type: "array", items: { $ref: "ExportHistoryEntry#" } },
    hasMore: { type: "boolean", description: "Older exports are left: ask again with before=<the id of the last one>" },
  },
} as const;

export type ExportHistoryEntry = Answer<typeof exportHistoryEntrySchema>;
export type ExportHistory = Answer<typeof exportHistorySchema, [typeof exportHistoryEntrySchema]>;
