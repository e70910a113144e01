import { createRequire } from "node:module";
import { ajvOptions } from "../../generated/schema.js";
import { LruCache } from "./lru.js";
import { loadRuleSet, type CompiledCheck, type RuleSet } from "./rule-sets.js";
import { buildSchema, DEFAULT_PREFIX, type SchemaSettings } from "./schema.js";

/** Compiled checks of the last settings used: each holds Ajv's generated code. */
export const compiledChecks = new LruCache<string, CompiledCheck>(16);

/**
 * The check of a rule set for these settings. Each set's schema was compiled to code at build
 * time, so fAIr's own prefix and identifier cost nothing here; another prefix or identifier is
 * compiled once with Ajv, which is loaded only then.
 */
export function compiledCheck(set: RuleSet, settings: SchemaSettings): CompiledCheck {
  if (settings.prefix === DEFAULT_PREFIX && settings.schemaUrl === set.url) return loadRuleSet(set.name).check;
  return compiledChecks.get(`${set.name}\n${settings.prefix}\n${settings.schemaUrl}`, () => {
    const require = createRequire(import.meta.url);
    const Ajv = (require("ajv") as typeof import("ajv")).default;
    const addFormats = require("ajv-formats") as typeof import("ajv-formats").default;
    const ajv = new Ajv({ ...ajvOptions, keywords: [...ajvOptions.keywords] });
    addFormats(ajv, ["uri"]);
    return ajv.compile(buildSchema(loadRuleSet(set.name).schema, set.url, settings)) as CompiledCheck;
  });
}
