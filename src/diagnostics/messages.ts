import type { ErrorObject } from "ajv";

import type { Issue, RuleId, Severity } from "./issue.js";
import { claimNearMisses } from "./near-miss.js";
import { describePointer, joinPointer, valueAt } from "./pointer.js";
import { ruleById } from "./rules.js";
import { closest } from "./suggest.js";

/** What the messages read of an Ajv error. */
export type SchemaError = Pick<ErrorObject, "instancePath" | "schemaPath" | "keyword" | "params">;

export interface MessageContext {
  schemaUrl: string;
  /** The prefixed properties the schema defines, e.g. ["fair:metrics_spec", "fair:split_spec"]. */
  definedPrefixed: readonly string[];
  /** How the rule set reports a prefixed property it does not define. */
  undefinedPrefixed: Severity;
  /** The rule set's likely fixes, by "<rule id> <path>", for issues without a suggestion of their own. */
  suggestions: Readonly<Record<string, string>>;
  /** The members the schema defines for the object at an instance pointer: never taken for misspellings. */
  membersAt: (pointer: string) => ReadonlySet<string>;
}

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

/** Patterns of the rule sets, in words. */
const PATTERN_WORDS: Record<string, string> = {
  "^https?://": "an http(s) URL, starting with http:// or https://",
};

/** Bounds of numbers: inclusive ones are the rule sets' ranges, exclusive ones split_spec's and the learning rate's. */
const BOUNDS: Record<string, { rule: RuleId; words: string }> = {
  minimum: { rule: "range", words: "at least" },
  maximum: { rule: "range", words: "at most" },
  exclusiveMinimum: { rule: "exclusive-range", words: "greater than" },
  exclusiveMaximum: { rule: "exclusive-range", words: "less than" },
};

/** Formats of the rule sets, in words. */
const FORMAT_WORDS: Record<string, string> = {
  uri: 'an absolute URI such as "https://www.hotosm.org"',
};

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

