/**
 * The one wording of JSON Schema failures. An Ajv error and the value it is about become a
 * problem a person can act on: where it is, what is wrong in one sentence ending in what was
 * found, what is allowed, and a likely fix. Items, STAC, requests and every JSON-shaped input
 * (configuration, users, quality rules, schema map) are worded here, so that one kind of problem
 * reads the same wherever it is found. Each caller adds only what is its own: rule ids, the
 * schema's URL, the wire shape of a 422, and the words for keywords only it has.
 */
import type { Issue, RuleId } from "./issue.js";
import { actualOf, describeValue, issue, preview, quoteList, suggestionFor, typeWords, wordList } from "./messages.js";
import { describePointer, joinPointer, valueAt } from "./pointer.js";
import { closest } from "./suggest.js";

/** What is read of an Ajv error (a verbose one also carries the schema holding the keyword). */
export interface SchemaError {
  instancePath: string;
  /** Not worded: callers tell the failures inside a wrapper (contains, anyOf) by it. */
  schemaPath: string;
  keyword: string;
  params: Record<string, unknown>;
  /** Inside propertyNames, Ajv names the member whose name broke the rule. */
  propertyName?: string;
  parentSchema?: { readonly [keyword: string]: unknown };
}

export interface Problem {
  /** JSON Pointer to what is wrong: the value, or the member that is missing, unknown or repeated. */
  path: string;
  message: string;
  /** What the schema allows: a value, the allowed values or members, a type name, a bound. */
  expected?: unknown;
  /** The value found (long values are shortened). */
  found?: unknown;
  suggestion?: string;
}

export interface Wording {
  /** How a message names the place at a pointer: by default dotted, with the root named `root`. */
  place?: (pointer: string) => string;
  /** What the root of the data is called ("the item", "the configuration"). */
  root?: string;
  /** The members the object may have, for an unknown member, when neither the error nor its schema names them. */
  members?: readonly string[];
}

/** At most this many allowed values or members are listed; the rest are counted. */
const LISTED = 15;

/** Values as JSON ("a", "b"), or names as words (a, b and c): all of them, or the first LISTED and how many more. */
function listed(values: readonly unknown[], as: "json" | "words"): string {
  if (values.length > LISTED) return `${values.slice(0, LISTED).map((value) => (as === "json" ? JSON.stringify(value) : String(value))).join(", ")} and ${values.length - LISTED} more`;
  return as === "json" ? quoteList(values) : wordList(values.map(String));
}

/**
 * "; the known members are a, b and c". When all of them share the unknown one's prefix (an
 * extension's "file:", fAIr's "fair:"), others are allowed beside them: the list says so.
 */
function knownMembers(name: string, members: readonly string[]): string {
  if (members.length === 0) return "";
  const prefix = /^[^:]+:/.exec(name)?.[0];
  const which = prefix !== undefined && members.every((member) => member.startsWith(prefix)) ? `known ${JSON.stringify(prefix)} members` : "known members";
  return `; the ${which} are ${listed(members, "words")}`;
}

const plural = (count: number, word: string): string => `${count} ${word}${count === 1 ? "" : "s"}`;

/** Regular expressions in words: "must match ^(0|[1-9]\d*)\.(0|[1-9]\d*)…" tells less than "a semantic version such as 2.1.0". */
const SEMVER = "^(0|[1-9]\\d*)\\.(0|[1-9]\\d*)\\.(0|[1-9]\\d*)";
const PATTERN_WORDS: ReadonlyArray<[test: (pattern: string) => boolean, words: string]> = [
  [(pattern) => pattern === "^https?://", "an http(s) URL, starting with http:// or https://"],
  [(pattern) => pattern.startsWith(SEMVER), "a semantic version such as 2.5.1 (major.minor.patch, optionally -prerelease or +build)"],
  [(pattern) => pattern === "(\\+00:00|Z)$", "a time in UTC, ending in Z or +00:00"],
  [(pattern) => pattern === "^[0-9A-Za-z-_]+$", "a name of letters, digits, - and _ only"],
  [(pattern) => pattern === "^[a-zA-Z][a-zA-Z0-9_.\\-\\s]+[a-zA-Z0-9]$", "a name that starts with a letter, ends with a letter or digit, and holds only letters, digits, spaces, _, . and -"],
  [(pattern) => pattern === "^[a-z-_]+$", "lower-case letters, - and _ only"],
  [(pattern) => pattern === "^[A-Z]+$", "upper-case letters only (an HTTP method such as GET)"],
  [(pattern) => pattern === "^(?=[^\\s._\\-]).*[^\\s._\\-]$", "a name that neither starts nor ends with a space, ., _ or -"],
  [(pattern) => pattern === "\\S", "a string that is not only spaces"],
  [(pattern) => pattern === "^[^=]+(=.+)?$", 'a tag term, "key" or "key=value", with a non-empty key and value'],
];

