/** Words for values, types and lists, which every message uses; and the making of an issue. */
import type { Issue, RuleId } from "./issue.js";
import { ruleById } from "./rules.js";
import { closest } from "./suggest.js";

const PREVIEW_LENGTH = 60;
const PREVIEW_DEPTH = 3;

/**
 * A short JSON-like rendering of a value. It stops at PREVIEW_LENGTH characters and PREVIEW_DEPTH
 * levels, so that a huge, deeply nested or circular value costs little and cannot overflow the stack.
 */
export function preview(value: unknown): string {
  let out = "";
  const write = (node: unknown, depth: number): void => {
    if (out.length > PREVIEW_LENGTH) return;
    if (typeof node === "string") out += JSON.stringify(node.slice(0, PREVIEW_LENGTH + 1));
    else if (node === null || typeof node !== "object") out += String(node);
    else if (depth === PREVIEW_DEPTH) out += Array.isArray(node) ? "[…]" : "{…}";
    else if (Array.isArray(node)) {
      out += "[";
      for (let i = 0; i < node.length && out.length <= PREVIEW_LENGTH; i++) {
        if (i > 0) out += ",";
        write(node[i], depth + 1);
      }
      out += "]";
    } else {
      out += "{";
      let first = true;
      for (const key in node) {
        if (out.length > PREVIEW_LENGTH) break;
        out += `${first ? "" : ","}${JSON.stringify(key)}:`;
        first = false;
        write((node as Record<string, unknown>)[key], depth + 1);
      }
      out += "}";
    }
  };
  write(value, 0);
  return out.length > PREVIEW_LENGTH ? `${out.slice(0, PREVIEW_LENGTH - 1)}…` : out;
}

/** "a string ("yes")", "an array of 2 items", "null": what a person needs to recognise the value. */
export function describeValue(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return value.length === 0 ? "an empty array" : `an array of ${value.length} item${value.length === 1 ? "" : "s"}`;
  switch (typeof value) {
    case "string":
      return value === "" ? "an empty string" : `a string (${preview(value)})`;
    case "number":
      return `a number (${value})`;
    case "boolean":
      return `a boolean (${value})`;
    case "object":
      return "an object";
    default:
      return String(value);
  }
}

/** Primitive values are kept as they are; arrays and objects as a short preview. */
export function actualOf(value: unknown): unknown {
  return value !== null && typeof value === "object" ? preview(value) : value;
}

const TYPE_WORDS: Record<string, string> = {
  string: "a string",
  number: "a number",
  integer: "an integer",
  boolean: "a boolean",
  array: "an array",
  object: "an object",
  null: "null",
};

export function typeWords(types: string): string {
  return types
    .split(",")
    .map((type) => TYPE_WORDS[type] ?? type)
    .join(" or ");
}

export function quoteList(values: readonly unknown[]): string {
  return values.map((value) => JSON.stringify(value)).join(", ");
}

/** "a", "a and b", "a, b and c". */
export function wordList(words: readonly string[]): string {
  return words.length <= 2 ? words.join(" and ") : `${words.slice(0, -1).join(", ")} and ${words.at(-1)}`;
}

export function suggestionFor(found: unknown, allowed: readonly unknown[]): string | undefined {
  if (typeof found !== "string") return undefined;
  const match = closest(found, allowed.filter((value): value is string => typeof value === "string"));
  return match === undefined ? undefined : `did you mean ${JSON.stringify(match)}?`;
}

/** The entry of stac_extensions that is a near miss of the schema identifier (a version or scheme typo), if any. */
export function schemaUrlNearMiss(listed: readonly string[], schemaUrl: string): string | undefined {
  return closest(schemaUrl, listed, 3);
}

export function issue(rule: RuleId, path: string, message: string, extra: Partial<Issue> = {}): Issue {
  const result: Issue = { rule, severity: ruleById(rule).severity, path, message };
  if ("expected" in extra) result.expected = extra.expected;
  if ("actual" in extra) result.actual = extra.actual;
  if (extra.suggestion !== undefined) result.suggestion = extra.suggestion;
  if (extra.schema !== undefined) result.schema = extra.schema;
  return result;
}
