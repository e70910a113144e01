/**
 * --profile fair-ci gives fAIr's CI's verdict, file by file: on the 100 real item versions of
 * fAIr's catalogue (../shared/data/fair-models/corpus, AGPL data read in place) and on the
 * project's own fixtures.
 *
 * No record of fAIr's CI result per file exists (../shared/research/stac-validation.md measured
 * it by class of fault), so the expected verdict comes from fAIr's CI itself, implemented here
 * independently from what it runs (hotosm/fAIr-models at 95f0727e: `just validate` runs
 * scripts/validate_stac_items.py, which calls fair/stac/validators.py on models/* /stac-item.json
 * and data/sample/* /stac-item.json):
 *  - pystac's Item.validate(): core STAC for the item's stac_version and the schema of every URL
 *    its stac_extensions lists, with fAIr's own three schemas registered locally. Here the
 *    official files (schema/stac/) and fAIr's published ones (fair/schemas/v1.0.0/ of ../shared),
 *    run by @cfworker/json-schema. A fAIr URL fAIr does not register (the short-lived ones
 *    without /schemas/) is fetched from hotosm.github.io, which publishes nothing there since
 *    fAIr-models 60d5e29 moved the schemas under /schemas/: pystac fails on it;
 *  - every keyword is one of fair/schemas/keywords.json (its keywords, tasks and geometry types);
 *  - fair:hyperparameters_spec covers mlm:hyperparameters, and each entry has type, default and
 *    description (when both are non-empty);
 *  - of the model items (models/, here every item but the dataset ones), the assets checkpoint
 *    and model, each with an http(s) href ("Missing required asset 'model'").
 * Left out: the HEAD request fAIr's CI then sends each of those two hrefs (this test sends none;
 * --check-links does it), and pystac's re-serialisation of the item before it validates it,
 * which hides a few core faults (stac-validation.md): the text is validated as written, as
 * basemodel, stac-validator and stac-node-validator validate it.
 */
import path from "node:path";
import { Validator as CfValidator, type Schema as CfSchema } from "@cfworker/json-schema";
import { describe, expect, it } from "vitest";
import { validateItemText } from "../../../src/index.js";
import { isObject, type Json, type JsonObject } from "../../support/json-edit.js";
import { jsonFiles, readJson } from "../../support/json-files.js";
import { officialSchemas, officialValidator } from "../../support/official-schemas.js";
import { fairModelsFolder } from "../../support/requirements.js";
import { readFileSync } from "node:fs";

const ROOT = path.resolve(__dirname, "../../..");
const FAIR_MODELS = fairModelsFolder();

/** The schemas fAIr's CI registers (fair/schemas/__init__.py), by the URL items list. */
const FAIR_SCHEMAS = {
  "https://hotosm.github.io/fAIr-models/schemas/v1.0.0/base-model/schema.json": "fair/schemas/v1.0.0/base-model/schema.json",
  "https://hotosm.github.io/fAIr-models/schemas/v1.0.0/dataset/schema.json": "fair/schemas/v1.0.0/dataset/schema.json",
  "https://hotosm.github.io/fAIr-models/schemas/v1.0.0/local-model/schema.json": "fair/schemas/v1.0.0/local-model/schema.json",
};
const CORE = (version: string) => `https://schemas.stacspec.org/v${version}/item-spec/json-schema/item.json`;

interface Verdict {
  pass: boolean;
  /** Why not, as fAIr's CI would say it. */
  errors: string[];
}

/** fAIr's CI on one item (see the top of this file); `model`: the CI checks its model assets. */
class FairCi {
  private readonly validators = new Map<string, CfValidator>();
  private readonly keywords: Set<string>;

  constructor(private readonly fairModels: string) {
    const vocabulary = JSON.parse(readFileSync(path.join(fairModels, "fair/schemas/keywords.json"), "utf8")) as Record<string, string[]>;
    this.keywords = new Set([...vocabulary.allowed_keywords!, ...vocabulary.allowed_tasks!, ...(vocabulary.allowed_geometry_types ?? [])]);
  }