const FORMAT_WORDS: Readonly<Record<string, string>> = {
  uri: 'an absolute URI such as "https://www.hotosm.org"',
  "date-time": "a date and time in RFC 3339 form, such as 2025-11-02T08:15:00Z",
};

const BOUNDS: Readonly<Record<string, string>> = {
  minimum: "at least",
  maximum: "at most",
  exclusiveMinimum: "greater than",
  exclusiveMaximum: "less than",
};

const membersOf = (value: unknown): string[] => (value !== null && typeof value === "object" && !Array.isArray(value) ? Object.keys(value) : []);

/** The member names a schema lists in `properties`. */
function propertiesOf(schema: SchemaError["parentSchema"]): string[] {
  const properties = schema?.properties;
  return properties !== null && typeof properties === "object" ? Object.keys(properties) : [];
}

/** A schema compiled ahead of time (Ajv standalone code): true when the data passes; else `errors` says why. */
export interface SchemaCheck {
  (data: unknown): boolean;
  errors?: readonly SchemaError[] | null;
}

/**
 * Every problem `check` finds in `data`, worded; none when it passes. Ajv reports some failures
 * twice or with their causes, and these go: the "property name must be valid" that follows each
 * broken rule on a member name, other keywords at a place whose type is already wrong, repeats.
 */
export function schemaProblems(check: SchemaCheck, data: unknown, wording: Wording = {}): Problem[] {
  if (check(data)) return [];
  const errors = (check.errors ?? []).filter((error) => error.keyword !== "propertyNames");
  const wrongType = new Set(errors.filter((error) => error.keyword === "type").map((error) => error.instancePath));
  const seen = new Set<string>();
  return errors.flatMap((error) => {
    if (error.keyword !== "type" && error.propertyName === undefined && wrongType.has(error.instancePath)) return [];
    const problem = schemaProblem(error, valueAt(data, error.instancePath), wording);
    const key = `${problem.path}\n${problem.message}`;
    if (seen.has(key)) return [];
    seen.add(key);
    return [problem];
  });
}

/** The problem one Ajv error describes; `value` is the value at its instancePath. */
export function schemaProblem(error: SchemaError, value: unknown, wording: Wording = {}): Problem {
  const place = wording.place ?? ((pointer: string) => describePointer(pointer, wording.root));
  // Inside propertyNames the rule concerns a member's name, not the object holding it.
  if (error.propertyName !== undefined && error.keyword !== "propertyNames") {
    const name = error.propertyName;
    return describe(error, name, joinPointer(error.instancePath, name), `the member name ${preview(name)} in ${place(error.instancePath)}`, wording);
  }
  return describe(error, value, error.instancePath, place(error.instancePath), wording);
}

