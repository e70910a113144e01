/**
 * The failures of an official STAC schema, explained: Ajv reports every keyword that failed,
 * the wrappers (anyOf, oneOf, if) and the failures of branches the item was never meant to
 * match included. What is left is each broken rule once, in the words of the base model rules.
 *
 *   1. Failures inside a failing `contains` (each entry that did not match) and `if` wrappers go.
 *   2. For each anyOf/oneOf, outermost first, the branch the value was meant for is kept and the
 *      others go: a branch whose JSON type differs is the least likely, then one whose
 *      discriminating member (a "type" const) differs; then the one whose failures lie deepest
 *      in the value (it got furthest into that branch), then the one with the fewest failures.
 *      When every branch misses on the type, or on the same discriminating member, one finding
 *      lists what all of them allow ("must be a string or null").
 *   3. At one place, a wrong type says it all, and a failed format says what its pattern says.
 */
import type { Issue, RuleId } from "../item/issue.js";
import { actualOf, describeValue, issue, quoteList, suggestionFor, typeWords } from "../item/messages.js";
import { describePointer, joinPointer, valueAt } from "../item/pointer.js";
import { closest } from "../item/suggest.js";
import { familyOf } from "./extension-urls.js";
import type { CompiledSchema, Hint, SchemaFailure } from "./registry.js";
import { formatWords, patternWords } from "./wording.js";

/** What a finding says about its place, to tell when a base model rule already said it there. */
export type FindingKind = "required" | "type" | "value" | "size" | "contains" | "member" | "other";

export interface Finding {
  issue: Issue;
  kind: FindingKind;
}

/** The schema whose failures are explained: its rule id and URL. */
export interface Source {
  rule: Extract<RuleId, "stac-core" | "stac-extension">;
  url: string;
}

const WRAPPERS = new Set(["anyOf", "oneOf", "if"]);
const NESTED_ALTERNATIVE = /\/(anyOf|oneOf)\//;
const DEPENDENCY = /\/dependencies\/([^/]+)\/required$/;

const within = (path: string, base: string) => path === base || path.startsWith(`${base}/`);
const parentOf = (path: string) => path.slice(0, path.lastIndexOf("/"));

/** 2: the value has another JSON type than the branch wants; 1: a member that tells branches apart differs; 0: neither. */
function mismatch(branch: readonly SchemaFailure[], at: string): number {
  let level = 0;
  for (const failure of branch) {
    if (failure.keyword === "type" && failure.instancePath === at) return 2;
    if (discriminates(failure, at)) level = 1;
  }
  return level;
}

const discriminates = (failure: SchemaFailure, at: string) =>
  (failure.keyword === "const" || failure.keyword === "enum" || failure.keyword === "type") &&
  failure.instancePath !== at &&
  parentOf(failure.instancePath) === at;

function allowedValues(failure: SchemaFailure): unknown[] {
  if (failure.keyword === "const") return [failure.params.allowedValue];
  if (failure.keyword === "enum") return failure.params.allowedValues as unknown[];
  return String(failure.params.type).split(",");
}

/**
 * One finding for branches that all miss on the same thing: the value's type, or the same
 * discriminating member. Undefined when they miss on different things.
 */
function merged(branches: ReadonlyArray<readonly SchemaFailure[]>, level: number, alternative: SchemaFailure): SchemaFailure | undefined {
  const at = alternative.instancePath;
  const misses = branches.map((branch) => branch.filter((failure) => (level === 2 ? failure.keyword === "type" && failure.instancePath === at : discriminates(failure, at))));
  const place = misses[0]![0]!.instancePath;
  const keywords = new Set(misses.flat().map((failure) => (failure.keyword === "type" ? "type" : "enum")));
  if (keywords.size !== 1 || misses.some((list) => list.length === 0 || list.some((failure) => failure.instancePath !== place))) return undefined;
  const allowed = [...new Set(misses.flat().flatMap(allowedValues))];
  const keyword = [...keywords][0]!;
  return {
    instancePath: place,
    schemaPath: alternative.schemaPath,
    keyword,
    params: keyword === "type" ? { type: allowed.join(",") } : { allowedValues: allowed },
  };
}

