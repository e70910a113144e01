/**
 * Differential test: our validator's verdict agrees with an independent JSON Schema
 * implementation, @cfworker/json-schema (draft 7, all errors), on the published schema.
 *
 *   strict: true        our `valid`  ==  cfworker on the full schema
 *   default options     our `valid`  ==  cfworker on the schema without properties'
 *                                         patternProperties (unknown fair: members are only
 *                                         warnings in non-strict mode)
 *
 * Inputs: every fixture (fixtures/valid, fixtures/warning, fixtures/invalid, globbed at test time),
 * the real fAIr items (read from ../shared at test time when it exists, never copied into the
 * repo), and thousands of
 * mutations of valid items generated with fast-check (fixed seed; a failure prints the seed and
 * the shrunk counterexample), for the fair: prefix and again for svc: (createValidator({ prefix:
 * "svc:" }) against cfworker on that validator's .schema(), base items with fair: keys renamed).
 * A mutated item is a base item (the real fAIr model items and fixtures/valid, each also without
 * its unknown fair: members) with 1-3 mutations applied in turn, each at a path picked from all
 * the item's paths or from the paths the schema constrains: drop a member or entry, retype a
 * value, empty a string/array/object, put a number out of range (0, 1, negatives, > 1, tiny,
 * huge, any double), a non-integer seed, a typo (case change, one letter changed, inserted,
 * deleted, trailing space), remove/replace/misspell/move the schema identifier in
 * stac_extensions, add a prefixed member (own prefix, fair:, svc:), add any member anywhere,
 * replace any value with any JSON value.
 *
 * Places: cfworker reports parent-level errors too (a failing `properties`, `items` or `$ref`
 * keyword is reported at the parent, next to the real error below it), so only its LEAF errors
 * are compared (keywords that check a value: type, const, enum, required, minLength, minItems,
 * exclusiveMinimum/Maximum, contains, false). Every such leaf location must be covered by one
 * of our issue paths (equal, parent or child: cfworker reports `required` at the object, we at
 * the missing member; cfworker reports a failing `contains` at the array AND at every entry),
 * and every one of our issue paths must be covered by a cfworker leaf location.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Validator as CfValidator, type OutputUnit, type Schema as CfSchema } from "@cfworker/json-schema";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createValidator, validateItem, type Issue, type JsonSchema } from "../../src/index.js";
import { allPaths, get, isObject, set, type Json, type Segment } from "../support/json-edit.js";
import { fairModelsFolder } from "../support/requirements.js";

const here = path.dirname(fileURLToPath(import.meta.url));
const FIXTURES = path.resolve(here, "../../fixtures");
const FAIR_MODELS = fairModelsFolder();
const SEED = 20240601;
const NUM_RUNS = 3000;


// ---------------------------------------------------------------------------------------------
// The two implementations, side by side
// ---------------------------------------------------------------------------------------------

/** The schema without the rule that forbids unknown prefixed properties (what non-strict mode errors on). */
function withoutPrefixRule(schema: JsonSchema): JsonSchema {
  const copy = structuredClone(schema) as { definitions: { properties: Record<string, unknown> } };
  expect(copy.definitions.properties.patternProperties).toBeDefined();
  delete copy.definitions.properties.patternProperties;
  return copy as unknown as JsonSchema;
}

// cfworker annotates the schema objects it is given: give it a copy.
const cfworker = (schema: JsonSchema) => new CfValidator(structuredClone(schema) as CfSchema, "7", false);

/** Keywords whose failure only says "something below failed"; the leaf error is reported too. */
const APPLICATORS = new Set(["$ref", "properties", "patternProperties", "additionalProperties", "items", "additionalItems", "allOf", "anyOf", "oneOf", "not", "if", "dependencies", "propertyNames"]);

/** cfworker's "#/properties/mlm:input/0" (URI-encoded segments) as a JSON Pointer "/properties/mlm:input/0". */
function pointerOf(instanceLocation: string): string {
  expect(instanceLocation.startsWith("#")).toBe(true);
  const rest = instanceLocation.slice(1);
  return rest === "" ? "" : rest.split("/").map((segment) => decodeURIComponent(segment)).join("/");
}

