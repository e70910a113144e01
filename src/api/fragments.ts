/** Schema parts the feature query API's requests and answers share; not published on their own. */

export const DEFAULT_PAGE_SIZE = 1000;
export const MAX_PAGE_SIZE = 5000;

export const nullableString = { type: ["string", "null"] } as const;
export const nullableInteger = { type: ["integer", "null"] } as const;

/** A ring of "lon lat" pairs, as src/server/area.ts reads it. */
export const areaRingSchema = {
  type: "string",
  description: 'A closed ring: "lon lat, lon lat, ..." (the last pair repeats the first); absent = everywhere',
  examples: ["7.4186 43.7302, 7.4316 43.7302, 7.4316 43.7392, 7.4186 43.7392, 7.4186 43.7302"],
} as const;

export const pagingProperties = {
  page: { type: "integer", minimum: 0, default: 0, description: "0-based page number" },
  pageSize: { type: "integer", minimum: 1, maximum: MAX_PAGE_SIZE, default: DEFAULT_PAGE_SIZE },
} as const;
