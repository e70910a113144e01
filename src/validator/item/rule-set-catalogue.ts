import type { RuleSetName } from "./rule-sets.js";

export interface RuleSetRule {
  /** What the rule set asks, in one sentence. */
  rule: string;
  /** A value that breaks it, and what the validator says. */
  example: string;
}

export interface RuleSetEntry {
  name: RuleSetName | "auto";
  summary: string;
  /** What the set asks beyond the one before it in this list. */
  rules: readonly RuleSetRule[];
}

/** fAIr's rule sets as `basemodel rules` and docs/rules.md describe them. */
export const ruleSetCatalogue: readonly RuleSetEntry[] = [
  {
    name: "v1.0.0",
    summary:
      "The specification's rules, for the identifier https://hotosm.github.io/fAIr-models/schemas/v1.0.0/base-model/schema.json (schema/base-model-item.schema.json). The default.",
    rules: [],
  },
  {
    name: "v1.0.0-current",
    summary:
      "What fAIr enforces today under the same v1.0.0 identifier (schema/rule-sets/v1.0.0-current.schema.json, written from the rules fAIr-models publishes since 791ea32a, 2026-04-19). Beyond v1.0.0:",
    rules: [
      {
        rule: "The weights are the `checkpoint` asset, required, with `mlm:artifact_type` (torch.save, torch.jit.save, torch.export.save, pickle, tf.keras.Model.save, tf.keras.Model.save_weights or tf.keras.Model.export).",
        example: 'assets without "checkpoint" -> "checkpoint" is missing from assets',
      },
      {
        rule: "The `checkpoint` and `model` hrefs are http(s) URLs.",
        example:
          '`"href": "yolo11n.pt"` -> assets.checkpoint.href must be an http(s) URL, starting with http:// or https://; found a string ("yolo11n.pt")',
      },
      {
        rule: 'The `model` asset is optional; when present it is the ONNX export: `mlm:artifact_type` is "onnx".',
        example: '`"mlm:artifact_type": "torch.save"` on the model asset -> assets.model.mlm:artifact_type must be "onnx"; found a string ("torch.save")',
      },
      {
        rule: "`providers` is required: at least one, each with a non-empty `name` and at least one `roles` entry (strings); `url`, when given, is an absolute URI; `description` a string.",
        example: '`"providers": [{"name": "HOTOSM"}]` -> "roles" is missing from properties.providers[0]',
      },
      {
        rule: "`mlm:hyperparameters` has `training.epochs` and `training.batch_size` (integers of at least 1), `training.learning_rate` (above 0) and `inference.confidence_threshold` (0 to 1).",
        example: '`"inference.confidence_threshold": 50` -> properties.mlm:hyperparameters["inference.confidence_threshold"] must be at most 1; found a number (50)',
      },
      {
        rule: "`fair:hyperparameters_spec`, which fAIr's CI reads, is a known member (no warning); `--fair-checks` checks it.",
        example: "the real items' fair:hyperparameters_spec -> no warning",
      },
    ],
  },
  {
    name: "v1.1.0",
    summary:
      "fAIr's v1.1.0 identifier, https://hotosm.github.io/fAIr-models/schemas/v1.1.0/base-model/schema.json (schema/rule-sets/v1.1.0.schema.json, written from the rules fAIr-models publishes for it). Beyond v1.0.0-current:",
    rules: [
      {
        rule: "`stac_extensions` lists the v1.1.0 identifier.",
        example:
          'the v1.0.0 identifier only -> stac_extensions must include the base model schema "https://hotosm.github.io/fAIr-models/schemas/v1.1.0/base-model/schema.json"; found an array of 6 items (replace ".../v1.0.0/..." with ".../v1.1.0/...")',
      },
      {
        rule: "`fair:category` (a non-empty string) and `fair:hyperparameters_spec` are required; each spec entry has a non-empty `key` and a `type` (int, float, str, bool or imagery); `optional` is a boolean, `description` a string, `min` and `max` numbers, `values` an array.",
        example: 'no fair:category -> "fair:category" is missing from properties',
      },
      {
        rule: "`mlm:training` is optional (with an href when present); of the hyperparameters only `inference.confidence_threshold` is required, the other three keep their bounds when given.",
        example: 'no "training.epochs" -> no issue',
      },
      {
        rule: "`mlm:framework` may also be scikit-learn.",
        example: '`"mlm:framework": "sklearn"` -> properties.mlm:framework must be one of "PyTorch", "TensorFlow", "scikit-learn"; found a string ("sklearn")',
      },
      {
        rule: "Optional members: `fair:preview` (`center` [lon, lat], `zoom.recommended` required; zoom levels integers 0 to 24; `bbox` 4 numbers; `imagery.url` required), `fair:coverage` (string), `fair:source_imagery` (non-empty string), `fair:pinned` (boolean), `fair:metrics` (object), `fair:output_properties` (each with `key` and a `type`: string, number, integer or boolean; `role`: label, confidence, id or value).",
        example: '`"zoom": {"recommended": 25}` -> properties.fair:preview.zoom.recommended must be at most 24; found a number (25)',
      },
      {
        rule: "Every other `fair:` member is an error, not a warning.",
        example:
          '`"fair:categroy": "buildings"` -> unknown member "fair:categroy" in properties; the known "fair:" members are fair:metrics_spec, fair:split_spec, fair:category, … (did you mean "fair:category"?)',
      },
    ],
  },
  {
    name: "auto",
    summary:
      "The rule set whose identifier each item lists in `stac_extensions`: v1.1.0 for the v1.1.0 identifier, v1.0.0 (the specification's) for the v1.0.0 identifier and for an item that lists neither.",
    rules: [],
  },
];
