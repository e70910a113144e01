/**
 * fAIr's rule sets: one identifier can carry more than one set of rules (fAIr changed what it
 * publishes under v1.0.0), and a newer identifier carries its own.
 *
 *   v1.0.0          the specification's rules (schema/base-model-item.schema.json): the default
 *   v1.0.0-current  what fAIr enforces today under the v1.0.0 identifier
 *   v1.1.0          fAIr's v1.1.0 identifier and its rules
 *
 * Each is a schema of ours (schema/rule-sets/), compiled ahead of time. v1.0.0 is part of the
 * validator; the others are loaded on first use, so that validating without them costs nothing
 * (in Node; elsewhere loadRuleSet loads them beforehand: src/generated-modules.ts).
 */
import { compiledRuleSets } from "../../generated/rule-sets.js";
import { schema as specSchema } from "../../generated/schema.js";
import validateSpec from "../../generated/validate-item.js";

import type { Severity } from "../../diagnostics/issue.js";
import type { JsonSchema } from "../../diagnostics/json-schema.js";
import { describeValue } from "../../diagnostics/messages.js";
import { generatedModule, loadGeneratedModules } from "../../generated-modules.js";
import type { SchemaError } from "../../diagnostics/schema-problems.js";

export type RuleSetName = "v1.0.0" | (typeof compiledRuleSets)[number]["name"];
/** A rule set by name, or "auto": the set whose identifier the item lists in stac_extensions. */
export type RulesOption = RuleSetName | "auto";

export const DEFAULT_RULE_SET: RuleSetName = "v1.0.0";
/** Oldest first: of two identifiers an item lists, auto takes the newer set. */
export const RULE_SET_NAMES: readonly RuleSetName[] = [DEFAULT_RULE_SET, ...compiledRuleSets.map((set) => set.name)];
export const RULES_OPTIONS: readonly RulesOption[] = [...RULE_SET_NAMES, "auto"];

export interface RuleSet {
  name: RuleSetName;
  /** The identifier its items list in stac_extensions. */
  url: string;
  /**
   * An undefined prefixed member (fair:foo) is a warning in the specification's rules; fAIr's
   * v1.1.0 schema rejects it, so there it is an error.
   */
  undefinedPrefixed: Severity;
  /** The likely fix of some of the set's rules, by "<rule id> <path>", for issues that have none of their own. */
  suggestions: Readonly<Record<string, string>>;
}

export interface LoadedRuleSet {
  schema: JsonSchema;
  check: CompiledCheck;
}

const REJECTS_UNDEFINED_PREFIXED: ReadonlySet<RuleSetName> = new Set(["v1.1.0"]);

/** fAIr renamed the weights asset: items written for the specification have them in "model". */
const CHECKPOINT = "the weights asset is \"checkpoint\" under these rules; \"model\" holds only an ONNX export";
const WEIGHTS_IN_CHECKPOINT = { "required /assets/checkpoint": CHECKPOINT, "const /assets/model/mlm:artifact_type": CHECKPOINT };
const SUGGESTIONS: Partial<Record<RuleSetName, Readonly<Record<string, string>>>> = { "v1.0.0-current": WEIGHTS_IN_CHECKPOINT, "v1.1.0": WEIGHTS_IN_CHECKPOINT };

const ruleSets = new Map<RuleSetName, RuleSet>(
  [{ name: DEFAULT_RULE_SET, url: specSchema.$id as string }, ...compiledRuleSets].map(({ name, url }) => [
    name,
    { name, url, undefinedPrefixed: REJECTS_UNDEFINED_PREFIXED.has(name) ? "error" : "warning", suggestions: SUGGESTIONS[name] ?? {} },
  ]),
);

export function ruleSet(name: RuleSetName): RuleSet {
  return ruleSets.get(name)!;
}

export function isRulesOption(value: unknown): value is RulesOption {
  return (RULES_OPTIONS as readonly unknown[]).includes(value);
}

/** The set each fAIr identifier names; v1.0.0's is the specification's (the default), not v1.0.0-current. */
const byUrl = new Map<string, RuleSetName>();
for (const name of RULE_SET_NAMES) if (!byUrl.has(ruleSet(name).url)) byUrl.set(ruleSet(name).url, name);

export const RULE_SET_URLS: readonly string[] = [...byUrl.keys()];

/** For rules "auto": the newest set whose identifier the item lists; the default when it lists none. */
export function declaredRuleSet(value: unknown): RuleSetName {
  const listed = value !== null && typeof value === "object" ? (value as { stac_extensions?: unknown }).stac_extensions : undefined;
  let chosen = DEFAULT_RULE_SET;
  if (!Array.isArray(listed)) return chosen;
  for (const entry of listed) {
    const named = typeof entry === "string" ? byUrl.get(entry) : undefined;
    if (named !== undefined && RULE_SET_NAMES.indexOf(named) > RULE_SET_NAMES.indexOf(chosen)) chosen = named;
  }
  return chosen;
}

const loaded = new Map<RuleSetName, LoadedRuleSet>([[DEFAULT_RULE_SET, { schema: specSchema as JsonSchema, check: validateSpec as CompiledCheck }]]);

const modulePath = (name: RuleSetName) => `rule-sets/${name}.js`;

/** The schema and compiled check of a set, loaded on first use (see generated-modules.ts). */
export function loadedRuleSet(name: RuleSetName): LoadedRuleSet {
  let set = loaded.get(name);
  if (set === undefined) {
    const module = generatedModule(modulePath(name), () => `fAIr's rule set ${name} is not loaded: call \`await loadRuleSet(${JSON.stringify(name)})\` before validating with it (where basemodel cannot load files as it needs them, as in a browser)`);
    const { validate, schema } = module as { validate: CompiledCheck; schema: JsonSchema };
    set = { schema, check: validate };
    loaded.set(name, set);
  }
  return set;
}

/**
 * Loads one of fAIr's rule sets ("auto": every one it may pick). Node loads them when first
 * needed; where basemodel cannot load them as it needs them (a browser), validating with `rules`
 * (or a profile naming them) needs this first.
 */
export async function loadRuleSet(rules: RulesOption): Promise<void> {
  if (!isRulesOption(rules)) throw new TypeError(`rules must be one of ${RULES_OPTIONS.map((name) => JSON.stringify(name)).join(", ")}; found ${describeValue(rules)}`);
  const names = rules === "auto" ? RULE_SET_NAMES : [rules];
  await loadGeneratedModules(names.filter((name) => !loaded.has(name)).map(modulePath));
}

/** Option sets by name: `fair-ci` checks exactly what fAIr's catalogue CI checks today. */
export const PROFILES = {
  "fair-ci": { stac: true, rules: "v1.0.0-current", fairChecks: true },
} as const satisfies Record<string, { stac: boolean; rules: RulesOption; fairChecks: boolean }>;

export type ProfileName = keyof typeof PROFILES;
export const PROFILE_NAMES = Object.keys(PROFILES) as ProfileName[];

/** A compiled schema check: true when the value passes; otherwise `errors` lists every failure. */
export interface CompiledCheck {
  (data: unknown): boolean;
  errors?: SchemaError[] | null;
}
