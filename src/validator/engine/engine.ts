import { fairCheckIssues } from "../fair/checks.js";
import { datasetIssues } from "../fair/dataset.js";
import { modelAssetIssues } from "../fair/model-assets.js";
import { compiledCheck } from "../item/compile.js";
import { type CompiledCheck } from "../item/rule-sets.js";
import type { Issue } from "../../diagnostics/issue.js";
import type { ValidationResult } from "../item/result.js";
import { issuesFromSchemaErrors, type MessageContext } from "../item/schema-issues.js";
import { membersDefinedAt } from "../../diagnostics/near-miss.js";
import { isStacItem, listedDatasetSchema, notABaseModelItem } from "../item/not-an-item.js";
import { declaredRuleSet, DEFAULT_RULE_SET, loadedRuleSet, RULE_SET_NAMES, ruleSet, type RuleSetName } from "../item/rule-sets.js";
import { buildSchema, definedPrefixedMembers, type SchemaSettings } from "../item/schema.js";
import { type JsonSchema } from "../../diagnostics/json-schema.js";
import type { EngineSettings } from "../item/settings.js";


/** What judges an item under one rule set: its compiled schema, and what the messages need. */
interface Judge {
  name: RuleSetName;
  compiled: CompiledCheck;
  context: MessageContext;
  /** The settings the STAC layer gets: the base model identifier is this set's. */
  stacSettings: Readonly<EngineSettings>;
}

/**
 * The STAC layer (src/validator/stac): the STAC issues of one item, given what the base model rules found.
 * It is handed in rather than imported, so that what does not ask for it never loads it.
 */
export type StacCheck = (value: unknown, base: readonly Issue[], settings: Readonly<EngineSettings>) => Issue[];

/** The rule sets items may be judged by under these settings: with "auto", every one. */
export function ruleSetsOf(settings: Readonly<EngineSettings>): readonly RuleSetName[] {
  return settings.rules === "auto" ? RULE_SET_NAMES : [settings.rules ?? DEFAULT_RULE_SET];
}

/** The prefix and identifier a rule set checks: with "auto", each set its own (settingsFrom refuses another one). */
export function schemaSettingsOf(settings: Readonly<EngineSettings>, name: RuleSetName): SchemaSettings {
  return { prefix: settings.prefix, schemaUrl: settings.rules === "auto" ? ruleSet(name).url : settings.schemaUrl };
}

/** The two steps every entry point shares: find the issues of one value, then shape them into a result. */
export class Engine {
  /** Each rule set's judge, made on first use: with rules "auto", only the sets the items declare. */
  private readonly judges = new Map<RuleSetName, Judge>();
  /** The settings the STAC layer gets for dataset items, by the dataset schema they list: made once, as the layer caches by them. */
  private readonly datasetStacSettings = new Map<string, Readonly<EngineSettings>>();
  /** The dataset items fAIr's dataset rules judged (with fairChecks), which no rule set of base model items judged. */
  private readonly datasets = new WeakSet<object>();

  constructor(
    readonly settings: Readonly<EngineSettings>,
    private readonly stac?: StacCheck,
  ) {
    if (settings.stac && stac === undefined) throw new Error("stac: true needs the STAC layer (src/validator/stac)");
    // A fixed rule set is compiled now, so that a prefix Ajv cannot compile fails here, not on the first item.
    if (settings.rules !== "auto") this.judge(settings.rules ?? DEFAULT_RULE_SET);
  }

  private judge(name: RuleSetName): Judge {
    let judge = this.judges.get(name);
    if (judge === undefined) {
      const set = ruleSet(name);
      const settings = schemaSettingsOf(this.settings, name);
      const { schemaUrl } = settings;
      const definedPrefixed = definedPrefixedMembers(loadedRuleSet(name).schema, this.settings.prefix);
      let schema: JsonSchema | undefined;
      // Made on the first item that misses a member: valid items never pay for it.
      const membersAt = (pointer: string) => membersDefinedAt((schema ??= buildSchema(loadedRuleSet(name).schema, set.url, settings)), pointer);
      judge = {
        name,
        compiled: compiledCheck(set, settings),
        context: { schemaUrl, definedPrefixed, undefinedPrefixed: set.undefinedPrefixed, suggestions: set.suggestions, membersAt },
        stacSettings: schemaUrl === this.settings.schemaUrl ? this.settings : { ...this.settings, schemaUrl },
      };
      this.judges.set(name, judge);
    }
    return judge;
  }

