/**
 * The failures of an official STAC schema, explained: Ajv reports every keyword that failed,
 * the wrappers (anyOf, oneOf, if) and the failures of branches the item was never meant to
 * match included. What is left is each broken rule once, in the one wording of schema failures
 * (diagnostics/schema-problems.ts) with what only STAC says (the build's hints, below).
 *
 *   1. Failures inside a failing `contains` (each entry that did not match) and `if` wrappers go.
 *   1b. A union compiled apart (PROJJSON) is judged by the form its "type" names (judgeForms).
 *   2. For each anyOf/oneOf, outermost first, the branch the value was meant for is kept and the
 *      others go: a branch whose JSON type differs is the least likely, then one for another kind
 *      of object (a member's const or `not` fails: a "type"), then one where a member's value or
 *      type is not allowed; then the one whose failures lie deepest in the value (it got
 *      furthest into that branch), then the one with the fewest failures.
 *      When every branch misses on the type, or on the same discriminating member, one finding
 *      lists what all of them allow ("must be a string or null").
 *   3. At one place, a wrong type says it all, and a failed format says what its pattern says.
 */
import type { Issue, RuleId } from "../../diagnostics/issue.js";
import { actualOf, describeValue, quoteList, typeWords } from "../../diagnostics/messages.js";
import { describePointer, joinPointer, valueAt } from "../../diagnostics/pointer.js";
import { issueFrom, schemaProblem, type Problem } from "../../diagnostics/schema-problems.js";
import { closest } from "../../diagnostics/suggest.js";
import { familyOf } from "./extension-urls.js";
import type { CompiledSchema, Hint, SchemaFailure, TypedForm } from "./registry.js";

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

/** How far off a branch is: the value has another JSON type than it wants (3), ... */
const OTHER_TYPE = 3;
/** ... a member names another kind of object: a const or a `not` on it fails (datacube's "type": "temporal" against the spatial dimension), ... */
const OTHER_KIND = 2;
/** ... a member has a value or type the branch does not allow (1); 0: none of these. */
const OTHER_MEMBER = 1;

function mismatch(branch: readonly SchemaFailure[], at: string): number {
  let level = 0;
  for (const failure of branch) {
    if (failure.keyword === "type" && failure.instancePath === at) return OTHER_TYPE;
    level = Math.max(level, discrimination(failure, at));
  }
  return level;
}

function discrimination(failure: SchemaFailure, at: string): number {
  if (failure.instancePath === at || parentOf(failure.instancePath) !== at) return 0;
  if (failure.keyword === "const" || failure.keyword === "not") return OTHER_KIND;
  return failure.keyword === "enum" || failure.keyword === "type" ? OTHER_MEMBER : 0;
}

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
  const misses = branches.map((branch) =>
    branch.filter((failure) => (level === OTHER_TYPE ? failure.keyword === "type" && failure.instancePath === at : discrimination(failure, at) === level)),
  );
  const place = misses[0]![0]!.instancePath;
  const keywords = new Set(misses.flat().map((failure) => (failure.keyword === "type" || failure.keyword === "not" ? failure.keyword : "enum")));
  if (keywords.size !== 1 || keywords.has("not") || misses.some((list) => list.length === 0 || list.some((failure) => failure.instancePath !== place))) return undefined;
  const allowed = [...new Set(misses.flat().flatMap(allowedValues))];
  const keyword = [...keywords][0]!;
  return {
    instancePath: place,
    schemaPath: alternative.schemaPath,
    keyword,
    params: keyword === "type" ? { type: allowed.join(",") } : { allowedValues: allowed },
  };
}

const isRecord = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === "object" && !Array.isArray(value);

/**
 * What keeps a value from being the form its "type" names, as failures: a "type" no form has, the
 * members that form requires, one of the members it needs exactly one of, a member it does not
 * define; else that it is not that form, when the fault lies deeper.
 */
function formFailures(value: Record<string, unknown>, at: string, schemaPath: string, forms: Readonly<Record<string, readonly TypedForm[]>>): SchemaFailure[] {
  const faults = formFaults(value, at, schemaPath, forms);
  if (faults.length > 0) return faults;
  // The fault lies deeper: in the first member that is itself one of the forms (a CRS's datum).
  for (const [at2, member] of typedMembers(value, at)) {
    const inner = formFaults(member, at2, schemaPath, forms);
    if (inner.length > 0 && typeof member.type === "string" && Object.hasOwn(forms, member.type)) return inner;
  }
  return [{ instancePath: at, schemaPath, keyword: "form", params: { form: value.type } }];
}

