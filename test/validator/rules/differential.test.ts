/**
 * Differential test of the rule sets: each of our schemas (schema/base-model-item.schema.json and
 * schema/rule-sets/, written from fAIr's rules and compiled ahead of time) gives the same verdict
 * as an independent implementation, @cfworker/json-schema (draft 7, formats checked), run on the
 * file fAIr publishes for that set:
 *
 *   v1.0.0          fair-models/reference-schema-v1.0.0-60d5e29f/schema.json (the specification's)
 *   v1.0.0-current  fair-models/fair/schemas/v1.0.0/base-model/schema.json (today's, same URL)
 *   v1.1.0          stac-schemas/hotosm.github.io/fAIr-models/schemas/v1.1.0/base-model/schema.json
 *
 * in the default mode (fAIr's v1.0.0 files allow any fair: member; ours warn about the ones they
 * do not define, and a warning is no error), with one decision of ours beside fAIr's file: title
 * and description are strings (docs/decisions.md; fAIr's files require them but give no type, and
 * core STAC, which fAIr's CI also runs, says they are strings). Inputs: every fixture, fAIr's real items, and
 * mutations of the items valid under the set made with fast-check from a fixed seed. The
 * published files are AGPL data read from ../shared, never copied: without it these tests skip.
 */
import path from "node:path";
import { Validator as CfValidator, type Schema as CfSchema } from "@cfworker/json-schema";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { validateItem, type RuleSetName } from "../../../src/index.js";
import { allPaths, get, isObject, set, type Json, type JsonObject } from "../../support/json-edit.js";
import { jsonFiles, readJson } from "../../support/json-files.js";
import { fairModelsFolder } from "../../support/requirements.js";

const ROOT = path.resolve(__dirname, "../../..");
const FAIR_MODELS = fairModelsFolder();
const SEED = 20260419;
const RUNS = 1000;
const V100 = "https://hotosm.github.io/fAIr-models/schemas/v1.0.0/base-model/schema.json";
const V110 = "https://hotosm.github.io/fAIr-models/schemas/v1.1.0/base-model/schema.json";

const PUBLISHED: Record<RuleSetName, string> = {
  "v1.0.0": "reference-schema-v1.0.0-60d5e29f/schema.json",
  "v1.0.0-current": "fair/schemas/v1.0.0/base-model/schema.json",
  "v1.1.0": "../stac-schemas/hotosm.github.io/fAIr-models/schemas/v1.1.0/base-model/schema.json",
};

/** Our decision beside fAIr's files (see the top of this file). */
const TITLE_AND_DESCRIPTION_STRINGS: CfSchema = {
  properties: { properties: { properties: { title: { type: "string" }, description: { type: "string" } } } },
};

const named = (files: string[], root: string) =>
  files.map((file) => ({ name: path.relative(root, file), item: readJson(file) })).filter((entry): entry is { name: string; item: Json } => entry.item !== undefined);
const fixtures = named(["valid", "warning", "invalid", "stac-invalid", "rules"].flatMap((folder) => jsonFiles(path.join(ROOT, "fixtures", folder))), ROOT);
const realItems = FAIR_MODELS === undefined ? [] : named([...jsonFiles(path.join(FAIR_MODELS, "corpus")), ...jsonFiles(path.join(FAIR_MODELS, "models")), ...jsonFiles(path.join(FAIR_MODELS, "data"))], FAIR_MODELS);

/** Member names and values the published schema names: what mutations put in, besides any JSON. */
function vocabulary(schema: Json): { names: string[]; values: Json[] } {
  const names = new Set<string>();
  const values: Json[] = [];
  const walk = (node: Json): void => {
    if (Array.isArray(node)) node.forEach(walk);
    if (!isObject(node)) return;
    if (isObject(node.properties)) for (const name of Object.keys(node.properties)) names.add(name);
    if (Array.isArray(node.enum)) values.push(...node.enum);
    if ("const" in node) values.push(node.const!);
    Object.values(node).forEach(walk);
  };
  walk(schema);
  return { names: [...names], values };
}

type Op =
  | { op: "drop" }
  | { op: "replace"; value: Json }
  | { op: "add"; name: string; value: Json }
  | { op: "typo"; at: number; letter: string }
  | { op: "identifier"; url: string };