const related = (a: string, b: string) => a === b || a.startsWith(`${b}/`) || b.startsWith(`${a}/`);

interface Pair {
  name: string;
  /** Our verdict and issue paths. */
  ours: (value: unknown) => { valid: boolean; paths: string[] };
  theirs: CfValidator;
}

function makePairs(prefix: string | undefined): { strict: Pair; lenient: Pair } {
  const base = prefix === undefined ? {} : { prefix };
  const strict = createValidator({ ...base, strict: true, maxErrors: Infinity });
  const lenient = createValidator(base);
  const lenientAll = createValidator({ ...base, maxErrors: Infinity });
  const paths = (issues: readonly Issue[]) => issues.map((issue) => issue.path);
  return {
    strict: {
      name: `${prefix ?? "fair:"} strict`,
      ours: (value) => {
        const verdict = prefix === undefined ? validateItem(value, { strict: true }) : strict.validate(value);
        const all = prefix === undefined ? strict.validate(value) : verdict;
        if (all.valid !== verdict.valid) throw new Error("maxErrors changed the verdict");
        return { valid: verdict.valid, paths: paths(all.errors) };
      },
      theirs: cfworker(strict.schema()),
    },
    lenient: {
      name: `${prefix ?? "fair:"} default`,
      ours: (value) => {
        const verdict = prefix === undefined ? validateItem(value) : lenient.validate(value);
        const all = lenientAll.validate(value);
        if (all.valid !== verdict.valid) throw new Error("maxErrors changed the verdict");
        return { valid: verdict.valid, paths: paths(all.errors) };
      },
      theirs: cfworker(withoutPrefixRule(lenientAll.schema())),
    },
  };
}

interface Disagreement {
  mode: string;
  ours: boolean;
  cfworker: boolean;
  uncoveredTheirs: string[];
  uncoveredOurs: string[];
  theirErrors: Pick<OutputUnit, "keyword" | "instanceLocation">[];
  ourPaths: string[];
}

/** undefined when both agree on the verdict and on the places; otherwise what differs. */
function compare(pair: Pair, value: unknown, verdict?: (valid: boolean) => void): Disagreement | undefined {
  const ours = pair.ours(value);
  const theirs = pair.theirs.validate(value);
  verdict?.(theirs.valid);
  const leaves = theirs.errors.filter((error) => !APPLICATORS.has(error.keyword));
  const theirPaths = [...new Set(leaves.map((error) => pointerOf(error.instanceLocation)))];
  const uncoveredTheirs = theirPaths.filter((at) => !ours.paths.some((p) => related(p, at)));
  const uncoveredOurs = ours.paths.filter((p) => !theirPaths.some((at) => related(p, at)));
  if (ours.valid === theirs.valid && uncoveredTheirs.length === 0 && uncoveredOurs.length === 0) return undefined;
  return {
    mode: pair.name,
    ours: ours.valid,
    cfworker: theirs.valid,
    uncoveredTheirs,
    uncoveredOurs,
    theirErrors: leaves.map(({ keyword, instanceLocation }) => ({ keyword, instanceLocation })),
    ourPaths: ours.paths,
  };
}

// ---------------------------------------------------------------------------------------------
// Inputs read at test time
// ---------------------------------------------------------------------------------------------

function jsonFiles(dir: string): string[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  return names
    .filter((name) => name.endsWith(".json") && name !== "expected.json")
    .sort()
    .map((name) => path.join(dir, name));
}

function readJson(file: string): Json | undefined {
  try {
    return JSON.parse(readFileSync(file, "utf8")) as Json;
  } catch {
    return undefined; // not JSON text (a syntax/encoding fixture): nothing for a schema validator to compare
  }
}