  /** The rule set that judges a value. */
  ruleSetFor(value: unknown): RuleSetName {
    return this.settings.rules === "auto" ? declaredRuleSet(value) : (this.settings.rules ?? DEFAULT_RULE_SET);
  }

  /** The rule set a result names: only when the caller chose rule sets, and not for a dataset item (see check). */
  judged(value: unknown): RuleSetName | undefined {
    if (this.settings.rules === undefined || (value !== null && typeof value === "object" && this.datasets.has(value))) return undefined;
    return this.ruleSetFor(value);
  }

  /** Every issue of one item, uncapped, with paths below `base` (the item's pointer in its document). */
  check(value: unknown, base = ""): Issue[] {
    const { name, compiled, context, stacSettings } = this.judge(this.ruleSetFor(value));
    const valid = compiled(value);
    // Something else altogether (a dataset item, a package.json): one issue says so, not one per member it lacks.
    const other = valid ? undefined : notABaseModelItem(value, context);
    const dataset = other === undefined ? undefined : listedDatasetSchema(value);
    let issues: Issue[];
    if (dataset !== undefined && this.settings.fairChecks) {
      // fAIr's CI checks its dataset items too: by fAIr's dataset rules, and its keyword check.
      this.datasets.add(value as object);
      issues = datasetIssues(value, dataset);
      issues.push(...fairCheckIssues(value, issues, this.settings.prefix, name));
    } else {
      issues = valid ? [] : other ? [other] : issuesFromSchemaErrors(compiled.errors ?? [], value, context);
      if (this.settings.fairChecks && other === undefined) issues.push(...fairCheckIssues(value, issues, this.settings.prefix, name), ...modelAssetIssues(value, issues));
    }
    // A STAC Item that describes no model is still one: --stac checks it as such. The dataset schema
    // a dataset item lists is the one thing it does not check, since fAIr's dataset rules do.
    if (this.settings.stac && (other === undefined || isStacItem(value))) {
      issues.push(...this.stac!(value, issues, dataset === undefined ? stacSettings : this.datasetStacSettingsFor(dataset)));
    }
    if (base !== "") for (const issue of issues) issue.path = base + issue.path;
    return issues;
  }

  private datasetStacSettingsFor(schemaUrl: string): Readonly<EngineSettings> {
    let settings = this.datasetStacSettings.get(schemaUrl);
    if (settings === undefined) {
      settings = { ...this.settings, schemaUrl };
      this.datasetStacSettings.set(schemaUrl, settings);
    }
    return settings;
  }

  /** Applies strict and maxErrors: errors are kept before warnings. The result names `judgedBy` when given. */
  finish(issues: Issue[], judgedBy?: RuleSetName): ValidationResult {
    const result = this.shape(issues);
    if (judgedBy !== undefined) result.ruleSet = judgedBy;
    return result;
  }

  private shape(issues: Issue[]): ValidationResult {
    if (issues.length === 0) return { valid: true, errors: [], warnings: [], omitted: 0 };
    const errors: Issue[] = [];
    const warnings: Issue[] = [];
    for (const issue of issues) {
      if (this.settings.strict) issue.severity = "error";
      (issue.severity === "error" ? errors : warnings).push(issue);
    }
    const keptErrors = errors.slice(0, this.settings.maxErrors);
    const keptWarnings = warnings.slice(0, this.settings.maxErrors - keptErrors.length);
    const result: ValidationResult = { valid: errors.length === 0, errors: keptErrors, warnings: keptWarnings, omitted: issues.length - keptErrors.length - keptWarnings.length };
    if (result.omitted > 0) {
      result.omittedErrors = errors.length - keptErrors.length;
      result.omittedWarnings = warnings.length - keptWarnings.length;
    }
    return result;
  }
}
