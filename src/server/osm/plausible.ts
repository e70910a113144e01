/**
 * What OSM data must be beyond its syntax, for the importer and `basemodel update` alike: ids
 * are positive whole numbers (an editor numbers the objects it has not uploaded yet -1, -2, ...:
 * such a file is a draft, not data), and no object, changeset or file is dated after tomorrow
 * (the data's time is what /status/ reports; a day allows for clocks that run ahead).
 */

/** How far past the present a time may lie. */
export const FUTURE_TOLERANCE_MS = 24 * 60 * 60 * 1000;

/** Why `id` cannot be an OSM id (of an object or a changeset), or null when it can. */
export function idProblem(id: number): string | null {
  if (!Number.isSafeInteger(id)) return "an id is an integer below 2^53";
  if (id < 0) return "negative ids are an editor's placeholders for objects not uploaded yet";
  if (id === 0) return "ids start at 1";
  return null;
}

/** The latest time (epoch milliseconds) data read now may carry. */
export function latestPlausibleTime(now = Date.now()): number {
  return now + FUTURE_TOLERANCE_MS;
}
