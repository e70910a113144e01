import { ajvOptions } from "../../generated/schema.js";
import { nodeModule } from "../../package-files.js";
import { LruCache } from "./lru.js";
import { loadedRuleSet, type CompiledCheck, type RuleSet } from "./rule-sets.js";
import { buildSchema, DEFAULT_PREFIX, type SchemaSettings } from "./schema.js";

/** Compiled checks of the last settings used: each holds Ajv's generated code. */
export const compiledChecks = new LruCache<string, CompiledCheck>(16);

interface Compiler {
  Ajv: typeof import("ajv").default;
  addFormats: typeof import("ajv-formats").default;
}

let compiler: Compiler | undefined;

/** Ajv from node_modules, when Node can load it now. */
function requireCompiler(): Compiler | undefined {
  const require = nodeModule("node:module")?.createRequire(import.meta.url);
  try {
    return require && { Ajv: (require("ajv") as typeof import("ajv")).default, addFormats: require("ajv-formats") as Compiler["addFormats"] };
  } catch {
    return undefined; // a bundle of the package's code, away from its node_modules
  }
}

/** Ajv, in Node loaded when first needed; elsewhere loadCompiler() loads it. */
function ajvCompiler(): Compiler {
  compiler ??= requireCompiler();
  if (compiler === undefined) {
    throw new Error("checking another prefix or schemaUrl than fAIr's compiles the rules with Ajv, which is not loaded: call `await loadCompiler()` first (where basemodel cannot load modules as it needs them, as in a browser)");
  }
  return compiler;
}

/** Loads Ajv, so that compiledCheck can compile where nothing loads synchronously. */
export async function loadCompiler(): Promise<void> {
  compiler ??= requireCompiler();
  if (compiler !== undefined) return;
  const [ajv, formats] = await Promise.all([import("ajv"), import("ajv-formats")]);
  // Both are CommonJS: `default` is their `exports` (Node) or `exports.default` (Rollup), and both
  // set `exports.default` to themselves.
  compiler = { Ajv: ajv.default.default, addFormats: formats.default.default };
}

/** Whether the set's check under these settings is compiled now, with Ajv: for another prefix or identifier than the set's own. */
export function needsCompiler(set: RuleSet, settings: SchemaSettings): boolean {
  return settings.prefix !== DEFAULT_PREFIX || settings.schemaUrl !== set.url;
}

/**
 * The check of a rule set for these settings. Each set's schema was compiled to code at build
 * time, so fAIr's own prefix and identifier cost nothing here; another prefix or identifier is
 * compiled once with Ajv, which is loaded only then.
 */
export function compiledCheck(set: RuleSet, settings: SchemaSettings): CompiledCheck {
  if (!needsCompiler(set, settings)) return loadedRuleSet(set.name).check;
  return compiledChecks.get(`${set.name}\n${settings.prefix}\n${settings.schemaUrl}`, () => {
    const { Ajv, addFormats } = ajvCompiler();
    const ajv = new Ajv({ ...ajvOptions, keywords: [...ajvOptions.keywords] });
    addFormats(ajv, ["uri"]);
    return ajv.compile(buildSchema(loadedRuleSet(set.name).schema, set.url, settings)) as CompiledCheck;
  });
}