  private validator(url: string): CfValidator | undefined {
    let validator = this.validators.get(url);
    if (validator === undefined) {
      const fair = FAIR_SCHEMAS[url as keyof typeof FAIR_SCHEMAS];
      if (fair !== undefined) validator = new CfValidator(JSON.parse(readFileSync(path.join(this.fairModels, fair), "utf8")) as CfSchema, "7", false);
      else if (officialSchemas.has(url)) validator = officialValidator(url);
      else return undefined;
      this.validators.set(url, validator);
    }
    return validator;
  }

  verdict(item: JsonObject, model: boolean): Verdict {
    // pystac reads the version before anything else: without one it stops there.
    if (typeof item.stac_version !== "string") return { pass: false, errors: ["no stac_version: pystac cannot read the item"] };
    const errors: string[] = [];
    const schemas = [CORE(item.stac_version), ...(Array.isArray(item.stac_extensions) ? item.stac_extensions.map(String) : [])];
    for (const url of schemas) {
      const validator = this.validator(url);
      if (validator === undefined) {
        // Every other URL the corpus lists is bundled: only fAIr's unregistered ones are fetched, and are not there.
        if (!url.startsWith("https://hotosm.github.io/fAIr-models/")) throw new Error(`no schema for ${url}`);
        errors.push(`${url}: not found (HTTP 404)`);
      } else if (!validator.validate(item).valid) errors.push(`fails ${url}`);
    }
    const properties = isObject(item.properties) ? item.properties : {};
    const unknown = (Array.isArray(properties.keywords) ? properties.keywords : []).filter((keyword) => !this.keywords.has(keyword as string));
    if (unknown.length > 0) errors.push(`Unknown keywords: ${unknown.join(", ")}`);
    errors.push(...hyperparameterCoverage(properties));
    if (model) errors.push(...modelAssets(item));
    return { pass: errors.length === 0, errors };
  }
}

/** fair/stac/validators.py _validate_hyperparameters_spec_coverage. */
function hyperparameterCoverage(properties: JsonObject): string[] {
  const hyperparameters = properties["mlm:hyperparameters"];
  const spec = properties["fair:hyperparameters_spec"];
  const empty = (value: Json | undefined) => !value || (Array.isArray(value) ? value.length === 0 : isObject(value) && Object.keys(value).length === 0);
  if (empty(hyperparameters) || empty(spec) || !isObject(hyperparameters)) return [];
  // It calls entry.get() on every entry: an entry that is no object (or a spec that is no list, whose
  // entries are its keys or letters) raises AttributeError, and the CI stops with a traceback.
  if (!Array.isArray(spec) || !spec.every(isObject)) return ["AttributeError: fair:hyperparameters_spec entry has no get"];
  const entries = spec.filter(isObject);
  const errors = entries.filter((entry) => !["type", "default", "description"].every((name) => name in entry)).map((entry) => `entry ${String(entry.key)} misses a member`);
  const keys = new Set(entries.map((entry) => entry.key));
  for (const key of Object.keys(hyperparameters)) if (!keys.has(key.replace(/^(training|inference)\./, ""))) errors.push(`${key} has no entry`);
  return errors;
}

/** fair/stac/validators.py validate_model_asset_urls, but for its HEAD request. */
function modelAssets(item: JsonObject): string[] {
  const assets = isObject(item.assets) ? item.assets : {};
  return ["checkpoint", "model"].flatMap((key) => {
    const asset = assets[key];
    if (!isObject(asset)) return [`Missing required asset '${key}'`];
    return typeof asset.href === "string" && /^https?:\/\//.test(asset.href) ? [] : [`Asset '${key}' href must be an http(s) URL`];
  });
}

