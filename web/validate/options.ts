/**
 * The options of `basemodel validate` the page offers: the rule set (--rules), --profile,
 * --stac, --fair-checks, --strict, and how a text is read. A profile sets the others as the
 * command line's does; options changed beside it win, as they do there. The command line that
 * validates the same way is shown under them.
 */
import { PROFILE_NAMES, PROFILES, RULES_OPTIONS, type ProfileName, type RulesOption, type ValidatorOptions } from "basemodel";
import { el, labelled } from "../shared/dom.js";
import type { FormatChoice } from "./documents.js";

export interface ValidationChoices {
  validator: ValidatorOptions & { rules: RulesOption; stac: boolean; fairChecks: boolean; strict: boolean };
  format: FormatChoice;
}

export interface OptionsPanel {
  element: HTMLElement;
  choices(): ValidationChoices;
  /** Called whenever a choice changes. */
  onChange(listener: () => void): void;
}

/** The command line's defaults: what no flag changes. */
const DEFAULTS = { rules: RULES_OPTIONS[0]!, stac: false, fairChecks: false } as const;
const NO_PROFILE = "none";

const RULE_SET_NOTES: Partial<Record<RulesOption, string>> = {
  "v1.0.0": "the specification's, the default",
  "v1.0.0-current": "what fAIr enforces today",
  auto: "the set each item names",
};

function checkbox(text: string, flag: string): { label: HTMLLabelElement; input: HTMLInputElement } {
  const input = el("input", { type: "checkbox" });
  return { input, label: el("label", { class: "choice" }, input, " ", el("code", {}, flag), ` ${text}`) };
}

function select(values: readonly string[], caption: (value: string) => string): HTMLSelectElement {
  return el("select", {}, ...values.map((value) => el("option", { value }, caption(value))));
}

export function optionsPanel(): OptionsPanel {
  const rules = select(RULES_OPTIONS, (value) => (RULE_SET_NOTES[value as RulesOption] ? `${value} (${RULE_SET_NOTES[value as RulesOption]})` : value));
  const profile = select([NO_PROFILE, ...PROFILE_NAMES], (value) => value);
  const stac = checkbox("core STAC and every extension listed", "--stac");
  const fairChecks = checkbox("fAIr's CI checks", "--fair-checks");
  const strict = checkbox("warnings count as errors", "--strict");
  const format = select(["auto", "json", "ndjson"], (value) => ({ auto: "auto (by file name, or by its lines)", json: "JSON: an item or a FeatureCollection", ndjson: "NDJSON: one item per line" })[value]!);
  const command = el("code", {});
  const listeners: Array<() => void> = [];

  const choices = (): ValidationChoices => ({
    validator: { rules: rules.value as RulesOption, stac: stac.input.checked, fairChecks: fairChecks.input.checked, strict: strict.input.checked },
    format: format.value as FormatChoice,
  });

  /** The flags that validate the same way: the profile's name, and what differs from it (or from the defaults). */
  const showCommand = (): void => {
    const chosen = profile.value === NO_PROFILE ? undefined : (profile.value as ProfileName);
    const base = chosen === undefined ? DEFAULTS : PROFILES[chosen];
    const { validator } = choices();
    const flags = [
      ...(chosen === undefined ? [] : [`--profile ${chosen}`]),
      ...(validator.rules === base.rules ? [] : [`--rules ${validator.rules}`]),
      ...(validator.stac === base.stac ? [] : [validator.stac ? "--stac" : "--no-stac"]),
      ...(validator.fairChecks === base.fairChecks ? [] : [validator.fairChecks ? "--fair-checks" : "--no-fair-checks"]),
      ...(validator.strict ? ["--strict"] : []),
    ];
    command.textContent = ["basemodel validate", ...flags, "<files>"].join(" ");
  };
  const changed = (): void => {
    showCommand();
    for (const listener of listeners) listener();
  };

  profile.addEventListener("change", () => {
    const settings = profile.value === NO_PROFILE ? DEFAULTS : PROFILES[profile.value as ProfileName];
    rules.value = settings.rules;
    stac.input.checked = settings.stac;
    fairChecks.input.checked = settings.fairChecks;
  });
  for (const control of [rules, profile, stac.input, fairChecks.input, strict.input, format]) control.addEventListener("change", changed);
  showCommand();

  const element = el(
    "form",
    { class: "options", "aria-label": "Options" },
    el("div", { class: "option-row" }, labelled("Rule set", rules), labelled("Profile", profile), labelled("Read as", format)),
    el("div", { class: "option-row" }, stac.label, fairChecks.label, strict.label),
    el("p", { class: "hint" }, "The same as ", command),
  );
  element.addEventListener("submit", (event) => event.preventDefault());
  return { element, choices, onChange: (listener) => listeners.push(listener) };
}
