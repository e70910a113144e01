/**
 * The bounds every request is held to, so that no one request can make the server build a huge
 * answer or hold its event loop for long. A request past one is a 422 that names the member and
 * the bound. The request schemas state those of members, and so does the OpenAPI document; those
 * of a body's shape (depth, members of one object, YAML tokens) are checked before any schema.
 */

/**
 * Items of any list in a request: `select`, `where` and each condition's values, the keys of a
 * `filters.tags` entry and each key's values, the tag keys of a `filters.attributes` entry,
 * the terms of a /raw `tags` string, report `hashtags`.
 */
export const MAX_LIST_ITEMS = 100;

/** Problems one 422 lists; past them, a last entry says there are more (type too_many_problems). */
export const MAX_PROBLEMS = 100;

/** Characters of a tag key, a tag value or a hashtag: OpenStreetMap's own limit for keys and values. */
export const MAX_TAG_LENGTH = 255;

/** Characters of a date-time ("2025-01-10T10:15:00.123456+01:00" is 32). */
export const MAX_DATE_LENGTH = 64;

/** Levels of arrays and objects in a body; the deepest request (a MultiPolygon's coordinates) needs 6. */
export const MAX_BODY_DEPTH = 32;

/**
 * Tokens of a YAML body that is not JSON (keys, values and the marks that open them: `-`, `:`,
 * brackets): enough for any configuration written by hand, and little enough that the YAML
 * reader, far slower than JSON's, reads it in milliseconds. A larger request goes as JSON.
 */
export const MAX_YAML_TOKENS = 10_000;

/** Members of one object in a body; the widest of a request (a filter's tag keys) hold at most MAX_LIST_ITEMS. */
export const MAX_OBJECT_MEMBERS = 1000;

/**
 * The largest page number. page × pageSize (at most 5,000) must stay below 2^53, the largest
 * integer a JSON number holds exactly and so the largest row offset the server can count.
 */
export const MAX_PAGE = 1_000_000_000_000;

/** Why MAX_PAGE is what it is, for the 422 that refuses a larger page. */
export const MAX_PAGE_REASON = "page × pageSize, the rows skipped, must stay below 2^53, the largest integer the server counts exactly";

/** Bytes of a /snapshot/plain/ answer; a larger one is a 422 that points to /snapshot/, as too many features is. */
export const MAX_PLAIN_ANSWER_BYTES = 16 * 1024 * 1024;
