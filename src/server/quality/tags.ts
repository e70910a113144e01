/**
 * Tag rules: which features a source applies to, and its badvalue and incomplete checks.
 * Tags come from OSM data, so keys are looked up as own properties only: a feature without a
 * "constructor" tag must not find Object.prototype's.
 */
import type { SourceRules, TagTerm } from "./rules.js";

type Tags = Record<string, string>;

export interface TagProblems {
  /** "key=value" for each tag whose value is outside its allowed list. */
  badvalue: string[];
  /** Each required key the feature lacks. */
  incomplete: string[];
}

/** True when the tags satisfy any of the terms. */
export function matchesAny(terms: readonly TagTerm[], tags: Tags): boolean {
  return terms.some(({ key, value }) => Object.hasOwn(tags, key) && (value === null || tags[key] === value));
}

/** The tag check of a source, with its allowed values indexed once. */
export function tagCheck(rules: Pick<SourceRules, "allowedValues" | "required">): (tags: Tags) => TagProblems {
  const allowed = rules.allowedValues.map(({ key, values }) => ({ key, values: new Set(values) }));
  const { required } = rules;
  return (tags) => ({
    badvalue: allowed.filter(({ key, values }) => Object.hasOwn(tags, key) && !values.has(tags[key]!)).map(({ key }) => `${key}=${tags[key]}`),
    incomplete: required.filter((key) => !Object.hasOwn(tags, key)),
  });
}
