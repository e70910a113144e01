/**
 * Differential test of --stac: for every bundled schema, the code compiled ahead of time
 * (scripts/build-stac.mjs: an expanded copy of the schema, compiled by Ajv) gives the same verdict
 * as an independent implementation, @cfworker/json-schema (draft 7), run on the official file
 * itself from schema/stac/ with the files it refers to registered under their URLs.
 *
 * Inputs: every fixture (valid, warning, invalid, stac-invalid), fAIr's real catalogue items when
 * ../shared has them, and for each schema mutations of the realistic fixture (and of the real
 * model items) that list that schema in stac_extensions, made with fast-check from a fixed seed:
 * drop a member or entry, put any JSON value or a value the schema names (an enum or const
 * value) in place of one, add a member the schema defines (to an object near the top, where
 * extensions put theirs), misspell a string. A failure prints
 * the seed and the shrunk counterexample. Whatever the verdict, --stac never throws, and an item
 * that fails a schema it names is invalid with --stac.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { Validator as CfValidator, type Schema as CfSchema } from "@cfworker/json-schema";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { validateItem } from "../../../src/index.js";
import { bundledCheck, bundledSchema, compiled } from "../../../src/validator/stac/registry.js";
import { allPaths, get, isObject, set, type Json, type JsonObject } from "../../support/json-edit.js";
import { jsonFiles, readJson } from "../../support/json-files.js";
import { fairModelsFolder } from "../../support/requirements.js";

const ROOT = path.resolve(__dirname, "../../..");
const BUNDLE = path.join(ROOT, "schema/stac");
const SEED = 20251102;
const RUNS_PER_SCHEMA = 200;
const FAIR_MODELS = fairModelsFolder();

interface Entry {
  file: string;
  url: string;
  role: "core" | "extension" | "dependency";
}

const { schemas: entries } = JSON.parse(readFileSync(path.join(BUNDLE, "provenance.json"), "utf8")) as { schemas: Entry[] };
const official = new Map(entries.map((entry) => [entry.url, JSON.parse(readFileSync(path.join(BUNDLE, entry.file), "utf8")) as JsonObject]));
const roots = entries.filter((entry) => entry.role !== "dependency");

/** Every node of a schema document, depth first. */
function* nodes(value: Json): Generator<Json> {
  yield value;
  if (Array.isArray(value)) for (const child of value) yield* nodes(child);
  else if (isObject(value)) for (const child of Object.values(value)) yield* nodes(child);
}

/** The files a schema refers to, transitively, by URL. */
function dependencies(url: string, found = new Set<string>()): Set<string> {
  for (const node of nodes(official.get(url)!)) {
    if (!isObject(node) || typeof node.$ref !== "string" || node.$ref.startsWith("#")) continue;
    const target = new URL(node.$ref, url);
    target.hash = "";
    if (!found.has(target.href) && target.href !== url) {
      found.add(target.href);
      dependencies(target.href, found);
    }
  }
  return found;
}

/** cfworker on the official file, the files it refers to registered by the URL they are published at. */
function theirs(url: string): CfValidator {
  // cfworker annotates the schema objects it is given: it gets copies.
  const validator = new CfValidator(structuredClone({ ...official.get(url)!, $id: url }) as CfSchema, "7", false);
  for (const dependency of dependencies(url)) validator.addSchema(structuredClone(official.get(dependency)!) as CfSchema, dependency);
  return validator;
}

/** Member names and values the schema names (properties, enum and const values): what mutations put in. */
function vocabulary(url: string): { names: string[]; values: Json[] } {
  const names = new Set<string>();
  const values: Json[] = [];
  for (const node of nodes(official.get(url)!)) {
    if (!isObject(node)) continue;
    if (isObject(node.properties)) for (const name of Object.keys(node.properties)) names.add(name);
    if (Array.isArray(node.enum)) values.push(...node.enum);
    if ("const" in node) values.push(node.const!);
  }
  return { names: [...names], values: values.slice(0, 200) };
}

const fixtureItems = ["valid", "warning", "invalid", "stac-invalid"]
  .flatMap((folder) => jsonFiles(path.join(ROOT, "fixtures", folder)))
  .map((file) => ({ name: path.relative(ROOT, file), item: readJson(file) }))
  .filter((entry): entry is { name: string; item: Json } => entry.item !== undefined);
const corpusItems =
  FAIR_MODELS === undefined
    ? []
    : jsonFiles(path.join(FAIR_MODELS, "corpus"))
        .map((file) => ({ name: path.relative(FAIR_MODELS, file), item: readJson(file) }))
        .filter((entry): entry is { name: string; item: Json } => entry.item !== undefined);
