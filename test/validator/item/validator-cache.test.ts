import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { createValidator, DEFAULT_SCHEMA_URL, validateItem } from "../../../src/index.js";
import { compiledChecks } from "../../../src/validator/item/compile.js";
import { LruCache } from "../../../src/validator/item/lru.js";
import { validatorsBySettings } from "../../../src/validator/engine/validator.js";

const itemText = readFileSync(resolve(__dirname, "../../../fixtures/warning/hyperparameters-spec.json"), "utf8");
const schemaUrl = (index: number) => `https://example.org/deployment-${index}/schema.json`;
/** The item as deployment `index` publishes it: it lists that deployment's schema. */
const itemOf = (index: number): unknown => JSON.parse(itemText.replace(DEFAULT_SCHEMA_URL, schemaUrl(index)));

describe("the validator's caches keyed by settings", () => {
  it("stay bounded however many settings are used, and results stay right", () => {
    const deployments = 40;
    for (let index = 0; index < deployments; index++) {
      expect(validateItem(itemOf(index), { schemaUrl: schemaUrl(index) }).valid).toBe(true);
      const other = validateItem(itemOf(index), { schemaUrl: schemaUrl(index + 1) });
      expect(other.errors.map((issue) => issue.rule)).toEqual(["schema-url"]);
      expect(createValidator({ schemaUrl: schemaUrl(index), strict: true }).validate(itemOf(index)).valid).toBe(false);
    }
    expect(validatorsBySettings.size).toBeLessThanOrEqual(16);
    expect(compiledChecks.size).toBeLessThanOrEqual(16);
    // The first settings were dropped long ago: they are compiled again, and answer as before.
    expect(validateItem(itemOf(0), { schemaUrl: schemaUrl(0) }).valid).toBe(true);
    expect(validateItem(itemOf(0), { schemaUrl: schemaUrl(1) }).errors.map((issue) => issue.rule)).toEqual(["schema-url"]);
  });
});

describe("the problems of unknown prefixed members, reused from item to item", () => {
  const validator = createValidator({});
  const withMember = (name: string): unknown => {
    const item = JSON.parse(itemText) as { properties: Record<string, unknown> };
    item.properties[name] = 1;
    return item;
  };
  const warningOf = (name: string) => validator.validate(withMember(name)).warnings.find((issue) => issue.actual === name);

  it("give each item an issue of its own, worded as for the first", () => {
    const first = warningOf("fair:metric_spec")!;
    expect(first.suggestion).toBe('did you mean "fair:metrics_spec"?');
    const wording = { ...first };
    first.message = "changed by a caller";
    delete first.suggestion;
    expect(warningOf("fair:metric_spec")).toEqual(wording);
  });

  it("stay right for more names than are kept", () => {
    for (let index = 0; index < 300; index++) expect(warningOf(`fair:extra_${index}`)?.path).toBe(`/properties/fair:extra_${index}`);
    expect(warningOf("fair:split_spc")?.suggestion).toBe('did you mean "fair:split_spec"?');
    expect(warningOf("fair:extra_0")?.message).toContain('unknown member "fair:extra_0" in properties');
  });
});

describe("LruCache", () => {
  it("keeps the entries used last and makes a value only when it has none", () => {
    const cache = new LruCache<string, number>(2);
    let made = 0;
    const make = (value: number) => () => (made++, value);
    expect(cache.get("a", make(1))).toBe(1);
    expect(cache.get("b", make(2))).toBe(2);
    expect(cache.get("a", make(9))).toBe(1); // a is now the last used, b the oldest
    expect(cache.get("c", make(3))).toBe(3); // b goes
    expect(cache.size).toBe(2);
    expect(made).toBe(3);
    expect(cache.get("a", make(9))).toBe(1);
    expect(cache.get("b", make(4))).toBe(4);
    expect(made).toBe(4);
  });
});
