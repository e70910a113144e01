/**
 * The server's history of exports (GET /history/), newest first, kept across restarts. Its shape
 * is read here alone: the rest of the page sees `HistoryEntry`.
 */
import type { ExportHistory, ExportHistoryEntry } from "basemodel/api";
import { getJson } from "../../shared/http.js";
import type { ExportRequest } from "../export/request.js";

export const HISTORY_PATH = "/history/";

/** How many of the newest exports the panel lists. */
const LIMIT = 50;

export interface HistoryEntry {
  id: string;
  status: string;
  createdAt: Date;
  /** The area as the request gave it (GeoJSON), or null for a country's custom export. */
  area: unknown;
  iso3: string | null;
  formats: string[];
  fileName: string;
  /** What it published, once done; `url` null once deleted. */
  files: ExportHistoryEntry["files"];
  size: number | undefined;
  error: string | undefined;
  /** The request as it was sent, to run again. */
  request: ExportRequest;
}

/** The body again as it was sent: JSON, which the YAML route reads too (JSON is YAML). */
function requestOf(sent: ExportHistoryEntry["request"]): ExportRequest {
  return { path: sent.path, contentType: sent.path.endsWith("/yaml/") ? "application/yaml" : "application/json", body: JSON.stringify(sent.body), headers: {} };
}

function entryOf(wire: ExportHistoryEntry): HistoryEntry {
  return {
    id: wire.id,
    status: wire.status,
    createdAt: new Date(wire.createdAt),
    area: wire.area,
    iso3: wire.iso3,
    formats: wire.formats,
    fileName: wire.fileName,
    files: wire.files,
    size: wire.size ?? undefined,
    error: wire.error ?? undefined,
    request: requestOf(wire.request),
  };
}

/** The newest exports; `accessToken` for a server with a users file. */
export async function readHistory(accessToken: string): Promise<HistoryEntry[]> {
  const { exports } = await getJson<ExportHistory>(`${HISTORY_PATH}?limit=${LIMIT}`, undefined, accessToken === "" ? {} : { "access-token": accessToken });
  return exports.map(entryOf);
}