const ours = (file: string) => validateItemText(readFileSync(file), { profile: "fair-ci", maxErrors: Infinity });
const disagreements = (ci: FairCi, files: Array<{ file: string; model: boolean }>) =>
  files.flatMap(({ file, model }) => {
    const theirs = ci.verdict(readJson(file) as JsonObject, model);
    const result = ours(file);
    return result.valid === theirs.pass ? [] : [{ file: path.basename(file), ours: result.valid, fairCi: theirs.errors, found: result.errors.map((issue) => `${issue.rule} ${issue.path}`) }];
  });

describe.skipIf(FAIR_MODELS === undefined)("--profile fair-ci gives fAIr's CI's verdict on every file", () => {
  // A skipped describe's body still runs to collect its tests: it must not read what is absent.
  if (FAIR_MODELS === undefined) return;
  const ci = new FairCi(FAIR_MODELS);
  const corpus = jsonFiles(path.join(FAIR_MODELS ?? "", "corpus")).map((file) => ({ file, model: !file.includes(`${path.sep}mirror-datasets${path.sep}`) }));

  it("of fAIr's catalogue: its 100 real item versions, models and datasets", () => {
    expect(corpus).toHaveLength(100);
    expect(disagreements(ci, corpus)).toEqual([]);
    // What fAIr's CI says of them: most of the history fails today's rules.
    const passing = corpus.filter(({ file, model }) => ci.verdict(readJson(file) as JsonObject, model).pass).map(({ file }) => path.basename(file));
    expect(passing.sort()).toEqual([
      "buildings-banepa-classification@60d5e29f.json",
      "buildings-banepa-detection@60d5e29f.json",
      "buildings-banepa-segmentation@60d5e29f.json",
      "deepforest_tree_crowns@19f8231e.json",
      "dinov3_buildings@47db92f3.json",
      "dinov3s_buildings@27430079.json",
      "ramp@0cdc85b9.json",
      "ramp@98d3d85f.json",
      "resnet18_classification@e7251e91.json",
      "unet_segmentation@0dd1a46f.json",
      "yolo11n_detection@0dd1a46f.json",
      "yolo_v8_segmentation@50bff4aa.json",
    ]);
  });

  it("items with a checkpoint but no model fail, as fAIr's CI fails them: Missing required asset 'model'", () => {
    for (const name of ["resnet18_classification@4aabe323.json", "resnet18_classification@791ea32a.json"]) {
      const file = path.join(FAIR_MODELS ?? "", "corpus/mirror-models", name);
      expect(ci.verdict(readJson(file) as JsonObject, true).errors).toEqual(["Missing required asset 'model'"]);
      expect(ours(file).errors.map((issue) => `${issue.rule} ${issue.path}`)).toEqual(["fair-model-asset /assets/model"]);
    }
  });

  it("of the project's fixtures: the valid ones, fAIr's rule sets' and the dataset items", () => {
    const fixtures = ["valid", "warning", "rules/v1.0.0", "rules/v1.0.0-current", "rules/fair-checks", "datasets", "not-items"].flatMap((folder) =>
      jsonFiles(path.join(ROOT, "fixtures", folder))
        .filter((file) => isObject(readJson(file)) && (readJson(file) as JsonObject).type === "Feature")
        .map((file) => ({ file, model: !file.includes(`${path.sep}datasets${path.sep}`) && !file.endsWith("dataset-item.json") })),
    );
    expect(fixtures.length).toBeGreaterThanOrEqual(60);
    expect(disagreements(ci, fixtures)).toEqual([]);
    // The templates fixtures/README.md points to pass fAIr's CI.
    for (const name of ["valid/fair-ci-detection.json", "valid/fair-ci-classification.json", "rules/v1.0.0-current/valid.json", "datasets/valid.json"]) {
      const file = path.join(ROOT, "fixtures", name);
      expect(ci.verdict(readJson(file) as JsonObject, !name.startsWith("datasets/")).errors).toEqual([]);
    }
  });
});