/** The failures of one anyOf/oneOf, reduced to those of the branch the value was meant for. */
function chooseBranch(failures: SchemaFailure[], alternative: SchemaFailure, hints: CompiledSchema["hints"]): SchemaFailure[] {
  const prefix = `${alternative.schemaPath}/`;
  const at = alternative.instancePath;
  const inside = new Set(failures.filter((failure) => failure !== alternative && failure.schemaPath.startsWith(prefix) && within(failure.instancePath, at)));
  // oneOf with more than one branch matching: the failing branches are beside the point.
  if (alternative.params.passingSchemas) return failures.filter((failure) => !inside.has(failure));
  const branches = new Map<number, SchemaFailure[]>();
  for (const failure of inside) {
    const index = Number.parseInt(failure.schemaPath.slice(prefix.length), 10);
    branches.set(index, [...(branches.get(index) ?? []), failure]);
  }
  if (branches.size === 0) return failures;
  const hint = hints[alternative.schemaPath];
  // A branch that failed with nothing to show was compiled apart (a cycle of $refs): what it
  // reported stands outside any branch, and is the explanation.
  if (hint?.kind === "branches" && branches.size < hint.count) return failures.filter((failure) => failure !== alternative && !inside.has(failure));
  // What a branch itself asks, not what one of the alternatives nested in it asks, tells how far off it is.
  const direct = (failure: SchemaFailure) => !NESTED_ALTERNATIVE.test(failure.schemaPath.slice(prefix.length));
  const scored = [...branches.values()].map((list) => {
    const leaves = list.filter((failure) => !WRAPPERS.has(failure.keyword));
    return { list, level: mismatch(list.filter(direct), at), size: leaves.length, depth: Math.max(0, ...leaves.map((failure) => failure.instancePath.split("/").length)) };
  });
  const level = Math.min(...scored.map((branch) => branch.level));
  const candidates = scored.filter((branch) => branch.level === level);
  const rest = failures.filter((failure) => failure !== alternative && !inside.has(failure));
  const summary = level > 0 && candidates.length > 1 ? merged(candidates.map((branch) => branch.list.filter(direct)), level, alternative) : undefined;
  if (summary) return [...rest, summary];
  // The value got furthest into the branch whose failures lie deepest; then the fewest failures.
  const chosen = candidates.reduce((best, branch) => (branch.depth > best.depth || (branch.depth === best.depth && branch.size < best.size) ? branch : best));
  return [...rest, ...chosen.list];
}

function reduce(failures: readonly SchemaFailure[], hints: CompiledSchema["hints"]): SchemaFailure[] {
  const containsPaths = failures.filter((failure) => failure.keyword === "contains").map((failure) => `${failure.schemaPath}/`);
  let kept = failures.filter((failure) => failure.keyword !== "if" && !containsPaths.some((prefix) => failure.schemaPath.startsWith(prefix)));
  const alternatives = kept.filter((failure) => failure.keyword === "anyOf" || failure.keyword === "oneOf").sort((a, b) => a.schemaPath.length - b.schemaPath.length);
  for (const alternative of alternatives) if (kept.includes(alternative)) kept = chooseBranch(kept, alternative, hints);
  const wrongType = new Set(kept.filter((failure) => failure.keyword === "type").map((failure) => failure.instancePath));
  const badFormat = new Set(kept.filter((failure) => failure.keyword === "format").map((failure) => failure.instancePath));
  return kept.filter(
    (failure) =>
      !(failure.keyword !== "type" && wrongType.has(failure.instancePath)) &&
      !(failure.keyword === "pattern" && badFormat.has(failure.instancePath)) &&
      // A wrapper left with failures below it (from checks compiled apart) says nothing more.
      !(WRAPPERS.has(failure.keyword) && kept.some((other) => other !== failure && within(other.instancePath, failure.instancePath))),
  );
}

