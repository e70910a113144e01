/**
 * What validating some items with some settings needs loaded beforehand where basemodel cannot
 * load it as it needs it: in a browser, or in a bundle of the package away from its files. Node
 * loads each part when first used, and there this returns at once.
 */
import { loadDatasetRules } from "../fair/dataset.js";
import { loadCompiler, needsCompiler } from "../item/compile.js";
import { listedDatasetSchema } from "../item/not-an-item.js";
import { loadRuleSet, ruleSet } from "../item/rule-sets.js";
import type { EngineSettings } from "../item/settings.js";
import { loadStac } from "../stac/index.js";
import { ruleSetsOf, schemaSettingsOf } from "./engine.js";

/**
 * Loads the rule sets `settings` may judge by, Ajv when one is checked under another prefix or
 * identifier, fAIr's dataset rules when fairChecks meets a dataset item, and the STAC schemas the
 * items name when stac is on. `items` undefined: whatever any item may need (every STAC schema).
 */
export async function loadForSettings(settings: Readonly<EngineSettings>, items: readonly unknown[] | undefined): Promise<void> {
  const names = ruleSetsOf(settings);
  const loads = names.map((name) => loadRuleSet(name));
  if (names.some((name) => needsCompiler(ruleSet(name), schemaSettingsOf(settings, name)))) loads.push(loadCompiler());
  if (settings.fairChecks && (items === undefined || items.some((item) => listedDatasetSchema(item) !== undefined))) loads.push(loadDatasetRules());
  if (settings.stac) loads.push(loadStac(items));
  await Promise.all(loads);
}