function describeError(error: SchemaError, data: unknown, context: MessageContext): Issue {
  const path = error.instancePath;
  const where = describePointer(path);
  const value = valueAt(data, path);
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case "required": {
      const missing = String(params.missingProperty);
      return issue("required", joinPointer(path, missing), `${JSON.stringify(missing)} is missing from ${where}`, {
        expected: missing,
      });
    }
    case "type": {
      const expected = String(params.type);
      return issue("type", path, `${where} must be ${typeWords(expected)}; found ${describeValue(value)}`, {
        expected: expected.includes(",") ? expected.split(",") : expected,
        actual: actualOf(value),
      });
    }
    case "const": {
      const allowed = params.allowedValue;
      const suggestion = suggestionFor(value, [allowed]);
      return issue("const", path, `${where} must be ${JSON.stringify(allowed)}; found ${describeValue(value)}`, {
        expected: allowed,
        actual: actualOf(value),
        ...(suggestion && { suggestion }),
      });
    }
    case "enum": {
      const allowed = params.allowedValues as unknown[];
      const suggestion = suggestionFor(value, allowed);
      return issue("enum", path, `${where} must be one of ${quoteList(allowed)}; found ${describeValue(value)}`, {
        expected: allowed,
        actual: actualOf(value),
        ...(suggestion && { suggestion }),
      });
    }
    case "minLength":
      return issue("min-length", path, `${where} must not be empty`, { expected: "a non-empty string", actual: value });
    case "minItems": {
      const limit = Number(params.limit);
      return issue(
        "min-items",
        path,
        `${where} must hold at least ${limit} item${limit === 1 ? "" : "s"}; found ${describeValue(value)}`,
        { expected: `at least ${limit} item${limit === 1 ? "" : "s"}`, actual: actualOf(value) },
      );
    }
    case "maxItems": {
      const limit = Number(params.limit);
      return issue("max-items", path, `${where} must hold at most ${limit} item${limit === 1 ? "" : "s"}; found ${describeValue(value)}`, {
        expected: `at most ${limit} item${limit === 1 ? "" : "s"}`,
        actual: actualOf(value),
      });
    }
    case "pattern": {
      const pattern = String(params.pattern);
      const words = PATTERN_WORDS[pattern] ?? `a string matching the pattern ${JSON.stringify(pattern)}`;
      return issue("pattern", path, `${where} must be ${words}; found ${describeValue(value)}`, { expected: pattern, actual: value });
    }
    case "format": {
      const format = String(params.format);
      return issue("format", path, `${where} must be ${FORMAT_WORDS[format] ?? `in the format ${format}`}; found ${describeValue(value)}`, {
        expected: format,
        actual: value,
      });
    }
    case "minimum":
    case "maximum":
    case "exclusiveMinimum":
    case "exclusiveMaximum": {
      const { rule, words } = BOUNDS[error.keyword]!;
      return issue(rule, path, `${where} must be ${words} ${params.limit}; found ${describeValue(value)}`, {
        expected: `${params.comparison} ${params.limit}`,
        actual: value,
      });
    }
    case "contains": {
      const listed = Array.isArray(value) ? value.slice(0, 50).filter((entry): entry is string => typeof entry === "string") : [];
      // Only a near-identical identifier (a version or scheme typo) is worth a "replace": another
      // schema's identifier (the dataset schema, say) means the item is not a base model item at all.
      const near = schemaUrlNearMiss(listed, context.schemaUrl);
      const suggestion =
        near === undefined
          ? `add ${JSON.stringify(context.schemaUrl)} to stac_extensions`
          : `replace ${JSON.stringify(near)} with ${JSON.stringify(context.schemaUrl)}`;
      return issue("schema-url", path, `${where} must include the base model schema ${JSON.stringify(context.schemaUrl)}; found ${describeValue(value)}`, {
        expected: context.schemaUrl,
        actual: actualOf(value),
        suggestion,
      });
    }
    case "false schema": {
      const name = path.slice(path.lastIndexOf("/") + 1).replace(/~1/g, "/").replace(/~0/g, "~");
      const near = closest(name, context.definedPrefixed);
      const found = issue(
        "unknown-prefixed-property",
        path,
        `${where} is not defined by the base model schema, which defines only ${wordList(context.definedPrefixed)} with this prefix`,
        { expected: [...context.definedPrefixed], actual: name, ...(near && { suggestion: `did you mean ${JSON.stringify(near)}?` }) },
      );
      found.severity = context.undefinedPrefixed;
      return found;
    }
    default:
      throw new Error(`no message for schema keyword ${error.keyword} at ${error.schemaPath}`);
  }
}

/**
 * One issue per broken rule. Ajv reports some failures more than once or with their causes;
 * these are dropped:
 * - failures of the items inside `contains` (only the array as a whole is wrong),
 * - other keywords at a path whose type is already wrong (an enum of a number says nothing more),
 * - repeats of the same rule at the same path.
 */
export function issuesFromSchemaErrors(errors: readonly SchemaError[], data: unknown, context: MessageContext): Issue[] {
  const containsPaths: string[] = [];
  const wrongType = new Set<string>();
  for (const error of errors) {
    if (error.keyword === "contains") containsPaths.push(`${error.schemaPath}/`);
    else if (error.keyword === "type") wrongType.add(error.instancePath);
  }
  const seen = new Set<string>();
  const issues: Issue[] = [];
  for (const error of errors) {
    if (containsPaths.some((prefix) => error.schemaPath.startsWith(prefix))) continue;
    if (error.keyword !== "type" && wrongType.has(error.instancePath)) continue;
    const found = describeError(error, data, context);
    const key = `${found.rule}\n${found.path}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const hint = context.suggestions[`${found.rule} ${found.path}`];
    if (hint !== undefined && found.suggestion === undefined) found.suggestion = hint;
    issues.push(found);
  }
  const missing = issues.filter((found) => found.rule === "required");
  if (missing.length > 0) claimNearMisses(missing, data, context.membersAt);
  return issues;
}
