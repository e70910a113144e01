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
  /** How the rule decides and words what it finds, where a line is not enough (Markdown). */
  details?: string;
}

/** The rule catalogue: the source of `basemodel rules`, docs/rules.md and SARIF rule descriptors. */
export const rules: readonly Rule[] = [
  {
    id: "json-syntax",
    severity: "error",
    summary: "The text is well-formed JSON.",
    appliesTo: "every file or NDJSON line",
    example: '`{"type": "Feature",}` -> JSON syntax error: trailing comma before `}`; JSON allows no comma after the last member of an object',
    details:
      "The first mistake is named in words, where it is: a trailing comma (at the comma); a missing comma or colon (where it belongs, just after the value or member name before it); " +
      "single quotes; an unquoted member name or text; a comment; NaN and Infinity; Python's True, False and None (with the JSON word meant); " +
      "numbers JSON does not write (a leading zero, hexadecimal, `.5`, `1.`); a backslash that starts no escape; a tab or line break inside a string; " +
      "white space JSON does not know (a no-break space); a bracket closed by the other kind; text after the value; " +
      "and a text that ends early, naming the string, object or array left open and where it opened. " +
      "Several JSON documents, one per line, get a hint to read the text as NDJSON: `--stdin-filename items.ndjson` for standard input, a `.ndjson` or `.jsonl` name for a file, `format: \"ndjson\"` in the library.",
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
      "type, stac_extensions, properties, assets; the 16 required properties; the four split_spec members; pre_/post_processing_function and their format and expression; classification:classes and each class name; metrics_spec names; the four required assets and their href. Rules v1.0.0-current and v1.1.0: providers and each provider's name and roles, assets.checkpoint (not model) with its mlm:artifact_type, the model asset's mlm:artifact_type when it is there, the four hyperparameters training.epochs, training.batch_size, training.learning_rate and inference.confidence_threshold (v1.1.0: only the last); v1.1.0 also fair:category and fair:hyperparameters_spec (with each entry's key and type), no longer mlm:training",
    example: 'properties without "mlm:name" -> "mlm:name" is missing from properties',
    details:
      "When the object holds a member whose name is a near miss of the missing one (the same but for letter case, or a few letters off: at most a third of the shorter name, at least one), " +
      'the error says so, points at the member written and gives its name as `actual`: `"mlm:framwork"` -> `"mlm:framework" is missing from properties; found "mlm:framwork" (did you mean "mlm:framework"?)`; ' +
      "likewise `modle` for the asset `model`, `stac_extension`, `propertie`, `fair:metric_spec`. " +
      "Members the schema defines for that object are never taken for near misses (`mlm:input` is no misspelling of a missing `mlm:output`). " +
      "With `--stac` the near miss is not also reported as a member MLM does not define, and the members core STAC requires get the same (`stac_verison`, `date_time`). " +
      "A misspelled optional member (`mlm:acelerator`) is not something the base model rules can tell, since they define only the specification's members: with `--stac`, MLM's schema rejects every `mlm:` member it does not define, with the one meant.",
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
    summary: 'The item\'s "type" is exactly "Feature"; rules v1.0.0-current and v1.1.0: the model asset is the ONNX export.',
    appliesTo: 'type; rules v1.0.0-current and v1.1.0: assets.model.mlm:artifact_type ("onnx")',
    example: '`"type": "feature"` -> type must be "Feature"; found a string ("feature") (did you mean "Feature"?)',
  },
  {
    id: "enum",
    severity: "error",
    summary: "A member with a closed list of values holds one of them (exact, case-sensitive).",
    appliesTo:
      "mlm:tasks items, mlm:framework, license, assets.model.mlm:artifact_type; rules v1.0.0-current and v1.1.0: assets.checkpoint.mlm:artifact_type (any but onnx); v1.1.0: mlm:framework also scikit-learn, fair:hyperparameters_spec types, fair:output_properties types and roles",
    example: '`"mlm:framework": "pytorch"` -> properties.mlm:framework must be one of "PyTorch", "TensorFlow"; found a string ("pytorch") (did you mean "PyTorch"?)',
  },
  {
    id: "min-length",
    severity: "error",
    summary: "A member that must name something is not an empty string.",
    appliesTo:
      "mlm:name, mlm:architecture, mlm:framework_version, version, metrics_spec names, split_spec.strategy, every asset href, assets.source-code.mlm:entrypoint; rules v1.0.0-current and v1.1.0: provider names; v1.1.0: fair:category, fair:source_imagery, fair:hyperparameters_spec and fair:output_properties keys, fair:preview imagery url",
    example: '`"mlm:name": ""` -> properties.mlm:name must not be empty',
  },
  {
    id: "min-items",
    severity: "error",
    summary: "A list that must say something holds at least one item.",
    appliesTo: "mlm:tasks, mlm:input, mlm:output, keywords, metrics_spec; rules v1.0.0-current and v1.1.0: providers and each provider's roles; v1.1.0: fair:preview center (2) and bbox (4)",
    example: '`"keywords": []` -> properties.keywords must hold at least 1 item; found an empty array',
  },
  {
    id: "exclusive-range",
    severity: "error",
    summary: "A number lies strictly within its bounds: split_spec.default_ratio between 0 and 1; rules v1.0.0-current and v1.1.0: training.learning_rate above 0.",
    appliesTo: "split_spec.default_ratio; rules v1.0.0-current and v1.1.0: mlm:hyperparameters training.learning_rate",
    example: "`\"default_ratio\": 1` -> properties.fair:split_spec.default_ratio must be less than 1; found a number (1)",
  },
  {
    id: "schema-url",
    severity: "error",
    summary:
      "stac_extensions lists the base model schema identifier (the rule set's: v1.0.0 and v1.0.0-current share one, v1.1.0 has its own); with --fair-checks, a fAIr dataset item lists fAIr's dataset schema identifier, not a near miss of it.",
    appliesTo: "stac_extensions",
    example:
      "`\"stac_extensions\": []` -> stac_extensions must include the base model schema \"https://hotosm.github.io/fAIr-models/schemas/v1.0.0/base-model/schema.json\"; found an empty array",
  },
  {
    id: "unknown-prefixed-property",
    severity: "warning",
    summary:
      "Every property with the service prefix is one the schema defines (metrics_spec, split_spec; v1.0.0-current also hyperparameters_spec, which fAIr's CI reads; v1.1.0 ten of them); a warning by default, an error with strict, and an error under rule set v1.1.0, which rejects them.",
    appliesTo: "properties",
    example:
      '`"fair:metric_spec": [...]` -> unknown member "fair:metric_spec" in properties; the known "fair:" members are fair:metrics_spec and fair:split_spec (did you mean "fair:metrics_spec"?)',
  },
  {
    id: "not-a-base-model-item",
    severity: "error",
    summary:
      "The object is meant to be a base model item; one that shows no sign of it (see below) gets this one issue instead of an error per member it lacks.",
    appliesTo: "every object validated as an item",
    details:
      "An object is taken for a base model item, and gets every error in detail however many members it lacks, when it shows any sign of being one: " +
      "its stac_extensions lists the base model schema identifier or a near miss of it (a version or scheme typo), " +
      "or it has a member named `mlm:...` or one the schema defines with the service prefix (`fair:metrics_spec`, `fair:split_spec`) at its top level, in properties, in assets or in one of its assets. " +
      "An object with none of these gets this one error, which says what it looks like: a fAIr dataset item (its stac_extensions lists a `.../dataset/schema.json`), " +
      "a STAC Collection or Catalog, a STAC Item or GeoJSON Feature that describes no model, a JSON Schema, an npm package.json, an empty object, or else its first members; " +
      "`--fair-checks` does not look at it either, and `--stac` checks it only when it is a STAC Item (a Feature with a stac_version). " +
      "A fAIr dataset item gets this error only without `--fair-checks`, with a suggestion naming the flag: `--fair-checks` (and `--profile fair-ci`) checks it as fAIr's CI does, " +
      "by fAIr's dataset rules (schema/datasets/v1.0.0.schema.json, written from the facts of the schema fAIr publishes: the identifier in stac_extensions, title, description, " +
      "label:type (vector or raster), label:tasks, label:classes (each with name and classes), keywords, fair:user_id, version, deprecated and providers, a fair:chip_count of at least 1, " +
      "the assets chips and labels with an href), reported under the rule ids of the base model rules (`schema-url`, `required`, `type`, `enum`, `min-length`, `min-items`, `range`, `format`), and by fAIr's keyword check (`fair-keyword`); " +
      "with `--stac` also by core STAC and every extension it declares but fAIr's dataset schema. " +
      "A GeoJSON FeatureCollection is never an item: a file's features are validated one by one, and when none of them is meant as an item the file gets this one error instead of one per feature. " +
      "A value that is not an object at all is a `type` error.",
    example:
      'a fAIr dataset item -> not a base model item: found a fAIr dataset item (its stac_extensions lists "https://hotosm.github.io/fAIr-models/schemas/v1.0.0/dataset/schema.json") (--fair-checks or --profile fair-ci checks it by fAIr\'s dataset rules, as fAIr\'s CI does; in the library, fairChecks: true)',
  },
  {
    id: "range",
    severity: "error",
    summary: "Rules v1.0.0-current and v1.1.0: a number lies within its bounds (bounds included).",
    appliesTo: "mlm:hyperparameters training.epochs and training.batch_size (at least 1), inference.confidence_threshold (0 to 1); v1.1.0: fair:preview zoom levels (0 to 24)",
    example:
      '`"training.epochs": 0` -> properties.mlm:hyperparameters["training.epochs"] must be at least 1; found a number (0)',
  },
  {
    id: "max-items",
    severity: "error",
    summary: "Rule set v1.1.0: a list of fixed length holds no more items than it may.",
    appliesTo: "fair:preview center (2 numbers) and bbox (4 numbers)",
    example: '`"center": [85.3, 27.7, 0]` -> properties.fair:preview.center must hold at most 2 items; found an array of 3 items',
  },
  {
    id: "pattern",
    severity: "error",
    summary: "Rules v1.0.0-current and v1.1.0: the model files are at http(s) URLs, which fAIr's training and inference download.",
    appliesTo: "assets.checkpoint.href, assets.model.href",
    example:
      '`"href": "yolo11n.pt"` on the checkpoint -> assets.checkpoint.href must be an http(s) URL, starting with http:// or https://; found a string ("yolo11n.pt")',
  },
  {
    id: "format",
    severity: "error",
    summary: "Rules v1.0.0-current and v1.1.0: a provider's url is an absolute URI.",
    appliesTo: "properties.providers[].url",
    example: '`"url": "www.hotosm.org"` -> properties.providers[0].url must be an absolute URI such as "https://www.hotosm.org"; found a string ("www.hotosm.org")',
  },
  {
    id: "fair-keyword",
    severity: "error",
    summary: "With --fair-checks: every keyword is one of the vocabulary fAIr's catalogue CI accepts (schema/rule-sets/keywords.json, by rule set).",
    appliesTo: "properties.keywords items",
    example:
      '`"keywords": ["buildings"]` -> properties.keywords[0] is not a keyword fAIr\'s catalogue accepts, which are "building", "road", "tree", "water", "landuse", "semantic-segmentation", "instance-segmentation", "object-detection", "classification", "polygon", "line", "point"; found a string ("buildings") (did you mean "building"?)',
  },
  {
    id: "fair-hyperparameter-spec",
    severity: "error",
    summary:
      "With --fair-checks: every key of mlm:hyperparameters, without training. or inference., has an entry in fair:hyperparameters_spec (checked when both are non-empty, as fAIr's CI does).",
    appliesTo: "properties.mlm:hyperparameters members",
    example:
      '`"training.loss": "dice"`, no entry with key "loss" -> properties.mlm:hyperparameters["training.loss"] has no entry in fair:hyperparameters_spec (an entry with "key": "loss") (add an entry with "key": "loss" to fair:hyperparameters_spec)',
  },
  {
    id: "fair-hyperparameter-spec-entry",
    severity: "error",
    summary: "With --fair-checks: fair:hyperparameters_spec is a list of objects, each with type, default and description (checked when both it and mlm:hyperparameters are non-empty).",
    appliesTo: "properties.fair:hyperparameters_spec and its entries",
    example:
      '`{"key": "epochs", "type": "int"}` -> properties.fair:hyperparameters_spec[0] ("epochs") has no "default" and "description"; fAIr\'s CI needs "type", "default" and "description" in every entry',
  },
  {
    id: "fair-model-asset",
    severity: "error",
    summary:
      "With --fair-checks: a model item has the two assets fAIr's CI downloads, checkpoint (the trained weights) and model (the ONNX export), each with an http(s) href, whatever the rule set requires of them.",
    appliesTo: "assets.checkpoint and assets.model, and their href",
    example:
      'assets with "checkpoint" but no "model" -> "model" is missing from assets; fAIr\'s CI requires the assets "checkpoint" and "model" of every model item (add the model exported to ONNX at an http(s) URL as the asset "model")',
    details:
      "fAIr's CI says `Missing required asset 'model'` (or `'checkpoint'`), or that an asset's href must be an http(s) URL. " +
      "What the rule set reported at an asset already is not said again: a missing checkpoint or a relative href under v1.0.0-current, a missing model under v1.0.0. " +
      "fAIr's CI then sends each of the two hrefs a HEAD request: `--check-links` does that here (it is not part of `--profile fair-ci`, which sends no request).",
  },
  {
    id: "stac-core",
    severity: "error",
    summary: "With --stac: the item follows the official core STAC item schema of its stac_version (GeoJSON Feature and Geometry included).",
    appliesTo: "the whole item, STAC 1.0.0 and 1.1.0",
    example: '`"datetime": "2025-11-02"` -> properties.datetime must be a date and time in RFC 3339 form, such as 2025-11-02T08:15:00Z; found a string ("2025-11-02")',
  },
  {
    id: "stac-extension",
    severity: "error",
    summary: "With --stac: the item follows the official schema of every extension its stac_extensions lists (bundled: see schema/stac/provenance.json).",
    appliesTo: "the whole item: MLM 1.0.0-1.5.2, classification, file, raster, version, processing, datacube, label, eo, projection",
    example: '`"mlm:accelerator": "CUDA"` -> properties.mlm:accelerator must be one of "amd64", "cuda", "xla", "amd-rocm", "intel-ipex-cpu", "intel-ipex-gpu", "macos-arm", null; found a string ("CUDA") (did you mean "cuda"?)',
  },
  {
    id: "stac-version",
    severity: "error",
    summary: "With --stac: stac_version is a STAC version basemodel has the schemas of (1.0.0, 1.1.0).",
    appliesTo: "stac_version",
    example: '`"stac_version": "1.1"` -> stac_version must be one of "1.0.0", "1.1.0", the STAC versions basemodel checks; found "1.1" (did you mean "1.1.0"?)',
  },
  {
    id: "stac-extension-url",
    severity: "error",
    summary: "With --stac: an entry of stac_extensions that is a misspelling of a known extension schema URL.",
    appliesTo: "stac_extensions items",
    example:
      '`".../mlm/v1.5/schema.json"` -> stac_extensions[0] is not the URL of any STAC extension schema; found "https://stac-extensions.github.io/mlm/v1.5/schema.json" (did you mean "https://stac-extensions.github.io/mlm/v1.5.0/schema.json"?)',
  },
  {
    id: "stac-extension-unknown",
    severity: "warning",
    summary: "With --stac: an entry of stac_extensions whose schema basemodel does not bundle, nor was given with --schema-map or downloaded with --fetch, so it is not checked.",
    appliesTo: "stac_extensions items",
    example:
      '`".../sar/v1.0.0/schema.json"` -> stac_extensions[2] is not checked: this schema is not bundled; found "https://stac-extensions.github.io/sar/v1.0.0/schema.json" (to check it, give a local copy with --schema-map "https://stac-extensions.github.io/sar/v1.0.0/schema.json=<file>" or download it once with --fetch; in the library, schemaMap or fetchSchemas)',
  },
  {
    id: "stac-extension-missing",
    severity: "error",
    summary: "With --stac: a member named with an extension's prefix (mlm:, raster:, file:, ...) comes with that extension in stac_extensions, or its schema is never applied.",
    appliesTo: "members of the item, properties, assets, links and bands",
    example:
      '`"raster:bands"` on an asset, no raster URL -> assets.model.raster:bands uses the raster extension, which stac_extensions does not list, so its schema is not applied (add "https://stac-extensions.github.io/raster/v2.0.0/schema.json" to stac_extensions)',
  },
  {
    id: "stac-links",
    severity: "error",
    summary: "With --stac: the item has links (STAC requires them; [] when there are none).",
    appliesTo: "links",
    example: 'no `"links"` -> "links" is missing from the item; a STAC item lists its links, [] when it has none',
  },
  {
    id: "stac-geometry-bbox",
    severity: "error",
    summary: "With --stac: an item whose geometry is null has no bbox.",
    appliesTo: "geometry, bbox",
    example: '`"geometry": null` with a bbox -> the item has a bbox but its geometry is null; an item without a geometry has no bbox',
  },
  {
    id: "stac-datetime",
    severity: "error",
    summary: "With --stac: a null datetime comes with start_datetime and end_datetime.",
    appliesTo: "properties.datetime, start_datetime, end_datetime",
    example:
      '`"datetime": null` alone -> properties.datetime is null, so properties must give the time range in start_datetime and end_datetime; missing: "start_datetime", "end_datetime"',
  },
  {
    id: "mlm-model-asset",
    severity: "error",
    summary: 'With --stac and MLM 1.2.0 or later: at least one asset has the role "mlm:model".',
    appliesTo: "assets",
    example:
      'no asset with role "mlm:model" -> no asset has the role "mlm:model"; MLM needs the model itself (its weights or program) as an asset whose roles include "mlm:model" (add "mlm:model" to the roles of assets.checkpoint)',
  },
  {
    id: "mlm-artifact-type",
    severity: "error",
    summary: 'With --stac and MLM 1.4.0 or later: exactly the assets with the role "mlm:model" carry mlm:artifact_type.',
    appliesTo: "assets",
    example: 'an asset with role "mlm:model" and no artifact type -> assets.weights has the role "mlm:model" but no mlm:artifact_type; say how the model file was saved, e.g. "torch.save" or "tf.keras.Model.save"',
  },
  {
    id: "mlm-entrypoint-role",
    severity: "error",
    summary: 'With --stac and MLM 1.5.0 or later: an asset with mlm:entrypoint has the role "code".',
    appliesTo: "assets",
    example: '`"roles": ["metadata"]` beside mlm:entrypoint -> assets.source-code has mlm:entrypoint but not the role "code"; an entry point belongs to the asset that holds the code (add "code" to the roles of assets.source-code)',
  },
  {
    id: "mlm-bands",
    severity: "error",
    summary: "With --stac: when the model's inputs or outputs name bands, the item describes them (raster:bands on each model asset, eo:bands, or STAC 1.1 bands).",
    appliesTo: "assets with role mlm:model, stac_extensions",
    example:
      'no raster:bands on the model asset -> assets.weights has the role "mlm:model" but no raster:bands; properties.mlm:input names bands ("red", "green", "blue"), which every model asset must describe',
  },
  {
    id: "stac-extension-schema",
    severity: "error",
    summary: "With --stac and --schema-map or --fetch: the schema given for an extension URL (a mapped file, a downloaded copy, and what its $refs point to) can be read and compiled.",
    appliesTo: "stac_extensions items",
    example:
      '`--schema-map "https://example.com/sar/v1.0.0/schema.json=sar.json"`, sar.json cut short -> stac_extensions[2] cannot be checked: the schema file mapped to it (/work/sar.json) is not JSON: Unexpected end of JSON input; found "https://example.com/sar/v1.0.0/schema.json"',
  },
  {
    id: "link-unreachable",
    severity: "error",
    summary: "With --check-links: every http(s) asset href answers a HEAD request (or a one-byte GET when HEAD is refused) with a status below 400, within the timeout.",
    appliesTo: "assets.*.href",
    example: '`"href": "https://example.com/model.pt"`, gone -> assets.checkpoint.href cannot be reached: the server answered 404 Not Found',
  },
];

const byId = new Map(rules.map((rule) => [rule.id, rule]));

export function ruleById(id: RuleId): Rule {
  const rule = byId.get(id);
  if (!rule) throw new Error(`unknown rule ${id}`);
  return rule;
}
