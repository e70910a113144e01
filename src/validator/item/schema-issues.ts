/**
 * An item's schema errors as issues: the wording is diagnostics/schema-problems.ts's; what is
 * the items' own is the rule id of each keyword, the two keywords only the base model schema
 * uses (its identifier in stac_extensions, and the prefixed properties it does not define), the
 * rule set's likely fixes, and the members written under a near miss of a missing one's name.
 */
import type { Issue, RuleId, Severity } from "../../diagnostics/issue.js";
import { actualOf, describeValue, issue, schemaUrlNearMiss } from "../../diagnostics/messages.js";
import { claimNearMisses } from "../../diagnostics/near-miss.js";
import { describePointer, unescapeSegment, valueAt } from "../../diagnostics/pointer.js";
import { issueFrom, schemaProblem, unknownMember, type Problem, type SchemaError } from "../../diagnostics/schema-problems.js";
import { LruCache } from "./lru.js";

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

/** The rule each keyword of the rule sets' schemas checks. Bounds: inclusive ones are the ranges, exclusive ones split_spec's and the learning rate's. */
const RULES: Readonly<Record<string, RuleId>> = {
  required: "required",
  type: "type",
  const: "const",
  enum: "enum",
  minLength: "min-length",
  minItems: "min-items",
  maxItems: "max-items",
  pattern: "pattern",
  format: "format",
  minimum: "range",
  maximum: "range",
  exclusiveMinimum: "exclusive-range",
  exclusiveMaximum: "exclusive-range",
};

/**
 * The problem of each unknown prefixed member, by its path, for each context: real items write
 * the same one (`fair:hyperparameters_spec`) file after file, and its did-you-mean costs an edit
 * distance to every defined name. Bounded, as a long-running caller may meet paths without end.
 */
const unknownPrefixedProblems = new WeakMap<MessageContext, LruCache<string, Problem>>();

function unknownPrefixedProblem(path: string, context: MessageContext): Problem {
  let problems = unknownPrefixedProblems.get(context);
  if (problems === undefined) {
    problems = new LruCache(256);
    unknownPrefixedProblems.set(context, problems);
  }
  return problems.get(path, () => {
    const parent = path.slice(0, path.lastIndexOf("/"));
    return unknownMember(parent, unescapeSegment(path.slice(parent.length + 1)), context.definedPrefixed, describePointer(parent));
  });
}

function describeError(error: SchemaError, data: unknown, context: MessageContext): Issue {
  const path = error.instancePath;
  switch (error.keyword) {
    case "contains": {
      const value = valueAt(data, path);
      const listed = Array.isArray(value) ? value.slice(0, 50).filter((entry): entry is string => typeof entry === "string") : [];
      // Only a near-identical identifier (a version or scheme typo) is worth a "replace": another
      // schema's identifier (the dataset schema, say) means the item is not a base model item at all.
      const near = schemaUrlNearMiss(listed, context.schemaUrl);
      const suggestion =
        near === undefined
          ? `add ${JSON.stringify(context.schemaUrl)} to stac_extensions`
          : `replace ${JSON.stringify(near)} with ${JSON.stringify(context.schemaUrl)}`;
      return issue("schema-url", path, `${describePointer(path)} must include the base model schema ${JSON.stringify(context.schemaUrl)}; found ${describeValue(value)}`, {
        expected: context.schemaUrl,
        actual: actualOf(value),
        suggestion,
      });
    }
    case "false schema": {
      // A prefixed property the schema does not define: an unknown member of the object holding it.
      const issued = issueFrom("unknown-prefixed-property", unknownPrefixedProblem(path, context));
      issued.severity = context.undefinedPrefixed;
      return issued;
    }
  }
  const rule = RULES[error.keyword];
  if (rule === undefined) throw new Error(`no rule for schema keyword ${error.keyword} at ${error.schemaPath}`);
  return issueFrom(rule, schemaProblem(error, valueAt(data, path)));
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