function describe(error: SchemaError, value: unknown, at: string, where: string, wording: Wording): Problem {
  const params = error.params;
  const found = `found ${describeValue(value)}`;
  const problem = (message: string, extra: Omit<Problem, "path" | "message"> = {}, path = at): Problem => ({ path, message, ...extra });
  switch (error.keyword) {
    case "required":
    case "dependencies":
    case "dependentRequired": {
      const missing = String(params.missingProperty);
      const owner = params.property === undefined ? "" : `; it goes with ${JSON.stringify(params.property)}`;
      return problem(`${JSON.stringify(missing)} is missing from ${where}${owner}`, { expected: missing }, joinPointer(at, missing));
    }
    case "type": {
      const expected = String(params.type);
      return problem(`${where} must be ${typeWords(expected)}; ${found}`, { expected: expected.includes(",") ? expected.split(",") : expected, found: actualOf(value) });
    }
    case "const":
    case "enum": {
      const allowed = error.keyword === "const" ? [params.allowedValue] : (params.allowedValues as unknown[]);
      const suggestion = suggestionFor(value, allowed);
      const words = allowed.length === 1 ? JSON.stringify(allowed[0]) : `one of ${listed(allowed, "json")}`;
      return problem(`${where} must be ${words}; ${found}`, {
        expected: allowed.length === 1 ? allowed[0] : allowed,
        found: actualOf(value),
        ...(suggestion && { suggestion }),
      });
    }
    case "pattern": {
      const pattern = String(params.pattern);
      const words = PATTERN_WORDS.find(([test]) => test(pattern))?.[1];
      return problem(`${where} must be ${words ?? `a string matching /${pattern}/`}; ${found}`, { expected: words ?? `/${pattern}/`, found: actualOf(value) });
    }
    case "format": {
      const words = FORMAT_WORDS[String(params.format)] ?? `a valid ${params.format}`;
      return problem(`${where} must be ${words}; ${found}`, { expected: words, found: actualOf(value) });
    }
    case "minLength":
    case "maxLength": {
      const limit = Number(params.limit);
      if (error.keyword === "minLength" && limit === 1) return problem(`${where} must not be empty`, { expected: "a non-empty string", found: value });
      const bound = `${error.keyword === "minLength" ? "at least" : "at most"} ${plural(limit, "character")}`;
      return problem(`${where} must be ${bound} long; found ${plural([...String(value)].length, "character")}`, { expected: bound, found: actualOf(value) });
    }
    case "minItems":
    case "maxItems": {
      const limit = Number(params.limit);
      const exact = error.parentSchema !== undefined && error.parentSchema.minItems === error.parentSchema.maxItems;
      const bound = `${exact ? "exactly" : error.keyword === "minItems" ? "at least" : "at most"} ${plural(limit, "item")}`;
      const rule = error.keyword === "maxItems" && limit === 0 ? "be empty" : `hold ${bound}`;
      return problem(`${where} must ${rule}; ${found}`, { expected: limit === 0 ? "no items" : bound, found: actualOf(value) });
    }
    case "minProperties":
    case "maxProperties": {
      const bound = `${error.keyword === "minProperties" ? "at least" : "at most"} ${plural(Number(params.limit), "member")}`;
      return problem(`${where} must hold ${bound}; found ${plural(membersOf(value).length, "member")}`, { expected: bound });
    }
    case "uniqueItems": {
      const [first, second] = [Number(params.j), Number(params.i)].sort((a, b) => a - b);
      const repeated = Array.isArray(value) ? value[second!] : undefined;
      return problem(`${where} must not repeat a value: items [${first}] and [${second}] are equal (${String(actualOf(repeated))})`, { expected: "unique items" }, joinPointer(at, second!));
    }
    case "minimum":
    case "maximum":
    case "exclusiveMinimum":
    case "exclusiveMaximum": {
      const expected = `${BOUNDS[error.keyword]} ${params.limit}`;
      // Why an upper bound is what it is, when its schema says (x-bound-reason), follows the bound.
      const reason = error.keyword === "maximum" || error.keyword === "exclusiveMaximum" ? error.parentSchema?.["x-bound-reason"] : undefined;
      return problem(`${where} must be ${expected}${typeof reason === "string" ? ` (${reason})` : ""}; ${found}`, { expected, found: value });
    }
    case "multipleOf":
      return problem(`${where} must be a multiple of ${params.multipleOf}; ${found}`, { expected: `a multiple of ${params.multipleOf}`, found: value });
    case "additionalProperties":
      return unknownMember(at, String(params.additionalProperty), wording.members ?? (params.members as string[] | undefined) ?? propertiesOf(error.parentSchema), where);
    case "propertyNames":
      return problem(`${where} must not have a member named ${JSON.stringify(params.propertyName)}`, { found: params.propertyName }, joinPointer(at, String(params.propertyName)));
    case "false schema":
      return problem(`${where} is not allowed here`, { found: actualOf(value) });
    case "contains":
      return problem(`${where} must include an entry the schema asks for; ${found}`, { expected: "an entry the schema asks for", found: actualOf(value) });
    case "not":
      return problem(`${where} has a form the schema forbids; ${found}`, { found: actualOf(value) });
    case "anyOf":
    case "oneOf":
      if (params.passingSchemas) return problem(`${where} matches more than one of the forms the schema allows exactly one of`, { found: actualOf(value) });
      return problem(`${where} does not match any of the forms the schema allows; ${found}`, { found: actualOf(value) });
    default:
      return problem(`${where} breaks the schema's ${JSON.stringify(error.keyword)} rule; ${found}`, { found: actualOf(value) });
  }
}

/**
 * A member the object at `at` (named `where`) may not have, and the known ones: what a schema's
 * additionalProperties says, and any check of an object's members that is not a schema's.
 */
export function unknownMember(at: string, name: string, known: readonly string[], where: string): Problem {
  const near = closest(name, known);
  return {
    path: joinPointer(at, name),
    message: `unknown member ${JSON.stringify(name)} in ${where}${knownMembers(name, known)}`,
    ...(known.length > 0 && { expected: known }),
    found: name,
    ...(near && { suggestion: `did you mean ${JSON.stringify(near)}?` }),
  };
}

/** A problem as an issue of a rule (the value found is an issue's `actual`); `schema`: the URL of the schema it broke. */
export function issueFrom(rule: RuleId, { path, message, expected, found, suggestion }: Problem, schema?: string): Issue {
  // Members set one by one, in issue()'s order: spreads of optional members made four objects an issue.
  const made = issue(rule, path, message);
  if (expected !== undefined) made.expected = expected;
  if (found !== undefined) made.actual = found;
  if (suggestion !== undefined) made.suggestion = suggestion;
  if (schema !== undefined) made.schema = schema;
  return made;
}

/** The problem as one sentence, its likely fix in brackets: for a message that has no room for a separate suggestion. */
export function problemText(problem: Problem): string {
  return problem.suggestion === undefined ? problem.message : `${problem.message} (${problem.suggestion})`;
}
