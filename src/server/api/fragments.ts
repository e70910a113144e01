/** Schema parts several requests and answers share; not published on their own. */
import { EXAMPLE_RING } from "./examples.js";
import { MAX_DATE_LENGTH, MAX_PAGE, MAX_PAGE_REASON, MAX_TAG_LENGTH } from "./limits.js";

export const DEFAULT_PAGE_SIZE = 1000;
export const MAX_PAGE_SIZE = 5000;

export const nullableString = { type: ["string", "null"] } as const;
export const nullableInteger = { type: ["integer", "null"] } as const;

/** A ring of "lon lat" pairs, as src/server/http/area.ts reads it. */
export const areaRingSchema = {
  type: "string",
  description: 'A closed ring: "lon lat, lon lat, ..." (the last pair repeats the first); absent = everywhere',
  examples: [EXAMPLE_RING],
} as const;

export const pagingProperties = {
  page: {
    type: "integer",
    minimum: 0,
    maximum: MAX_PAGE,
    default: 0,
    description: `0-based page number, at most ${MAX_PAGE}: ${MAX_PAGE_REASON}`,
    // Said again by the 422 for a larger page (src/server/http/problems.ts).
    "x-bound-reason": MAX_PAGE_REASON,
  },
  pageSize: { type: "integer", minimum: 1, maximum: MAX_PAGE_SIZE, default: DEFAULT_PAGE_SIZE },
} as const;

/** An ISO 8601 date-time in a request. */
export const dateTimeText = { type: "string", maxLength: MAX_DATE_LENGTH } as const;

/** A tag key, a tag value or a hashtag in a request. */
export const tagText = { type: "string", maxLength: MAX_TAG_LENGTH } as const;
