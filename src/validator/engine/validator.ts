import { nodeModuleFor } from "../../package-files.js";
import { defaultSchemaCache } from "../stac/cache.js";
import { normalizeSchemaMap } from "../stac/schema-map.js";
import { Engine, type StacCheck } from "./engine.js";
import { type EngineSettings } from "../item/settings.js";
import { LruCache } from "../item/lru.js";
import type { Issue } from "../../diagnostics/issue.js";
import { describeValue } from "../../diagnostics/messages.js";
import { problemText, unknownMember } from "../../diagnostics/schema-problems.js";
import type { ItemResult, ValidationResult } from "../item/result.js";
import { isRulesOption, loadedRuleSet, PROFILE_NAMES, PROFILES, RULE_SET_URLS, RULES_OPTIONS, ruleSet, type ProfileName, type RulesOption } from "../item/rule-sets.js";
import { buildSchema, DEFAULT_PREFIX, DEFAULT_SCHEMA_URL, normalizePrefix, normalizeSchemaUrl } from "../item/schema.js";
import { type JsonSchema } from "../../diagnostics/json-schema.js";
import { validateDocument, validateText, type DocumentFormat } from "./text.js";
import type { BaseModelItem } from "../item/types.js";

export interface ValidatorOptions {
  /** Service prefix, "fair:" by default; "svc" and "svc:" are the same. */
  prefix?: string;
  /** Schema identifier items must list in stac_extensions; fAIr's v1.0.0 identifier by default. */
  schemaUrl?: string;
  /** Every warning counts as an error (unknown prefixed properties, duplicate keys). Default false. */
  strict?: boolean;
  /** At most this many issues per item (errors first); default 100. Use Infinity for all. */
  maxErrors?: number;
  /** Also check core STAC (by stac_version) and every extension in stac_extensions, offline. Default false. */
  stac?: boolean;
  /**
   * With stac: local copies of extension schemas basemodel does not bundle (or to use instead of
   * a bundled one). Schema URL -> file, or URL prefix ending in "/" -> folder holding the rest of
   * the URL's path; relative paths are read from the working folder.
   */
  schemaMap?: Readonly<Record<string, string>>;
  /** With stac: also read the extension schemas fetchSchemas downloaded: true for the default folder ($XDG_CACHE_HOME/basemodel/schemas), or a folder. Default false. */
  schemaCache?: boolean | string;
  /**
   * fAIr's rule set: "v1.0.0" (the specification's, the default), "v1.0.0-current" (what fAIr
   * enforces today under the v1.0.0 identifier), "v1.1.0", or "auto" (the set whose identifier
   * the item lists; v1.0.0 when it lists none). When given, results name the set (`ruleSet`).
   */
  rules?: RulesOption;
  /**
   * Also check what fAIr's catalogue CI checks beyond its schema: keywords from its vocabulary,
   * fair:hyperparameters_spec covering mlm:hyperparameters, the assets checkpoint and model at
   * http(s) URLs; and fAIr's dataset items (not base model items otherwise) by fAIr's dataset rules.
   * Default false.
   */
  fairChecks?: boolean;
  /** "fair-ci": stac, rules "v1.0.0-current" and fairChecks, what fAIr's catalogue CI checks today; options given beside it win. */
  profile?: ProfileName;
}

export interface TextOptions {
  /** Name of the file the text came from, echoed in the result and in thrown errors. */
  file?: string;
}

export interface DocumentOptions extends TextOptions {
  /** "json" (default): one item, or each feature of a FeatureCollection; "ndjson": one item per line. */
  format?: DocumentFormat;
}

export interface TextValidationResult extends ValidationResult {
  file?: string;
}

export interface Validator {
  readonly settings: Readonly<EngineSettings>;
  /** The JSON Schema these settings check, with the prefix and identifier applied. */
  schema(): JsonSchema;
  validate(value: unknown): ValidationResult;
  validateText(text: string | Uint8Array, options?: TextOptions): TextValidationResult;
  validateDocumentText(text: string | Uint8Array, options?: DocumentOptions): ItemResult[];
  isBaseModelItem(value: unknown): value is BaseModelItem;
  assertBaseModelItem(value: unknown): asserts value is BaseModelItem;
}

