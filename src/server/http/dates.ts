/**
 * Dates in request bodies: ISO 8601 date-times without a zone, read as UTC (as the feature query
 * API's clients send them), or with `Z` or an offset such as `+01:00`. A date alone is the whole
 * day: its first second as a lower bound, its last as an upper one. Answers the store's own form ("2025-01-10T10:15:00Z"), which orders as text the way
 * the times do. And the times of answers, as upstream writes them.
 */
import { formatOsmTimestamp } from "../../model/osm.js";
import { problem } from "./problems.js";

const DATE_TIME =
  /^(?<year>\d{4})-(?<month>\d{2})-(?<day>\d{2})(?:[T ](?<hour>\d{2}):(?<minute>\d{2})(?::(?<second>\d{2})(?:\.\d+)?)?)?(?:Z|(?<sign>[+-])(?<offsetHours>\d{2}):?(?<offsetMinutes>\d{2}))?$/;

export function parseUtcDateTime(text: string, loc: Array<string | number>, bound: "from" | "to" = "from"): string {
  const match = DATE_TIME.exec(text.trim());
  const part = (name: string): number => Number(match?.groups?.[name] ?? 0);
  const [year, month, day, hour, minute, second, offsetHours, offsetMinutes] = ["year", "month", "day", "hour", "minute", "second", "offsetHours", "offsetMinutes"].map(part);
  const ms = Date.UTC(year!, month! - 1, day!, hour!, minute!, second!);
  // Date.UTC rolls 2025-02-30 over into March: a date that does not exist is a mistake, not March.
  const valid =
    match !== null &&
    new Date(ms).getUTCDate() === day &&
    new Date(ms).getUTCMonth() === month! - 1 &&
    hour! < 24 &&
    minute! < 60 &&
    second! < 60 &&
    offsetHours! < 24 &&
    offsetMinutes! < 60;
  if (!valid) throw problem(loc, `${JSON.stringify(text)} is not a date-time; write it as ISO 8601, e.g. "2025-01-10T10:15:00" (read as UTC) or "2025-01-10"`);
  const offsetMs = (match.groups?.["sign"] === "-" ? -1 : 1) * (offsetHours! * 60 + offsetMinutes!) * 60_000;
  const endOfDay = bound === "to" && match.groups?.["hour"] === undefined ? 86_399_000 : 0;
  return formatOsmTimestamp(ms - offsetMs + endOfDay);
}

/** Upstream's times in answers: UTC without the zone, as Python's isoformat() and PostgreSQL's `timestamp` write them. */
export function zonelessTime(iso: string): string {
  return iso.replace(/Z$/, "");
}
