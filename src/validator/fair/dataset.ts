/**
 * --fair-checks on fAIr's dataset items (STAC label items whose stac_extensions lists fAIr's
 * dataset schema), checked as fAIr's catalogue CI checks them: the identifier they list, and
 * fAIr's dataset rules (schema/datasets/v1.0.0.schema.json: ours, written from the facts of the
 * schema fAIr publishes, and compiled ahead of time). fAIr's keyword check (checks.ts) applies to
 * them too, and --stac adds core STAC and the extensions they declare.
 */
import { createRequire } from "node:module";
import type { Issue } from "../../diagnostics/issue.js";
import type { JsonSchema } from "../../diagnostics/json-schema.js";
import { issue } from "../../diagnostics/messages.js";
import { membersDefinedAt } from "../../diagnostics/near-miss.js";
import { packageFile } from "../../package-files.js";
import type { CompiledCheck } from "../item/rule-sets.js";
import { issuesFromSchemaErrors, type MessageContext } from "../item/schema-issues.js";

/** The identifier fAIr's dataset items list, and fAIr's CI knows, since fAIr-models 60d5e29 (2026-04-07). */
export const DATASET_SCHEMA_URL = "https://hotosm.github.io/fAIr-models/schemas/v1.0.0/dataset/schema.json";

interface DatasetRules {
  check: CompiledCheck;
  context: MessageContext;
}

let rules: DatasetRules | undefined;

/** The compiled rules, loaded on first use (as rule-sets.ts loads a rule set: synchronously, from the package root). */
function datasetRules(): DatasetRules {
  if (rules === undefined) {
    const check = createRequire(import.meta.url)(packageFile("dist/generated/datasets/v1.0.0.cjs")) as CompiledCheck & { schema: JsonSchema };
    rules = {
      check,
      // fAIr's dataset rules define three fair: members and allow any other: none is unknown.
      context: { schemaUrl: DATASET_SCHEMA_URL, definedPrefixed: [], undefinedPrefixed: "warning", suggestions: {}, membersAt: (pointer) => membersDefinedAt(check.schema, pointer) },
    };
  }
  return rules;
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