const realistic = readJson(path.join(ROOT, "fixtures/valid/realistic-segmentation.json"))!;
const baseItems = [realistic, ...corpusItems.filter((entry) => entry.name.includes("models")).map((entry) => entry.item)];

type Op = { op: "drop" } | { op: "replace"; value: Json } | { op: "add"; name: string; value: Json } | { op: "typo"; at: number; letter: string };

function apply(item: Json, mutation: Op & { pick: number }): Json {
  const paths = allPaths(item);
  const at = paths[mutation.pick % paths.length]!;
  const current = get(item, at);
  switch (mutation.op) {
    case "drop":
      return set(item, at, undefined);
    case "replace":
      return set(item, at, mutation.value);
    case "add": {
      // Extensions add their members to the item, its properties, assets, links and the like: near the top.
      const objects = paths.filter((candidate) => candidate.length <= 3 && isObject(get(item, candidate)));
      const owner = objects[mutation.pick % Math.max(1, objects.length)];
      return owner === undefined ? item : set(item, [...owner, mutation.name], mutation.value);
    }
    case "typo": {
      if (typeof current !== "string") return item;
      const index = current.length === 0 ? 0 : mutation.at % current.length;
      return set(item, at, current.slice(0, index) + mutation.letter + current.slice(index + 1));
    }
  }
}

function mutations(url: string): fc.Arbitrary<Json> {
  const { names, values } = vocabulary(url);
  const value: fc.Arbitrary<Json> = fc.oneof(
    fc.constantFrom<Json>(...values, null, "", 0, -1, 1.5, true, [], {}, [""], "2025-11-02", "2025-11-02T08:15:00Z"),
    fc.jsonValue({ maxDepth: 2 }) as fc.Arbitrary<Json>,
  );
  const op: fc.Arbitrary<Op> = fc.oneof(
    fc.constant({ op: "drop" as const }),
    fc.record({ op: fc.constant("replace" as const), value }),
    fc.record({ op: fc.constant("add" as const), name: fc.constantFrom(...names), value }),
    fc.record({ op: fc.constant("typo" as const), at: fc.nat(), letter: fc.constantFrom("a", "Z", "-", " ", ".", "1") }),
  );
  return fc
    .record({ base: fc.nat(baseItems.length - 1), steps: fc.array(fc.record({ pick: fc.nat() }).chain((pick) => op.map((o) => ({ ...o, ...pick }))), { minLength: 1, maxLength: 3 }) })
    .map(({ base, steps }) => {
      let item = structuredClone(baseItems[base]!) as JsonObject;
      // The mutant names the schema under test, so that the schema's own checks are what fail.
      item.stac_extensions = [...(Array.isArray(item.stac_extensions) ? item.stac_extensions : []), url];
      for (const step of steps) item = apply(item, step) as JsonObject;
      return item;
    });
}

describe.each(roots.map((entry) => [entry.url, entry] as const))("%s", (url) => {
  const ours = compiled(bundledSchema(url)!);
  // The verdict module (refs kept, first failure only) must say what the explaining module says.
  const { passes } = bundledCheck(bundledSchema(url)!);
  const cfworker = theirs(url);
  const verdicts = (value: Json) => ({ ours: ours(value), fast: passes(value), cfworker: cfworker.validate(value).valid });

  it("agrees with cfworker on every fixture and real item", () => {
    const disagreements = [...fixtureItems, ...corpusItems].filter(({ item }) => {
      const { ours, fast, cfworker } = verdicts(item);
      return ours !== cfworker || fast !== cfworker;
    });
    expect(disagreements.map((entry) => entry.name)).toEqual([]);
  });

  it(`agrees with cfworker on ${RUNS_PER_SCHEMA} mutations, and --stac explains every failure without throwing`, () => {
    let failing = 0;
    fc.assert(
      fc.property(mutations(url), (item) => {
        const { ours, fast, cfworker } = verdicts(item);
        expect({ ours, fast, cfworker }).toEqual({ ours: cfworker, fast: cfworker, cfworker });
        const result = validateItem(item, { stac: true, maxErrors: Infinity });
        if (!ours) {
          failing++;
          expect(result.valid).toBe(false);
        }
      }),
      { seed: SEED, numRuns: RUNS_PER_SCHEMA },
    );
    // The mutations reach the schema's rules: some of them break it.
    expect(failing).toBeGreaterThanOrEqual(RUNS_PER_SCHEMA / 20);
  });
});
