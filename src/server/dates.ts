/**
 * Dates in request bodies: ISO 8601 date-times without a zone, read as UTC (as the feature query
 * API's clients send them), or with `Z`; a date alone means its midnight. Answers the store's own
 * form ("2025-01-10T10:15:00Z"), which orders as text the way the times do.
 */
import { formatOsmTimestamp } from "../osm/types.js";
import { problem } from "./problems.js";

const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?)?Z?$/;

export function parseUtcDateTime(text: string, loc: Array<string | number>): string {
  const match = DATE_TIME.exec(text.trim());
  const [year, month, day, hour, minute, second] = (match?.slice(1) ?? []).map((part) => (part === undefined ? 0 : Number(part)));
  const ms = Date.UTC(year!, month! - 1, day!, hour!, minute!, second!);
  // Date.UTC rolls 2025-02-30 over into March: a date that does not exist is a mistake, not March.
  const valid = match !== null && new Date(ms).getUTCDate() === day && new Date(ms).getUTCMonth() === month! - 1 && hour! < 24 && minute! < 60 && second! < 60;
  if (!valid) throw problem(loc, `${JSON.stringify(text)} is not a date-time; write it as ISO 8601, e.g. "2025-01-10T10:15:00" (read as UTC) or "2025-01-10"`);
  return formatOsmTimestamp(ms);
}