const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? "" : "s"}`;

/** At most this many allowed values are listed; the rest are counted. */
const LISTED = 15;

function listed(values: readonly unknown[]): string {
  return values.length <= LISTED ? quoteList(values) : `${quoteList(values.slice(0, LISTED))} and ${values.length - LISTED} more`;
}

/** The members of an object, for naming the one that breaks a `not`. */
const membersOf = (value: unknown) => (value !== null && typeof value === "object" && !Array.isArray(value) ? Object.keys(value) : []);

const COMPARISONS: Readonly<Record<string, string>> = {
  minimum: "at least",
  maximum: "at most",
  exclusiveMinimum: "greater than",
  exclusiveMaximum: "less than",
};

/** The finding of one failure: rule, place and a sentence naming the member, the rule and the value found. */
function describe(failure: SchemaFailure, data: unknown, hints: CompiledSchema["hints"], source: Source): Finding {
  const at = failure.instancePath;
  const where = describePointer(at);
  const value = valueAt(data, at);
  const params = failure.params;
  const hint: Hint | undefined = hints[failure.schemaPath];
  const make = (kind: FindingKind, path: string, message: string, extra: Partial<Issue> = {}): Finding => ({
    issue: issue(source.rule, path, message, { ...extra, schema: source.url }),
    kind,
  });
  const found = `found ${describeValue(value)}`;
  switch (failure.keyword) {
    case "required":
    case "dependencies": {
      const missing = String(params.missingProperty);
      // {"dependencies": {"start_datetime": {"required": ["end_datetime"]}}} fails as a "required".
      const owner = failure.keyword === "dependencies" ? String(params.property) : DEPENDENCY.exec(failure.schemaPath)?.[1];
      const because = owner === undefined ? "" : `; it goes with ${JSON.stringify(decodeURIComponent(owner).replace(/~1/g, "/").replace(/~0/g, "~"))}`;
      return make("required", joinPointer(at, missing), `${JSON.stringify(missing)} is missing from ${where}${because}`, { expected: missing });
    }
    case "type": {
      const expected = String(params.type);
      return make("type", at, `${where} must be ${typeWords(expected)}; ${found}`, { expected: expected.includes(",") ? expected.split(",") : expected, actual: actualOf(value) });
    }
    case "const":
    case "enum": {
      const allowed = failure.keyword === "const" ? [params.allowedValue] : (params.allowedValues as unknown[]);
      const suggestion = suggestionFor(value, allowed);
      const words = allowed.length === 1 ? JSON.stringify(allowed[0]) : `one of ${listed(allowed)}`;
      return make("value", at, `${where} must be ${words}; ${found}`, {
        expected: allowed.length === 1 ? allowed[0] : allowed,
        actual: actualOf(value),
        ...(suggestion && { suggestion }),
      });
    }
    case "pattern": {
      const pattern = String(params.pattern);
      const words = patternWords(pattern);
      return make("value", at, `${where} must be ${words ?? `a string matching /${pattern}/`}; ${found}`, { expected: words ?? `/${pattern}/`, actual: actualOf(value) });
    }
    case "format": {
      const words = formatWords(String(params.format));
      return make("value", at, `${where} must be ${words}; ${found}`, { expected: words, actual: actualOf(value) });
    }
    case "minLength":
    case "maxLength": {
      const limit = Number(params.limit);
      if (failure.keyword === "minLength" && limit === 1) return make("value", at, `${where} must not be empty`, { expected: "a non-empty string", actual: value });
      const bound = failure.keyword === "minLength" ? "at least" : "at most";
      return make("value", at, `${where} must be ${bound} ${plural(limit, "character")} long; ${found}`, { expected: `${bound} ${plural(limit, "character")}`, actual: actualOf(value) });
    }
    case "minItems":
    case "maxItems": {
      const limit = Number(params.limit);
      const rule = failure.keyword === "maxItems" && limit === 0 ? "be empty" : `hold ${failure.keyword === "minItems" ? "at least" : "at most"} ${plural(limit, "item")}`;
      return make("size", at, `${where} must ${rule}; ${found}`, { expected: rule.replace(/^hold /, ""), actual: actualOf(value) });
    }
    case "minProperties":
    case "maxProperties": {
      const bound = `${failure.keyword === "minProperties" ? "at least" : "at most"} ${plural(Number(params.limit), "member")}`;
      return make("size", at, `${where} must have ${bound}; found ${plural(membersOf(value).length, "member")}`, { expected: bound });
    }
    case "uniqueItems": {
      const [first, second] = [Number(params.j), Number(params.i)].sort((a, b) => a - b);
      return make("other", joinPointer(at, second!), `${where} must not repeat a value: items [${first}] and [${second}] are equal (${String(actualOf(valueAt(data, joinPointer(at, second!))))})`, { expected: "unique items" });
    }
    case "minimum":
    case "maximum":
    case "exclusiveMinimum":
    case "exclusiveMaximum": {
      const expected = `${COMPARISONS[failure.keyword]} ${params.limit}`;
      return make("value", at, `${where} must be ${expected}; ${found}`, { expected, actual: value });
    }
    case "multipleOf":
      return make("value", at, `${where} must be a multiple of ${params.multipleOf}; ${found}`, { expected: `a multiple of ${params.multipleOf}`, actual: value });
    case "additionalProperties": {
      const name = String(params.additionalProperty);
      const defined = hint?.kind === "members" ? hint.members : [];
      const near = closest(name, defined);
      return make("member", joinPointer(at, name), `${where} must not have the member ${JSON.stringify(name)}: the schema does not define it`, {
        ...(defined.length > 0 && { expected: defined }),
        actual: name,
        ...(near && { suggestion: `did you mean ${JSON.stringify(near)}?` }),
      });
    }
    case "propertyNames":
      return make("member", joinPointer(at, String(params.propertyName)), `${where} must not have a member named ${JSON.stringify(params.propertyName)}`, { actual: params.propertyName });
    case "false schema":
      return make("member", at, `${where} is not allowed here`, { actual: actualOf(value) });
    case "contains": {
      if (hint?.kind === "value") {
        const suggestion = Array.isArray(value) && typeof hint.value === "string" ? nearEntry(value, hint.value) : undefined;
        return make("contains", at, `${where} must include ${JSON.stringify(hint.value)}; ${found}`, { expected: hint.value, actual: actualOf(value), ...(suggestion && { suggestion }) });
      }
      const what = hint?.kind === "pattern" ? `an entry matching /${hint.pattern}/` : "an entry the schema asks for";
      return make("contains", at, `${where} must include ${what}; ${found}`, { expected: what, actual: actualOf(value) });
    }
    case "not":
      return describeNot(at, where, value, hint, make);
    case "oneOf":
      if (params.passingSchemas) return make("other", at, `${where} matches more than one of the forms the schema allows exactly one of`, { actual: actualOf(value) });
      return make("other", at, `${where} does not match any of the forms the schema allows; ${found}`, { actual: actualOf(value) });
    default:
      return make("other", at, `${where} breaks the schema's ${JSON.stringify(failure.keyword)} rule; ${found}`, { actual: actualOf(value) });
  }
}