const WITH_WARNING = path.join(FIXTURES, "warning/hyperparameters-spec.json");
const fixtureFiles = [...jsonFiles(path.join(FIXTURES, "valid")), WITH_WARNING, ...jsonFiles(path.join(FIXTURES, "invalid"))];
const realFiles =
  FAIR_MODELS === undefined
    ? []
    : (readdirSync(FAIR_MODELS, { recursive: true }) as string[])
        .filter((name) => path.basename(name) === "stac-item.json")
        .sort()
        .map((name) => path.join(FAIR_MODELS, name));

/** The item with every member name that starts with "fair:" renamed (values are left alone). */
function renamePrefix(value: Json, prefix: string): Json {
  if (Array.isArray(value)) return value.map((element) => renamePrefix(element, prefix));
  if (!isObject(value)) return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, member]) => [key.startsWith("fair:") ? prefix + key.slice(5) : key, renamePrefix(member, prefix)]),
  );
}

/** The item without the unknown fair: properties the real items carry (so that it passes strict mode too). */
function withoutUnknownPrefixed(item: Json): Json {
  const copy = structuredClone(item);
  if (isObject(copy) && isObject(copy.properties)) {
    for (const key of Object.keys(copy.properties)) {
      if (/^fair:(?!(metrics_spec|split_spec)$)/u.test(key)) delete copy.properties[key];
    }
  }
  return copy;
}

/** Base items for mutation: the real fAIr model items and fixtures/valid, as-is and without unknown fair: members. */
function baseItems(): { name: string; item: Json }[] {
  const sources = [
    ...realFiles.filter((file) => file.includes(`${path.sep}models${path.sep}`)),
    ...jsonFiles(path.join(FIXTURES, "valid")),
    WITH_WARNING,
  ];
  const items: { name: string; item: Json }[] = [];
  for (const file of sources) {
    const item = readJson(file);
    if (item === undefined || !validateItem(item).valid) continue;
    const name = path.relative(path.resolve(here, "../../.."), file);
    items.push({ name, item });
    const clean = withoutUnknownPrefixed(item);
    if (JSON.stringify(clean) !== JSON.stringify(item)) items.push({ name: `${name} (without unknown fair: members)`, item: clean });
  }
  return items;
}

// ---------------------------------------------------------------------------------------------
// Mutations
// ---------------------------------------------------------------------------------------------

type SchemaNode = { [key: string]: unknown };

/**
 * The paths the schema says something about: members named under `properties`, entries of
 * arrays with `items` or `contains`, members matched by `patternProperties`. Free-form values
 * (mlm:hyperparameters, expression, unknown members) are listed but not entered.
 */
function schemaPaths(schema: SchemaNode, value: Json): Segment[][] {
  const definitions = schema.definitions as Record<string, SchemaNode>;
  const resolve = (node: SchemaNode): SchemaNode =>
    typeof node.$ref === "string" ? resolve(definitions[node.$ref.replace("#/definitions/", "")]!) : node;
  const out: Segment[][] = [];
  const walk = (node: SchemaNode, at: Segment[], current: Json) => {
    out.push(at);
    const resolved = resolve(node);
    if (isObject(current)) {
      const properties = (resolved.properties ?? {}) as Record<string, SchemaNode>;
      const patterns = Object.keys((resolved.patternProperties ?? {}) as object).map((pattern) => new RegExp(pattern, "u"));
      for (const key of Object.keys(current)) {
        if (Object.hasOwn(properties, key)) walk(properties[key]!, [...at, key], current[key]!);
        else if (patterns.some((pattern) => pattern.test(key))) out.push([...at, key]);
      }
    } else if (Array.isArray(current)) {
      const items = (resolved.items ?? resolved.contains) as SchemaNode | undefined;
      if (items) current.forEach((element, index) => walk(items, [...at, index], element));
    }
  };
  walk(schema, [], value);
  return out;
}

type Typo =
  | { how: "upper" | "lower" | "capital" | "uncapital" | "trim-space" }
  | { how: "replace" | "insert"; at: number; letter: string }
  | { how: "delete"; at: number };

