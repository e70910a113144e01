/**
 * --stac, --rules and --fair-checks, from the flags and the configuration file, where --profile
 * (or "profile") fills in what a layer does not say: the flags, then their profile, then the
 * file's settings, then its profile. Flags win over the file, as everywhere.
 */
import { DEFAULT_RULE_SET, PROFILES, type ProfileName, type RulesOption } from "../validator/item/rule-sets.js";

export interface RuleChoices {
  stac?: boolean;
  rules?: RulesOption;
  fairChecks?: boolean;
  profile?: ProfileName;
}

export function chooseRules(flags: RuleChoices, config: RuleChoices): { stac: boolean; rules: RulesOption; fairChecks: boolean } {
  const layers: RuleChoices[] = [flags, flags.profile === undefined ? {} : PROFILES[flags.profile], config, config.profile === undefined ? {} : PROFILES[config.profile]];
  const first = <K extends "stac" | "rules" | "fairChecks">(key: K): RuleChoices[K] => layers.map((layer) => layer[key]).find((value) => value !== undefined);
  // The rule set is always named, so that the report says which one judged each item.
  return { stac: first("stac") ?? false, rules: first("rules") ?? DEFAULT_RULE_SET, fairChecks: first("fairChecks") ?? false };
}