function apply(item: JsonObject, step: Op & { pick: number; focus: boolean }): JsonObject {
  // Focused steps land where the rule sets say most: the properties and assets, and below them.
  const every = allPaths(item);
  const focused = every.filter((at) => at[0] === "properties" || at[0] === "assets");
  const paths = step.focus && focused.length > 0 ? focused : every;
  const at = paths[step.pick % paths.length]!;
  switch (step.op) {
    case "drop":
      return set(item, at, undefined) as JsonObject;
    case "replace":
      return set(item, at, structuredClone(step.value)) as JsonObject;
    case "add": {
      const owners = paths.filter((candidate) => candidate.length <= 4 && isObject(get(item, candidate)));
      const owner = owners[step.pick % Math.max(1, owners.length)];
      return owner === undefined ? item : (set(item, [...owner, step.name], structuredClone(step.value)) as JsonObject);
    }
    case "typo": {
      const current = get(item, at);
      if (typeof current !== "string") return item;
      const index = current.length === 0 ? 0 : step.at % current.length;
      return set(item, at, current.slice(0, index) + step.letter + current.slice(index + 1)) as JsonObject;
    }
    case "identifier":
      item.stac_extensions = [...(Array.isArray(item.stac_extensions) ? item.stac_extensions.filter((url) => url !== V100 && url !== V110) : []), step.url];
      return item;
  }
}

function mutants(bases: readonly Json[], schema: Json): fc.Arbitrary<Json> {
  const { names, values } = vocabulary(schema);
  const value: fc.Arbitrary<Json> = fc.oneof(
    fc.constantFrom<Json>(...values, null, "", "x", "weights.pt", "https://example.org/m.onnx", "www.hotosm.org", 0, 1, -1, 0.5, 1.5, 2.5, 24, 25, true, [], {}, [""], [1, 2], [1, 2, 3]),
    fc.jsonValue({ maxDepth: 2 }) as fc.Arbitrary<Json>,
  );
  const op: fc.Arbitrary<Op> = fc.oneof(
    { weight: 3, arbitrary: fc.constant({ op: "drop" as const }) },
    { weight: 4, arbitrary: fc.record({ op: fc.constant("replace" as const), value }) },
    { weight: 3, arbitrary: fc.record({ op: fc.constant("add" as const), name: fc.constantFrom(...names, "fair:categroy", "fair:x", "mlm:x"), value }) },
    { weight: 2, arbitrary: fc.record({ op: fc.constant("typo" as const), at: fc.nat(), letter: fc.constantFrom("a", "Z", "-", " ", ".", "1", ":") }) },
    { weight: 1, arbitrary: fc.record({ op: fc.constant("identifier" as const), url: fc.constantFrom(V100, V110) }) },
  );
  const step = fc.record({ pick: fc.nat(), focus: fc.boolean() }).chain((where) => op.map((o) => ({ ...o, ...where })));
  return fc.record({ base: fc.nat(bases.length - 1), steps: fc.array(step, { minLength: 1, maxLength: 3 }) }).map(({ base, steps }) => {
    let item = structuredClone(bases[base]!) as JsonObject;
    for (const one of steps) item = apply(item, one);
    return item;
  });
}

describe.skipIf(FAIR_MODELS === undefined).each(Object.keys(PUBLISHED) as RuleSetName[])("rule set %s", (ruleSet) => {
  const published = readJson(path.join(FAIR_MODELS ?? "", PUBLISHED[ruleSet]))!;
  // cfworker annotates the schema it is given: it gets a copy.
  const cfworker = new CfValidator(structuredClone(published) as CfSchema, "7", false);
  const strings = new CfValidator(TITLE_AND_DESCRIPTION_STRINGS, "7", false);
  const verdicts = (item: Json) => ({
    ours: validateItem(item, { rules: ruleSet, maxErrors: Infinity }).valid,
    cfworker: cfworker.validate(item).valid && strings.validate(item).valid,
  });

  it("agrees with cfworker on fAIr's published file over every fixture and real item", () => {
    expect(realItems.length).toBeGreaterThanOrEqual(100);
    const disagreements = [...fixtures, ...realItems].filter(({ item }) => {
      const { ours, cfworker } = verdicts(item);
      return ours !== cfworker;
    });
    expect(disagreements.map((entry) => entry.name)).toEqual([]);
  });

  it(`agrees with cfworker on ${RUNS} mutations of the items valid under it (seed ${SEED})`, () => {
    const bases = [...fixtures, ...realItems].map((entry) => entry.item).filter((item) => validateItem(item, { rules: ruleSet }).valid);
    expect(bases.length).toBeGreaterThanOrEqual(3);
    const tally = { valid: 0, invalid: 0 };
    fc.assert(
      fc.property(mutants(bases, published), (item) => {
        const { ours, cfworker } = verdicts(item);
        expect({ ours, cfworker }).toEqual({ ours: cfworker, cfworker });
        tally[ours ? "valid" : "invalid"]++;
      }),
      { seed: SEED, numRuns: RUNS },
    );
    // Not vacuous: the mutations break the items often, and leave them valid often.
    expect(tally.invalid).toBeGreaterThan(RUNS / 4);
    expect(tally.valid).toBeGreaterThan(RUNS / 20);
  });
});
