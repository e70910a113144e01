/**
 * --fair-checks on fAIr's dataset items (STAC label items whose stac_extensions lists fAIr's
 * dataset schema), checked as fAIr's catalogue CI checks them: the identifier they list, and
 * fAIr's dataset rules (schema/datasets/v1.0.0.schema.json: ours, written from the facts of the
 * schema fAIr publishes, and compiled ahead of time). fAIr's keyword check (checks.ts) applies to
 * them too, and --stac adds core STAC and the extensions they declare.
 */
import type { Issue } from "../../diagnostics/issue.js";
import type { JsonSchema } from "../../diagnostics/json-schema.js";
import { issue } from "../../diagnostics/messages.js";
import { membersDefinedAt } from "../../diagnostics/near-miss.js";
import { generatedModule, loadGeneratedModules } from "../../generated-modules.js";
import type { CompiledCheck } from "../item/rule-sets.js";
import { issuesFromSchemaErrors, type MessageContext } from "../item/schema-issues.js";

/** The identifier fAIr's dataset items list, and fAIr's CI knows, since fAIr-models 60d5e29 (2026-04-07). */
export const DATASET_SCHEMA_URL = "https://hotosm.github.io/fAIr-models/schemas/v1.0.0/dataset/schema.json";

interface DatasetRules {
  check: CompiledCheck;
  context: MessageContext;
}

const MODULE = "datasets/v1.0.0.js";

let rules: DatasetRules | undefined;

/** The compiled rules, loaded on first use as a rule set is (see generated-modules.ts). */
function datasetRules(): DatasetRules {
  if (rules === undefined) {
    const module = generatedModule(MODULE, () => "fAIr's dataset rules are not loaded: call `await loadDatasetRules()` before validating a dataset item with fairChecks: true (where basemodel cannot load files as it needs them, as in a browser)");
    const { validate: check, schema } = module as { validate: CompiledCheck; schema: JsonSchema };
    rules = {
      check,
      // fAIr's dataset rules define three fair: members and allow any other: none is unknown.
      context: { schemaUrl: DATASET_SCHEMA_URL, definedPrefixed: [], undefinedPrefixed: "warning", suggestions: {}, membersAt: (pointer) => membersDefinedAt(schema, pointer) },
    };
  }
  return rules;
}

/**
 * Loads fAIr's dataset rules. Node loads them when first needed; where basemodel cannot load them
 * as it needs them (a browser), checking dataset items with `fairChecks` (or the fair-ci profile)
 * needs this first.
 */
export function loadDatasetRules(): Promise<void> {
  return loadGeneratedModules([MODULE]);
}

/**
 * The issues of a dataset item whose stac_extensions lists the dataset schema `listed` (so it is an object with that array). Another
 * dataset identifier than fAIr's (its short-lived one without /schemas/) names a schema fAIr's CI
 * cannot find, and fails there.
 */
export function datasetIssues(value: unknown, listed: string): Issue[] {
  const { check, context } = datasetRules();
  const issues = check(value) ? [] : issuesFromSchemaErrors(check.errors ?? [], value, context);
  if (listed !== DATASET_SCHEMA_URL) {
    const index = ((value as { stac_extensions: unknown[] }).stac_extensions).indexOf(listed);
    issues.unshift(
      issue("schema-url", `/stac_extensions/${index}`, `stac_extensions[${index}] is ${JSON.stringify(listed)}, which is not fAIr's dataset schema`, {
        expected: DATASET_SCHEMA_URL,
        actual: listed,
        suggestion: `replace it with ${JSON.stringify(DATASET_SCHEMA_URL)}`,
      }),
    );
  }
  return issues;
}
