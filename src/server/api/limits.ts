/**
 * The bounds every request is held to, so that no one request can make the server build a huge
 * answer or hold its event loop for long. The request schemas state them (a request past one is
 * a 422 that names the member and the bound), and so does the OpenAPI document.
 */

/**
 * Items of any list in a request: `select`, `where` and each condition's values, the keys of a
 * `filters.tags` entry and each key's values, the tag keys of a `filters.attributes` entry,
 * the terms of a /raw `tags` string, report `hashtags`.
 */
export const MAX_LIST_ITEMS = 100;

/** Characters of a tag key, a tag value or a hashtag: OpenStreetMap's own limit for keys and values. */
export const MAX_TAG_LENGTH = 255;

/** Characters of a date-time ("2025-01-10T10:15:00.123456+01:00" is 32). */
export const MAX_DATE_LENGTH = 64;

/** Levels of arrays and objects in a body; the deepest request (a MultiPolygon's coordinates) needs 6. */
export const MAX_BODY_DEPTH = 32;

/**
 * The largest page number. page × pageSize (at most 5,000) must stay below 2^53, the largest
 * integer a JSON number holds exactly and so the largest row offset the server can count.
 */
export const MAX_PAGE = 1_000_000_000_000;

/** Why MAX_PAGE is what it is, for the 422 that refuses a larger page. */
export const MAX_PAGE_REASON = "page × pageSize, the rows skipped, must stay below 2^53, the largest integer the server counts exactly";

/** Bytes of a /snapshot/plain/ answer; a larger one is a 422 that points to /snapshot/, as too many features is. */
export const MAX_PLAIN_ANSWER_BYTES = 16 * 1024 * 1024;