type Op =
  | { op: "drop" }
  | { op: "retype"; value: Json }
  | { op: "empty" }
  | { op: "number"; value: number }
  | { op: "non-integer"; value: Json }
  | { op: "typo"; typo: Typo }
  | { op: "schema-id"; how: "remove" | "typo" | "version" | "only-other" | "not-array" | "empty" | "last" | "twice"; typo: Typo }
  | { op: "prefixed"; prefix: "own" | "fair:" | "svc:"; name: string; value: Json }
  | { op: "extra"; name: string; value: Json }
  | { op: "replace"; value: Json };

/** One mutation: what to do and where (`pick` indexes the candidate paths, `focus` picks among schema paths). */
type Mutation = Op & { pick: number; focus: boolean };

const letter = fc.constantFrom(..."abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.: ");
const typoArb: fc.Arbitrary<Typo> = fc.oneof(
  fc.record({ how: fc.constantFrom("upper" as const, "lower" as const, "capital" as const, "uncapital" as const, "trim-space" as const) }),
  fc.record({ how: fc.constantFrom("replace" as const, "insert" as const), at: fc.nat(), letter }),
  fc.record({ how: fc.constant("delete" as const), at: fc.nat() }),
);

function applyTypo(text: string, typo: Typo): string {
  switch (typo.how) {
    case "upper":
      return text.toUpperCase();
    case "lower":
      return text.toLowerCase();
    case "capital":
      return text.charAt(0).toUpperCase() + text.slice(1);
    case "uncapital":
      return text.charAt(0).toLowerCase() + text.slice(1);
    case "trim-space":
      return `${text} `;
    case "replace": {
      if (text === "") return typo.letter;
      const at = typo.at % text.length;
      return text.slice(0, at) + typo.letter + text.slice(at + 1);
    }
    case "insert": {
      const at = typo.at % (text.length + 1);
      return text.slice(0, at) + typo.letter + text.slice(at);
    }
    case "delete": {
      if (text === "") return text;
      const at = typo.at % text.length;
      return text.slice(0, at) + text.slice(at + 1);
    }
  }
}

/** Small JSON values of every type, including the shapes the schema asks for. */
const anyValue: fc.Arbitrary<Json> = fc.oneof(
  fc.constantFrom<Json>(
    "",
    "x",
    "Feature",
    "PyTorch",
    "semantic-segmentation",
    "MIT",
    0,
    1,
    0.5,
    -1,
    42,
    2.5,
    true,
    false,
    null,
    [],
    [""],
    ["semantic-segmentation"],
    [1],
    [{}],
    [null],
    {},
    { href: "x" },
    { name: "n" },
    { format: "python", expression: null },
  ),
  fc.jsonValue({ maxDepth: 2 }) as fc.Arbitrary<Json>,
);

const numberValue: fc.Arbitrary<number> = fc.oneof(
  fc.constantFrom(0, 1, -1, -0.5, 1.5, 2, 100, 1e-9, 0.999999, 1 - 2 ** -53, Number.MIN_VALUE, 1e300, -1e300, 0.5, 0.2),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.integer(),
);

const nonInteger: fc.Arbitrary<Json> = fc.oneof(
  fc.constantFrom<Json>(1.5, 0.1, -2.25, 42.000001, "42", "1", true, null, [42], { seed: 42 }),
  fc.double({ noNaN: true, noDefaultInfinity: true }).filter((x) => !Number.isInteger(x)),
);

const memberName = fc.oneof(
  fc.constantFrom("metrics_spec", "split_spec", "metrics_specs", "split_spec2", "Metrics_spec", "split-spec", "", "hyperparameters_spec", "x"),
  fc.string({ maxLength: 12 }),
);

