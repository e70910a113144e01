/**
 * --fair-checks: fair:hyperparameters_spec covers mlm:hyperparameters, as fAIr's catalogue CI
 * requires: every hyperparameter (its key without "training." or "inference.") has an entry, and
 * every entry says its type, default and description. Checked only when both are non-empty, as
 * the CI does; a value of the wrong type is a finding, never an exception.
 */
import type { Issue } from "../../diagnostics/issue.js";
import { describeValue, issue, wordList } from "../../diagnostics/messages.js";
import { describePointer, joinPointer } from "../../diagnostics/pointer.js";
import { closest } from "../../diagnostics/suggest.js";

const ENTRY_MEMBERS = ["type", "default", "description"] as const;
const SCOPES = ["training.", "inference."];

export const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === "object" && !Array.isArray(value);

/** What the CI's Python takes for "nothing": absent, null, false, 0, "", [] or {}. */
const isEmpty = (value: unknown): boolean =>
  !value || (Array.isArray(value) ? value.length === 0 : isObject(value) && Object.keys(value).length === 0);

/** The key an entry of the spec gives a hyperparameter: "training.epochs" is "epochs". */
export function bareKey(key: string): string {
  const scope = SCOPES.find((prefix) => key.startsWith(prefix));
  return scope === undefined ? key : key.slice(scope.length);
}

/** What is wrong with each entry: not an object, or without type, default or description. */
function entryIssues(spec: unknown[], specPath: string): Issue[] {
  const wanted = wordList(ENTRY_MEMBERS.map((name) => JSON.stringify(name)));
  return spec.flatMap((entry, index) => {
    const path = joinPointer(specPath, index);
    const where = describePointer(path);
    if (!isObject(entry)) {
      return [issue("fair-hyperparameter-spec-entry", path, `${where} must be an object with "key", ${wanted}; found ${describeValue(entry)}`, { expected: "an object" })];
    }
    const missing = ENTRY_MEMBERS.filter((name) => !Object.hasOwn(entry, name));
    if (missing.length === 0) return [];
    const named = typeof entry.key === "string" ? ` (${JSON.stringify(entry.key)})` : "";
    return [
      issue("fair-hyperparameter-spec-entry", path, `${where}${named} has no ${wordList(missing.map((name) => JSON.stringify(name)))}; fAIr's CI needs ${wanted} in every entry`, {
        expected: [...ENTRY_MEMBERS],
        actual: missing,
      }),
    ];
  });
}

/** Each hyperparameter without an entry, at its key. */
function coverageIssues(hyperparameters: Record<string, unknown>, spec: unknown[], specName: string): Issue[] {
  const keys = spec.flatMap((entry) => (isObject(entry) && typeof entry.key === "string" ? [entry.key] : []));
  return Object.keys(hyperparameters).flatMap((key) => {
    const bare = bareKey(key);
    if (keys.includes(bare)) return [];
    const path = joinPointer("/properties/mlm:hyperparameters", key);
    const near = closest(bare, keys);
    const suggestion =
      near === undefined
        ? `add an entry with "key": ${JSON.stringify(bare)} to ${specName}`
        : `${specName} has an entry for ${JSON.stringify(near)}; if that is this hyperparameter, its key must be ${JSON.stringify(bare)}`;
    return [
      issue("fair-hyperparameter-spec", path, `${describePointer(path)} has no entry in ${specName} (an entry with "key": ${JSON.stringify(bare)})`, {
        expected: bare,
        actual: key,
        suggestion,
      }),
    ];
  });
}

/**
 * The coverage findings for an item's properties. `prefix` names the spec (fair:hyperparameters_spec);
 * a spec that is not an array is a finding unless `typeReported` says the schema reported it already.
 */
export function hyperparameterSpecIssues(properties: Record<string, unknown>, prefix: string, typeReported: (path: string) => boolean): Issue[] {
  const specName = `${prefix}hyperparameters_spec`;
  const specPath = joinPointer("/properties", specName);
  const hyperparameters = properties["mlm:hyperparameters"];
  const spec = properties[specName];
  // Checked only when both say something; a hyperparameters value that is not an object is the schema's to report.
  if (!isObject(hyperparameters) || isEmpty(hyperparameters) || isEmpty(spec)) return [];
  if (!Array.isArray(spec)) {
    if (typeReported(specPath)) return [];
    return [issue("fair-hyperparameter-spec-entry", specPath, `${describePointer(specPath)} must be an array of entries, one per hyperparameter; found ${describeValue(spec)}`, { expected: "an array" })];
  }
  return [...entryIssues(spec, specPath).filter((found) => !typeReported(found.path)), ...coverageIssues(hyperparameters, spec, specName)];
}
