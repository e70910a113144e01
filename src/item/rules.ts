import type { RuleId, Severity } from "./issue.js";

export interface Rule {
  id: RuleId;
  /** Severity unless options change it (unknown-prefixed-property becomes an error with strict). */
  severity: Severity;
  /** One line: what the rule checks. */
  summary: string;
  /** Where the rule applies in a base model item. */
  appliesTo: string;
  /** A value that breaks the rule, and what the validator says about it. */
  example: string;
}

/** The rule catalogue: the source of `basemodel rules`, docs/rules.md and SARIF rule descriptors. */
export const rules: readonly Rule[] = [
  {
    id: "json-syntax",
    severity: "error",
    summary: "The text is well-formed JSON.",
    appliesTo: "every file or NDJSON line",
    example: '`{"type": "Feature",}` -> JSON syntax error: Unexpected token RBrace found.',
  },
  {
    id: "encoding",
    severity: "error",
    summary: "The text is UTF-8 (a leading byte-order mark is accepted).",
    appliesTo: "every file",
    example: "`{\"title\": \"caf\\xe9\"}` in Latin-1 -> the text is not valid UTF-8 (byte 0xe9 at offset 14)",
  },
  {
    id: "duplicate-key",
    severity: "warning",
    summary: "No object has the same member twice (JSON parsers silently keep only the last one).",
    appliesTo: "every object",
    example: '`{"version": "1", "version": "2"}` in properties -> "version" appears more than once in properties; JSON readers keep only the last value',
  },
  {
    id: "required",
    severity: "error",
    summary: "Every required member is present.",
    appliesTo:
      "type, stac_extensions, properties, assets; the 16 required properties; the four split_spec members; pre_/post_processing_function and their format and expression; classification:classes and each class name; metrics_spec names; the four required assets and their href",
    example: 'properties without "mlm:name" -> "mlm:name" is missing from properties',
  },
  {
    id: "type",
    severity: "error",
    summary: "Every member has the JSON type the spec gives it (string, number, integer, boolean, array, object, string or null).",
    appliesTo: "every member the spec defines, and the item itself (an object)",
    example: '`"seed": 1.5` -> properties.fair:split_spec.seed must be an integer; found a number (1.5)',
  },
  {
    id: "const",
    severity: "error",
    summary: 'The item\'s "type" is exactly "Feature".',
    appliesTo: "type",
    example: '`"type": "feature"` -> type must be "Feature"; found a string ("feature") (did you mean "Feature"?)',
  },
  {
    id: "enum",
    severity: "error",
    summary: "A member with a closed list of values holds one of them (exact, case-sensitive).",
    appliesTo: "mlm:tasks items, mlm:framework, license, assets.model.mlm:artifact_type",
    example: '`"mlm:framework": "pytorch"` -> properties.mlm:framework must be one of "PyTorch", "TensorFlow"; found a string ("pytorch") (did you mean "PyTorch"?)',
  },
  {
    id: "min-length",
    severity: "error",
    summary: "A member that must name something is not an empty string.",
    appliesTo:
      "mlm:name, mlm:architecture, mlm:framework_version, version, metrics_spec names, split_spec.strategy, every asset href, assets.source-code.mlm:entrypoint",
    example: '`"mlm:name": ""` -> properties.mlm:name must not be empty',
  },
  {
    id: "min-items",
    severity: "error",
    summary: "A list that must say something holds at least one item.",
    appliesTo: "mlm:tasks, mlm:input, mlm:output, keywords, metrics_spec",
    example: '`"keywords": []` -> properties.keywords must hold at least 1 item; found an empty array',
  },
  {
    id: "exclusive-range",
    severity: "error",
    summary: "split_spec.default_ratio lies strictly between 0 and 1.",
    appliesTo: "split_spec.default_ratio",
    example: "`\"default_ratio\": 1` -> properties.fair:split_spec.default_ratio must be less than 1; found a number (1)",
  },
  {
    id: "schema-url",
    severity: "error",
    summary: "stac_extensions lists the base model schema identifier.",
    appliesTo: "stac_extensions",
    example:
      "`\"stac_extensions\": []` -> stac_extensions must include the base model schema \"https://hotosm.github.io/fAIr-models/schemas/v1.0.0/base-model/schema.json\"; found an empty array",
  },
  {
    id: "unknown-prefixed-property",
    severity: "warning",
    summary:
      "Every property with the service prefix is one the schema defines (metrics_spec, split_spec); a warning by default, an error with strict.",
    appliesTo: "properties",
    example:
      '`"fair:metric_spec": [...]` -> properties.fair:metric_spec is not defined by the base model schema, which defines only fair:metrics_spec and fair:split_spec with this prefix (did you mean "fair:metrics_spec"?)',
  },
];

const byId = new Map(rules.map((rule) => [rule.id, rule]));

export function ruleById(id: RuleId): Rule {
  const rule = byId.get(id);
  if (!rule) throw new Error(`unknown rule ${id}`);
  return rule;
}