/** The objects with a "type" member inside a value, outermost first, with their paths. */
function typedMembers(value: unknown, at: string): Array<[string, Record<string, unknown>]> {
  const found: Array<[string, Record<string, unknown>]> = [];
  const visit = (node: unknown, path: string, depth: number): void => {
    if (depth > 0 && isRecord(node) && typeof node.type === "string") found.push([path, node]);
    if (Array.isArray(node)) node.forEach((child, index) => visit(child, joinPointer(path, index), depth + 1));
    else if (isRecord(node)) for (const [name, child] of Object.entries(node)) visit(child, joinPointer(path, name), depth + 1);
  };
  visit(value, at, 0);
  return found;
}

function formFaults(value: Record<string, unknown>, at: string, schemaPath: string, forms: Readonly<Record<string, readonly TypedForm[]>>): SchemaFailure[] {
  const failure = (instancePath: string, keyword: string, params: Record<string, unknown>): SchemaFailure => ({ instancePath, schemaPath, keyword, params });
  if (!("type" in value)) return [failure(at, "required", { missingProperty: "type" })];
  const candidates = typeof value.type === "string" && Object.hasOwn(forms, value.type) ? forms[value.type]! : undefined;
  if (candidates === undefined) return [failure(joinPointer(at, "type"), "enum", { allowedValues: Object.keys(forms) })];
  const present = Object.keys(value);
  const faults = candidates.map((form) => [
    ...form.required.filter((name) => !present.includes(name)).map((name) => failure(at, "required", { missingProperty: name })),
    ...(form.either && !form.either.some((name) => present.includes(name)) ? [failure(at, "requiredOne", { members: form.either })] : []),
    ...(form.members ? present.filter((name) => !form.members!.includes(name)).map((name) => failure(at, "additionalProperties", { additionalProperty: name, members: form.members })) : []),
  ]);
  return faults.reduce((best, list) => (list.length < best.length ? list : best));
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

/**
 * An object that fails an anyOf/oneOf one of whose branches is a union compiled apart (PROJJSON
 * in proj:projjson): the failures that union reported carry paths inside its own code, which
 * tell neither its branches nor even its failures from the schema's own apart. They are replaced
 * by what keeps the object from being the form its "type" names, put in that branch.
 */
function judgeForms(failures: readonly SchemaFailure[], hints: CompiledSchema["hints"], data: unknown): readonly SchemaFailure[] {
  const judged: Array<{ alternative: SchemaFailure; branch: string; forms: Record<string, TypedForm[]>; value: Record<string, unknown> }> = [];
  for (const alternative of failures) {
    if ((alternative.keyword !== "anyOf" && alternative.keyword !== "oneOf") || alternative.params.passingSchemas) continue;
    const hint = hints[alternative.schemaPath];
    const branches = Array.from({ length: hint?.kind === "branches" ? hint.count : 0 }, (_, index) => `${alternative.schemaPath}/${index}`);
    const branch = branches.find((path) => hints[path]?.kind === "forms");
    const forms = branch === undefined ? undefined : hints[branch];
    const value = valueAt(data, alternative.instancePath);
    if (forms?.kind === "forms" && isRecord(value)) judged.push({ alternative, branch: branch!, forms: forms.forms, value });
  }
  if (judged.length === 0) return failures;
  const owners = judged.map(({ alternative }) => `${parentOf(alternative.schemaPath)}/`);
  const replaced = (failure: SchemaFailure) =>
    judged.some(({ alternative }) => failure === alternative || failure.schemaPath.startsWith(`${alternative.schemaPath}/`)) ||
    // Compiled apart: inside a judged value, with a path none of the schema's own code there has.
    judged.some(({ alternative }) => within(failure.instancePath, alternative.instancePath) && !owners.some((owner) => failure.schemaPath.startsWith(owner)));
  return [...failures.filter((failure) => !replaced(failure)), ...judged.flatMap(({ alternative, branch, forms, value }) => formFailures(value, alternative.instancePath, branch, forms))];
}

function reduce(all: readonly SchemaFailure[], hints: CompiledSchema["hints"], data: unknown): SchemaFailure[] {
  const failures = judgeForms(all, hints, data);
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

/** What each keyword's finding says about its place; any other keyword: "other". */
const KINDS: Readonly<Record<string, FindingKind>> = {
  required: "required",
  dependencies: "required",
  requiredOne: "required",
  type: "type",
  const: "value",
  enum: "value",
  pattern: "value",
  format: "value",
  minLength: "value",
  maxLength: "value",
  minimum: "value",
  maximum: "value",
  exclusiveMinimum: "value",
  exclusiveMaximum: "value",
  multipleOf: "value",
  minItems: "size",
  maxItems: "size",
  minProperties: "size",
  maxProperties: "size",
  additionalProperties: "member",
  propertyNames: "member",
  "false schema": "member",
  contains: "contains",
};

/** The members of an object, for naming the one that breaks a `not`. */
const membersOf = (value: unknown) => (value !== null && typeof value === "object" && !Array.isArray(value) ? Object.keys(value) : []);

/**
 * The finding of one failure: the keywords every schema has are worded by diagnostics; what is
 * STAC's own are the build's hints (what a `contains` or `not` asks for, the members an object
 * defines), the failures that judging a union by its "type" makes, and the member a dependency
 * hangs on.
 */
function describe(failure: SchemaFailure, data: unknown, hints: CompiledSchema["hints"], source: Source): Finding {
  const at = failure.instancePath;
  const value = valueAt(data, at);
  const hint: Hint | undefined = hints[failure.schemaPath];
  const make = (kind: FindingKind, problem: Problem): Finding => ({ issue: issueFrom(source.rule, problem, source.url), kind });
  const own = ownProblem(failure, value, hint);
  if (own) return make(own.kind, own);
  // {"dependencies": {"start_datetime": {"required": ["end_datetime"]}}} fails as a "required".
  const owner = failure.keyword === "required" ? DEPENDENCY.exec(failure.schemaPath)?.[1] : undefined;
  const error = owner === undefined ? failure : { ...failure, params: { ...failure.params, property: decodeURIComponent(owner).replace(/~1/g, "/").replace(/~0/g, "~") } };
  return make(KINDS[failure.keyword] ?? "other", schemaProblem(error, value, hint?.kind === "members" ? { members: hint.members } : {}));
}

function ownProblem(failure: SchemaFailure, value: unknown, hint: Hint | undefined): (Problem & { kind: FindingKind }) | undefined {
  const at = failure.instancePath;
  const where = describePointer(at);
  const found = `found ${describeValue(value)}`;
  switch (failure.keyword) {
    case "requiredOne": {
      const members = failure.params.members as string[];
      return { kind: "required", path: joinPointer(at, members[0]!), message: `${where} must have one of ${quoteList(members)}; it has none`, expected: members };
    }
    case "form":
      return { kind: "other", path: at, message: `${where} is not a valid ${JSON.stringify(failure.params.form)} as the schema defines it; ${found}`, found: actualOf(value) };
    case "contains": {
      if (hint?.kind === "value") {
        const suggestion = Array.isArray(value) && typeof hint.value === "string" ? nearEntry(value, hint.value) : undefined;
        return { kind: "contains", path: at, message: `${where} must include ${JSON.stringify(hint.value)}; ${found}`, expected: hint.value, found: actualOf(value), ...(suggestion && { suggestion }) };
      }
      if (hint?.kind !== "pattern") return undefined;
      const what = `an entry matching /${hint.pattern}/`;
      return { kind: "contains", path: at, message: `${where} must include ${what}; ${found}`, expected: what, found: actualOf(value) };
    }
    case "not":
      return describeNot(at, where, value, hint);
    default:
      return undefined;
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

/** What a `not` forbids, in words, when the build could say it. */
function describeNot(at: string, where: string, value: unknown, hint: Hint | undefined): (Problem & { kind: FindingKind }) | undefined {
  const found = { found: actualOf(value) };
  switch (hint?.kind) {
    case "anything":
      return { kind: "member", path: at, message: `${where} must not be present`, ...found };
    case "members": {
      const present = hint.members.filter((member) => membersOf(value).includes(member));
      const name = present[0] ?? hint.members[0]!;
      return { kind: "member", path: joinPointer(at, name), message: `${where} must not have ${present.length > 1 ? `the members ${quoteList(present)}` : JSON.stringify(name)}`, found: present.length > 1 ? present : name };
    }
    case "type":
      return { kind: "type", path: at, message: `${where} must not be ${typeWords(String(hint.type))}`, ...found };
    case "value":
      return { kind: "value", path: at, message: `${where} must not be ${JSON.stringify(hint.value)}`, ...found };
    case "contains":
      return { kind: "contains", path: at, message: `${where} must not include ${JSON.stringify(hint.value)}; found ${describeValue(value)}`, ...found };
    case "pattern":
      return { kind: "value", path: at, message: `${where} must not match /${hint.pattern}/; found ${describeValue(value)}`, ...found };
    default:
      return undefined;
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
  for (const failure of reduce(failures, schema.hints, data)) {
    const finding = describe(failure, data, schema.hints, source);
    finding.issue.message += condition(failure.schemaPath, schema.hints);
    const key = `${finding.issue.path}\n${finding.issue.message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    findings.push(finding);
  }
  return findings;
}
