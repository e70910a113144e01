/**
 * Words for the regular expressions and formats of the official STAC schemas. A person reading
 * "must match ^(0|[1-9]\d*)\.(0|[1-9]\d*)…" learns less than "a semantic version such as 2.1.0".
 */

const SEMVER = "^(0|[1-9]\\d*)\\.(0|[1-9]\\d*)\\.(0|[1-9]\\d*)";

const PATTERN_WORDS: ReadonlyArray<[test: (pattern: string) => boolean, words: string]> = [
  [(pattern) => pattern.startsWith(SEMVER), "a semantic version such as 2.5.1 (major.minor.patch, optionally -prerelease or +build)"],
  [(pattern) => pattern === "(\\+00:00|Z)$", "a time in UTC, ending in Z or +00:00"],
  [(pattern) => pattern === "^[0-9A-Za-z-_]+$", "a name of letters, digits, - and _ only"],
  [(pattern) => pattern === "^[a-zA-Z][a-zA-Z0-9_.\\-\\s]+[a-zA-Z0-9]$", "a name that starts with a letter, ends with a letter or digit, and holds only letters, digits, spaces, _, . and -"],
  [(pattern) => pattern === "^[a-z-_]+$", "lower-case letters, - and _ only"],
  [(pattern) => pattern === "^[A-Z]+$", "upper-case letters only (an HTTP method such as GET)"],
  [(pattern) => pattern === "^(?=[^\\s._\\-]).*[^\\s._\\-]$", "a name that neither starts nor ends with a space, ., _ or -"],
];

/** "must be <words>" for a pattern, or undefined when the pattern has no words of its own. */
export function patternWords(pattern: string): string | undefined {
  return PATTERN_WORDS.find(([test]) => test(pattern))?.[1];
}

const FORMAT_WORDS: Readonly<Record<string, string>> = {
  "date-time": "a date and time in RFC 3339 form, such as 2025-11-02T08:15:00Z",
};

export function formatWords(format: string): string {
  return FORMAT_WORDS[format] ?? `a valid ${format}`;
}