const versionOf = (url: string) => /\/v(\d+\.\d+\.\d+)\//.exec(url)?.[1];

/**
 * "replace X with Y" when the list holds a near miss of the entry it must include, or the same
 * extension and version at another address (MLM 1.0.0 to 1.3.0 ask for their crim-ca.github.io URL).
 */
function nearEntry(entries: readonly unknown[], wanted: string): string | undefined {
  const strings = entries.filter((entry): entry is string => typeof entry === "string");
  const near =
    closest(wanted, strings, 3) ??
    strings.find((entry) => familyOf(entry) !== undefined && familyOf(entry) === familyOf(wanted) && versionOf(entry) === versionOf(wanted));
  return near === undefined ? undefined : `replace ${JSON.stringify(near)} with ${JSON.stringify(wanted)}`;
}

function describeNot(
  at: string,
  where: string,
  value: unknown,
  hint: Hint | undefined,
  make: (kind: FindingKind, path: string, message: string, extra?: Partial<Issue>) => Finding,
): Finding {
  switch (hint?.kind) {
    case "anything":
      return make("member", at, `${where} must not be present`, { actual: actualOf(value) });
    case "members": {
      const present = hint.members.filter((member) => membersOf(value).includes(member));
      const name = present[0] ?? hint.members[0]!;
      return make("member", joinPointer(at, name), `${where} must not have ${present.length > 1 ? `the members ${quoteList(present)}` : JSON.stringify(name)}`, { actual: present.length > 1 ? present : name });
    }
    case "type":
      return make("type", at, `${where} must not be ${typeWords(String(hint.type))}`, { actual: actualOf(value) });
    case "value":
      return make("value", at, `${where} must not be ${JSON.stringify(hint.value)}`, { actual: actualOf(value) });
    case "contains":
      return make("contains", at, `${where} must not include ${JSON.stringify(hint.value)}; ${`found ${describeValue(value)}`}`, { actual: actualOf(value) });
    case "pattern":
      return make("value", at, `${where} must not match /${hint.pattern}/; found ${describeValue(value)}`, { actual: actualOf(value) });
    default:
      return make("other", at, `${where} has a form the schema forbids; found ${describeValue(value)}`, { actual: actualOf(value) });
  }
}

/** " (when label:type is "raster")": why the then or else of an if applies, when the build could say it. */
function condition(schemaPath: string, hints: CompiledSchema["hints"]): string {
  const branch = /^(.*)\/(then|else)\//.exec(schemaPath);
  const hint = branch ? hints[`${branch[1]}/if`] : undefined;
  if (hint?.kind !== "condition") return "";
  const not = branch![2] === "else" ? "not " : "";
  if (hint.contains) return ` (when ${hint.member} has ${not ? "no" : "an"} entry whose ${hint.contains.member} is ${JSON.stringify(hint.contains.value)})`;
  return ` (when ${hint.member} is ${not}${JSON.stringify(hint.value)})`;
}

/** Each broken rule of one schema once, worded for a person, in the order Ajv found them. */
export function explainFailures(failures: readonly SchemaFailure[], data: unknown, schema: CompiledSchema, source: Source): Finding[] {
  const seen = new Set<string>();
  const findings: Finding[] = [];
  for (const failure of reduce(failures, schema.hints)) {
    const finding = describe(failure, data, schema.hints, source);
    finding.issue.message += condition(failure.schemaPath, schema.hints);
    const key = `${finding.issue.path}\n${finding.issue.message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    findings.push(finding);
  }
  return findings;
}