/** The command line's validator: its files' documents are validated and their parsed values handed over, read once. */
export interface DocumentValidator extends Validator {
  /** validateDocumentText, giving `seen` each JSON value it parses (the document, or each NDJSON line). */
  validateDocumentSeen(text: string | Uint8Array, format: DocumentFormat, seen: (value: unknown) => void): ItemResult[];
}

export const DEFAULT_MAX_ERRORS = 100;

/** Thrown by assertBaseModelItem: the message lists the first errors; `issues` holds them all (up to maxErrors). */
export class BaseModelItemError extends Error {
  constructor(readonly issues: Issue[], file?: string) {
    const shown = issues.slice(0, 3).map((issue) => `${issue.rule}: ${issue.message}`);
    const more = issues.length > shown.length ? `; and ${issues.length - shown.length} more` : "";
    super(`${file ? `${file}: ` : ""}not a valid base model item: ${shown.join("; ")}${more}`);
    this.name = "BaseModelItemError";
  }
}

/** A value as a person would write it: NaN and Infinity stay themselves (JSON would say null). */
const OPTION_NAMES = new Set<string>(["prefix", "schemaUrl", "strict", "maxErrors", "stac", "schemaMap", "schemaCache", "rules", "fairChecks", "profile"]);

/** The options with the profile's filled in where they say nothing. */
function withProfile({ profile, ...options }: ValidatorOptions): ValidatorOptions {
  if (profile === undefined) return options;
  if (!(PROFILE_NAMES as readonly unknown[]).includes(profile)) throw new TypeError(`profile must be ${PROFILE_NAMES.map((name) => JSON.stringify(name)).join(" or ")}; found ${describeValue(profile)}`);
  const given = Object.fromEntries(Object.entries(options).filter(([, value]) => value !== undefined));
  return { ...PROFILES[profile], ...given };
}

/** rules and fairChecks, checked, and the identifier items must list: by default the rule set's own. */
function ruleSetSettings({ rules, fairChecks = false, schemaUrl }: ValidatorOptions): { rules?: RulesOption; fairChecks: boolean; schemaUrl: string } {
  if (rules !== undefined && !isRulesOption(rules)) throw new TypeError(`rules must be one of ${RULES_OPTIONS.map((name) => JSON.stringify(name)).join(", ")}; found ${describeValue(rules)}`);
  if (typeof fairChecks !== "boolean") throw new TypeError(`fairChecks must be a boolean; found ${describeValue(fairChecks)}`);
  if (rules === "auto" && schemaUrl !== undefined && !RULE_SET_URLS.includes(schemaUrl)) {
    throw new TypeError(`rules "auto" picks the rule set by fAIr's identifiers, so it cannot check another schemaUrl (${JSON.stringify(schemaUrl)}); name the rule set instead`);
  }
  const own = rules === undefined || rules === "auto" ? DEFAULT_SCHEMA_URL : ruleSet(rules).url;
  return { ...(rules !== undefined && { rules }), fairChecks, schemaUrl: schemaUrl ?? own };
}

/** The format of a document text: "json" unless said; a TypeError for anything but "json" or "ndjson". */
export function documentFormat(format: unknown = "json"): DocumentFormat {
  if (format !== "json" && format !== "ndjson") throw new TypeError(`format must be "json" or "ndjson"; found ${describeValue(format)}`);
  return format;
}

