/**
 * basemodel: validate fAIr base model items (STAC + MLM + fair:).
 *
 *   import { validateItem } from "basemodel";
 *   const { valid, errors, warnings } = validateItem(item);
 *
 * The same module runs in Node and, bundled, in browsers. Node loads what an option needs (the
 * compiled STAC schemas, fAIr's other rule sets and dataset rules) when it is first used; a
 * browser loads it beforehand, with loadFor (or loadStac, loadRuleSet, loadDatasetRules and
 * loadCompiler, one part each), so that a page fetches only that.
 */
import type { ItemResult, ValidationResult } from "./validator/item/result.js";
import type { BaseModelItem } from "./validator/item/types.js";
import type { FetchReport } from "./validator/engine/fetch-schemas.js";
import { stacIssues } from "./validator/stac/index.js";
import { describeValue } from "./diagnostics/messages.js";
import { loadForSettings } from "./validator/engine/load.js";
import { documentValues, itemValues } from "./validator/engine/text.js";
import {
  documentFormat,
  settingsFrom,
  validatorFor,
  validatorOf,
  type DocumentOptions,
  type TextOptions,
  type TextValidationResult,
  type Validator,
  type ValidatorOptions,
} from "./validator/engine/validator.js";

/** Splits the text options (file, format) from the validator's; anything but an object is refused. */
function textOptions<T extends object>(options: T | undefined, own: ReadonlyArray<keyof T>): [Partial<T>, ValidatorOptions | undefined] {
  if (options === undefined) return [{}, undefined];
  if (options === null || typeof options !== "object" || Array.isArray(options)) throw new TypeError("validator options must be an object");
  const mine: Partial<T> = {};
  const rest: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(options)) {
    if ((own as readonly string[]).includes(key)) mine[key as keyof T] = value;
    else rest[key] = value;
  }
  return [mine, rest as ValidatorOptions];
}

/** A validator for one deployment of the format; createValidator() with no options is fAIr's. */
export function createValidator(options: ValidatorOptions = {}): Validator {
  return validatorOf(options, stacIssues);
}

/** Checks one item (any JavaScript value) and returns every broken rule. */
export function validateItem(value: unknown, options?: ValidatorOptions): ValidationResult {
  return validatorFor(options, stacIssues).validate(value);
}

/** Checks one item written as JSON text (or UTF-8 bytes); every issue carries line and column. */
export function validateItemText(text: string | Uint8Array, options?: TextOptions & ValidatorOptions): TextValidationResult {
  const [{ file }, validatorOptions] = textOptions(options, ["file"]);
  return validatorFor(validatorOptions, stacIssues).validateText(text, file === undefined ? {} : { file });
}

/** Checks every item of a JSON document (a lone item or a FeatureCollection) or of NDJSON text. */
export function validateDocumentText(text: string | Uint8Array, options?: DocumentOptions & ValidatorOptions): ItemResult[] {
  const [{ format }, validatorOptions] = textOptions(options, ["file", "format"]);
  return validatorFor(validatorOptions, stacIssues).validateDocumentText(text, format === undefined ? {} : { format });
}

/** True when the value is a valid base model item (warnings allowed). */
export function isBaseModelItem(value: unknown, options?: ValidatorOptions): value is BaseModelItem {
  return validatorFor(options, stacIssues).isBaseModelItem(value);
}

/** Throws a BaseModelItemError listing the errors unless the value is a valid base model item. */
export function assertBaseModelItem(value: unknown, options?: ValidatorOptions): asserts value is BaseModelItem {
  const validator: Validator = validatorFor(options, stacIssues);
  validator.assertBaseModelItem(value);
}

/**
 * Loads what validating these documents with these options needs, where basemodel cannot load it
 * as it needs it: in a browser (Node loads each part when first used, and this returns at once).
 * `documents`: a text, read as validateDocumentText reads it (`format`), or parsed values (items,
 * FeatureCollections). Without documents, `stac: true` loads every bundled STAC schema.
 *
 *   await loadFor(text, options);
 *   const results = validateDocumentText(text, options);
 */
export async function loadFor(documents: string | Uint8Array | readonly unknown[] | undefined, options?: DocumentOptions & ValidatorOptions): Promise<void> {
  const [{ format }, validatorOptions] = textOptions(options, ["file", "format"]);
  const settings = settingsFrom(validatorOptions ?? {});
  let items: unknown[] | undefined;
  if (typeof documents === "string" || documents instanceof Uint8Array) items = documentValues(documents, documentFormat(format));
  else if (Array.isArray(documents)) items = documents.flatMap(itemValues);
  else if (documents !== undefined) throw new TypeError(`documents must be a text (a string or UTF-8 bytes) or an array of parsed documents; found ${describeValue(documents)}`);
  await loadForSettings(settings, items);
}

export { BaseModelItemError, DEFAULT_MAX_ERRORS } from "./validator/engine/validator.js";
export { checkLinks, LinkChecker, type LinkCheckOptions } from "./validator/links/index.js";
export { loadStac } from "./validator/stac/index.js";
export { loadRuleSet } from "./validator/item/rule-sets.js";
export { loadDatasetRules } from "./validator/fair/dataset.js";
export { loadCompiler } from "./validator/item/compile.js";
export type { FetchOptions, FetchReport } from "./validator/engine/fetch-schemas.js";

/**
 * Downloads, into the schema cache, the extension schemas the items name that basemodel neither
 * bundles nor has mapped (--fetch). Loaded on first call: it is async, and most users never call it.
 */
export async function fetchSchemas(...args: Parameters<typeof import("./validator/engine/fetch-schemas.js").fetchSchemas>): Promise<FetchReport> {
  return (await import("./validator/engine/fetch-schemas.js")).fetchSchemas(...args);
}
export type { DocumentOptions, TextOptions, TextValidationResult, Validator, ValidatorOptions } from "./validator/engine/validator.js";
export { DEFAULT_PREFIX, DEFAULT_SCHEMA_URL } from "./validator/item/schema.js";
export { type JsonSchema } from "./diagnostics/json-schema.js";
export { rules, type Rule } from "./diagnostics/rules.js";
export { PROFILE_NAMES, PROFILES, RULE_SET_NAMES, RULES_OPTIONS, type ProfileName, type RuleSetName, type RulesOption } from "./validator/item/rule-sets.js";
export { byPosition, type Issue, type RuleId, type Severity } from "./diagnostics/issue.js";
// How `basemodel validate` shows an issue to a person (its text format), for pages that show issues as it does.
export { issueView, itemLabel, type IssueView } from "./validator/report/labels.js";
export { SourceLines, type FrameLine, type FrameSegment, type FrameStyle } from "./validator/report/code-frame.js";
export type { ItemResult, ValidationResult } from "./validator/item/result.js";
export type * from "./validator/item/types.js";
