/**
 * --fair-checks: what fAIr's catalogue CI checks of every item beyond its schema, each finding at
 * its place: keywords from fAIr's vocabulary (keywords.ts), and fair:hyperparameters_spec covering
 * mlm:hyperparameters (hyperparameters-spec.ts). Of model items it also checks their model assets
 * (model-assets.ts); dataset items it checks by fAIr's dataset rules (dataset.ts).
 */
import type { Issue } from "../../diagnostics/issue.js";
import type { RuleSetName } from "../item/rule-sets.js";
import { hyperparameterSpecIssues, isObject } from "./hyperparameters-spec.js";
import { keywordIssues } from "./keywords.js";

/** The findings of fAIr's CI checks on one item, judged by `ruleSet`, after the schema found `base`. */
export function fairCheckIssues(value: unknown, base: readonly Issue[], prefix: string, ruleSet: RuleSetName): Issue[] {
  const properties = isObject(value) && isObject(value.properties) ? value.properties : undefined;
  if (properties === undefined) return [];
  const mistyped = new Set(base.filter((found) => found.rule === "type").map((found) => found.path));
  return [...keywordIssues(properties.keywords, ruleSet), ...hyperparameterSpecIssues(properties, prefix, (path) => mistyped.has(path))];
}