const opArb: fc.Arbitrary<Op> = fc.oneof(
  { weight: 4, arbitrary: fc.constant({ op: "drop" as const }) },
  { weight: 4, arbitrary: fc.record({ op: fc.constant("retype" as const), value: anyValue }) },
  { weight: 2, arbitrary: fc.constant({ op: "empty" as const }) },
  { weight: 3, arbitrary: fc.record({ op: fc.constant("number" as const), value: numberValue }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constant("non-integer" as const), value: nonInteger }) },
  { weight: 4, arbitrary: fc.record({ op: fc.constant("typo" as const), typo: typoArb }) },
  {
    weight: 2,
    arbitrary: fc.record({
      op: fc.constant("schema-id" as const),
      how: fc.constantFrom("remove" as const, "typo" as const, "version" as const, "only-other" as const, "not-array" as const, "empty" as const, "last" as const, "twice" as const),
      typo: typoArb,
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({ op: fc.constant("prefixed" as const), prefix: fc.constantFrom("own" as const, "fair:" as const, "svc:" as const), name: memberName, value: anyValue }),
  },
  { weight: 1, arbitrary: fc.record({ op: fc.constant("extra" as const), name: fc.oneof(memberName, fc.constantFrom("href", "name", "mlm:x", "type")), value: anyValue }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant("replace" as const), value: anyValue }) },
);

const mutationArb: fc.Arbitrary<Mutation> = fc
  .tuple(opArb, fc.nat(), fc.boolean())
  .map(([op, pick, focus]) => ({ ...op, pick, focus }));

/** Applies one mutation to `root` (which it may change in place); returns the new root. */
function mutate(root: Json, mutation: Mutation, schema: SchemaNode, prefix: string, schemaUrl: string): Json {
  const candidates = (accept: (value: Json | undefined, at: Segment[]) => boolean) => {
    const pool = (mutation.focus ? schemaPaths(schema, root) : allPaths(root)).filter((at) => accept(get(root, at), at));
    return pool.length === 0 ? undefined : pool[mutation.pick % pool.length]!;
  };
  switch (mutation.op) {
    case "drop": {
      const at = candidates((_, p) => p.length > 0);
      return at ? set(root, at, undefined) : root;
    }
    case "retype":
    case "replace": {
      const at = candidates(() => true);
      return at ? set(root, at, structuredClone(mutation.value)) : root;
    }
    case "empty": {
      const at = candidates((value) => typeof value === "string" || Array.isArray(value) || isObject(value));
      if (!at) return root;
      const value = get(root, at);
      return set(root, at, typeof value === "string" ? "" : Array.isArray(value) ? [] : {});
    }
    case "number": {
      const at = candidates((value) => typeof value === "number");
      return at ? set(root, at, mutation.value) : root;
    }
    case "non-integer": {
      const seedPath = ["properties", `${prefix}split_spec`, "seed"];
      const at = get(root, seedPath) !== undefined && mutation.focus ? seedPath : candidates((value) => typeof value === "number");
      return at ? set(root, at, structuredClone(mutation.value)) : root;
    }
    case "typo": {
      const at = candidates((value) => typeof value === "string");
      return at ? set(root, at, applyTypo(get(root, at) as string, mutation.typo)) : root;
    }
    case "schema-id": {
      if (!isObject(root)) return root;
      const list = Array.isArray(root.stac_extensions) ? root.stac_extensions : [];
      const others = list.filter((entry) => entry !== schemaUrl);
      switch (mutation.how) {
        case "remove":
          root.stac_extensions = others;
          break;
        case "typo":
          root.stac_extensions = [...others, applyTypo(schemaUrl, mutation.typo)];
          break;
        case "version":
          root.stac_extensions = [...others, schemaUrl.replace("v1.0.0", "v1.0.1")];
          break;
        case "only-other":
          root.stac_extensions = ["https://stac-extensions.github.io/mlm/v1.5.1/schema.json"];
          break;
        case "not-array":
          root.stac_extensions = schemaUrl;
          break;
        case "empty":
          root.stac_extensions = [];
          break;
        case "last":
          root.stac_extensions = [...others, schemaUrl];
          break;
        case "twice":
          root.stac_extensions = [schemaUrl, ...list, schemaUrl];
          break;
      }
      return root;
    }
    case "prefixed": {
      const properties = isObject(root) ? root.properties : undefined;
      if (!isObject(properties)) return root;
      properties[(mutation.prefix === "own" ? prefix : mutation.prefix) + mutation.name] = structuredClone(mutation.value);
      return root;
    }
    case "extra": {
      const at = candidates((value) => isObject(value));
      const target = at && get(root, at);
      if (isObject(target)) target[mutation.name] = structuredClone(mutation.value);
      return root;
    }
  }
}

