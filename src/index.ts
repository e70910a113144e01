/**
 * basemodel: validate fAIr base model items (STAC + MLM + fair:).
 *
 *   import { validateItem } from "basemodel";
 *   const { valid, errors, warnings } = validateItem(item);
 */
import type { ItemResult, ValidationResult } from "./item/issue.js";
import type { BaseModelItem } from "./item/types.js";
import {
  createValidator,
  type DocumentOptions,
  type TextOptions,
  type TextValidationResult,
  type Validator,
  type ValidatorOptions,
} from "./item/validator.js";

let defaultValidator: Validator | undefined;
const configured = new Map<string, Validator>();

/** fAIr's validator, or one per distinct set of options (compiled once, then reused). */
function validatorFor(options?: ValidatorOptions): Validator {
  if (options === undefined) return (defaultValidator ??= createValidator());
  const key = JSON.stringify([options.prefix, options.schemaUrl, options.strict, options.maxErrors, Object.keys(options)]);
  let validator = configured.get(key);
  if (!validator) {
    validator = createValidator(options);
    configured.set(key, validator);
  }
  return validator;
}

/** Checks one item (any JavaScript value) and returns every broken rule. */
export function validateItem(value: unknown, options?: ValidatorOptions): ValidationResult {
  return validatorFor(options).validate(value);
}

/** Checks one item written as JSON text (or UTF-8 bytes); every issue carries line and column. */
export function validateItemText(text: string | Uint8Array, options?: TextOptions & ValidatorOptions): TextValidationResult {
  const { file, ...validatorOptions } = options ?? {};
  return validatorFor(options && validatorOptions).validateText(text, file === undefined ? {} : { file });
}

/** Checks every item of a JSON document (a lone item or a FeatureCollection) or of NDJSON text. */
export function validateDocumentText(text: string | Uint8Array, options?: DocumentOptions & ValidatorOptions): ItemResult[] {
  const { file, format, ...validatorOptions } = options ?? {};
  return validatorFor(options && validatorOptions).validateDocumentText(text, format === undefined ? {} : { format });
}

/** True when the value is a valid base model item (warnings allowed). */
export function isBaseModelItem(value: unknown, options?: ValidatorOptions): value is BaseModelItem {
  return validatorFor(options).isBaseModelItem(value);
}

/** Throws a BaseModelItemError listing the errors unless the value is a valid base model item. */
export function assertBaseModelItem(value: unknown, options?: ValidatorOptions): asserts value is BaseModelItem {
  const validator: Validator = validatorFor(options);
  validator.assertBaseModelItem(value);
}

export { createValidator, BaseModelItemError, DEFAULT_MAX_ERRORS } from "./item/validator.js";
export type { DocumentOptions, TextOptions, TextValidationResult, Validator, ValidatorOptions } from "./item/validator.js";
export { DEFAULT_PREFIX, DEFAULT_SCHEMA_URL, type JsonSchema } from "./item/schema.js";
export { rules, type Rule } from "./item/rules.js";
export type { Issue, ItemResult, RuleId, Severity, ValidationResult } from "./item/issue.js";
export type * from "./item/types.js";