/** Checked, normalised settings; a TypeError says what is wrong with the options. */
export function settingsFrom(options: ValidatorOptions): EngineSettings {
  if (options === null || typeof options !== "object") throw new TypeError("validator options must be an object");
  const unknown = Object.keys(options).filter((name) => !OPTION_NAMES.has(name));
  if (unknown.length > 0) throw new TypeError(unknown.map((name) => problemText(unknownMember("", name, [...OPTION_NAMES], "the validator options"))).join("; "));
  options = withProfile(options);
  const { schemaUrl, ...ruleSettings } = ruleSetSettings(options);
  const { prefix = DEFAULT_PREFIX, strict = false, maxErrors = DEFAULT_MAX_ERRORS, stac = false, schemaMap = {}, schemaCache = false } = options;
  if (typeof strict !== "boolean") throw new TypeError(`strict must be a boolean; found ${describeValue(strict)}`);
  if (typeof stac !== "boolean") throw new TypeError(`stac must be a boolean; found ${describeValue(stac)}`);
  if (!(maxErrors === Infinity || (Number.isInteger(maxErrors) && maxErrors >= 1))) {
    throw new TypeError(`maxErrors must be an integer of at least 1 (or Infinity); found ${describeValue(maxErrors)}`);
  }
  const map = normalizeSchemaMap(schemaMap);
  if (typeof schemaCache !== "boolean" && (typeof schemaCache !== "string" || schemaCache === "")) {
    throw new TypeError(`schemaCache must be true, false or a folder; found ${describeValue(schemaCache)}`);
  }
  if (!stac && (Object.keys(map).length > 0 || schemaCache !== false)) {
    throw new TypeError("schemaMap and schemaCache are for the extension schemas that stac: true checks; set stac: true too");
  }
  const cache = schemaCache === false ? {} : { schemaCache: schemaCache === true ? defaultSchemaCache() : nodeModuleFor("node:path", "schemaCache").resolve(schemaCache) };
  return { prefix: normalizePrefix(String(prefix)), schemaUrl: normalizeSchemaUrl(schemaUrl), strict, maxErrors, stac, schemaMap: map, ...cache, ...ruleSettings };
}

/** Validators of the last settings the functions of the package's entry point were called with. */
export const validatorsBySettings = new LruCache<string, Validator>(16);
let defaultValidator: Validator | undefined;

/** fAIr's validator, or one per distinct set of settings (checked first, compiled once, then reused while used). */
export function validatorFor(options: ValidatorOptions | undefined, stac: StacCheck): Validator {
  if (options === undefined) return (defaultValidator ??= validatorOf({}, stac));
  const settings = settingsFrom(options);
  const key = [settings.prefix, settings.schemaUrl, settings.strict, settings.maxErrors, settings.stac, JSON.stringify(settings.schemaMap), settings.schemaCache, settings.rules, settings.fairChecks].join("\n");
  return validatorsBySettings.get(key, () => validatorWith(settings, stac));
}

/** A validator for these options; `stac: true` needs the STAC layer. */
export function validatorOf(options: ValidatorOptions, stac?: StacCheck): DocumentValidator {
  return validatorWith(settingsFrom(options), stac);
}

export function validatorWith(checked: EngineSettings, stac?: StacCheck): DocumentValidator {
  const settings = Object.freeze({ ...checked });
  const engine = new Engine(settings, stac);
  const judge = (value: unknown) => engine.finish(engine.check(value), engine.judged(value));
  const withFile = <T extends object>(result: T, file: string | undefined): T & { file?: string } =>
    file === undefined ? result : { ...result, file };
  return {
    settings,
    schema: () => {
      const set = ruleSet(engine.ruleSetFor(undefined));
      return buildSchema(loadedRuleSet(set.name).schema, set.url, settings);
    },
    validate: (value) => judge(value),
    validateText: (text, { file } = {}) => withFile(validateText(engine, text), file),
    validateDocumentText: (text, { format } = {}) => validateDocument(engine, text, documentFormat(format)),
    validateDocumentSeen: (text, format, seen) => validateDocument(engine, text, format, seen),
    isBaseModelItem: (value): value is BaseModelItem => judge(value).valid,
    assertBaseModelItem(value): asserts value is BaseModelItem {
      const result = judge(value);
      if (!result.valid) throw new BaseModelItemError(result.errors);
    },
  };
}