// ---------------------------------------------------------------------------------------------
// The tests
// ---------------------------------------------------------------------------------------------

const fair = makePairs(undefined);

function expectAgreement(pairs: { strict: Pair; lenient: Pair }, value: unknown, label: string): void {
  for (const pair of [pairs.strict, pairs.lenient]) {
    const found = compare(pair, value);
    expect(found, `${label} (${pair.name})`).toBeUndefined();
  }
}

describe("agreement with @cfworker/json-schema", () => {
  it("finds the inputs", () => {
    if (FAIR_MODELS !== undefined) expect(realFiles.length).toBeGreaterThanOrEqual(6);
    expect(baseItems().length).toBeGreaterThanOrEqual(3);
  });

  it.each(fixtureFiles.map((file) => [path.relative(FIXTURES, file), file]))("fixture %s", (_, file) => {
    const value = readJson(file);
    if (value === undefined) return;
    expectAgreement(fair, value, file);
  });

  it.each(realFiles.map((file) => [path.relative(FAIR_MODELS!, file), file]))("real item %s", (_, file) => {
    const value = readJson(file);
    expect(value).toBeDefined();
    expectAgreement(fair, value, file);
    const svc = renamePrefix(value!, "svc:");
    expectAgreement(svcPairs(), svc, `${file} with svc:`);
  });

  it("the comparison can tell a disagreement (our lenient verdict against the full schema)", () => {
    const item = readJson(WITH_WARNING);
    const mismatched: Pair = { name: "mismatched", ours: fair.lenient.ours, theirs: fair.strict.theirs };
    const found = compare(mismatched, item);
    expect(found).toMatchObject({ ours: true, cfworker: false, uncoveredTheirs: ["/properties/fair:hyperparameters_spec"] });
  });

  for (const [prefix, seed] of [["fair:", SEED], ["svc:", SEED + 1]] as const) {
    it(
      `mutations of valid items (${prefix}), ${NUM_RUNS} runs, seed ${seed}`,
      () => {
        const pairs = prefix === "fair:" ? fair : svcPairs();
        const schema = createValidator({ prefix }).schema() as SchemaNode;
        const schemaUrl = createValidator({ prefix }).settings.schemaUrl;
        const bases = baseItems().map(({ name, item }) => ({ name, item: prefix === "fair:" ? item : renamePrefix(item, prefix) }));
        const tally = { strictValid: 0, strictInvalid: 0, lenientValid: 0, lenientInvalid: 0 };
        fc.assert(
          fc.property(fc.nat(bases.length - 1), fc.array(mutationArb, { minLength: 1, maxLength: 3 }), (baseIndex, mutations) => {
            const base = bases[baseIndex]!;
            let item = structuredClone(base.item);
            for (const mutation of mutations) item = mutate(item, mutation, schema, prefix, schemaUrl);
            for (const [mode, pair] of [["strict", pairs.strict], ["lenient", pairs.lenient]] as const) {
              const found = compare(pair, item, (valid) => tally[`${mode}${valid ? "Valid" : "Invalid"}`]++);
              if (found) {
                throw new Error(
                  `disagreement on ${base.name} after ${JSON.stringify(mutations)}:\n${JSON.stringify(found, null, 2)}`,
                );
              }
            }
          }),
          { seed, numRuns: NUM_RUNS },
        );
        // Not vacuous: plenty of mutations break the item, and plenty leave it valid.
        console.log(`${prefix} mutations: ${JSON.stringify(tally)}`);
        const runs = tally.strictValid + tally.strictInvalid;
        expect(tally.strictInvalid / runs).toBeGreaterThan(0.4);
        expect(tally.lenientValid / runs).toBeGreaterThan(0.05);
      },
      600_000,
    );
  }
});

let svcCache: { strict: Pair; lenient: Pair } | undefined;
function svcPairs() {
  return (svcCache ??= makePairs("svc:"));
}
