import { compiledCheck, type CompiledCheck } from "./compile.js";
import type { Issue, ValidationResult } from "./issue.js";
import { issuesFromSchemaErrors, type MessageContext } from "./messages.js";
import { definedPrefixedMembers, type SchemaSettings } from "./schema.js";

export interface EngineSettings extends SchemaSettings {
  /** Every warning counts as an error. */
  strict: boolean;
  /** At most this many issues per item are returned; the rest are counted in `omitted`. */
  maxErrors: number;
  /** Also check core STAC and every extension the item lists, with the bundled official schemas. */
  stac: boolean;
  /** With stac: local copies of extension schemas, by URL or URL prefix (ending in "/"): absolute file or folder paths. */
  schemaMap: Readonly<Record<string, string>>;
  /** With stac: the folder of downloaded extension schemas (fetchSchemas), read for URLs neither bundled nor mapped. */
  schemaCache?: string;
}

/**
 * The STAC layer (src/stac): the STAC issues of one item, given what the base model rules found.
 * It is handed in rather than imported, so that what does not ask for it never loads it.
 */
export type StacCheck = (value: unknown, base: readonly Issue[], settings: Readonly<EngineSettings>) => Issue[];

/** The two steps every entry point shares: find the issues of one value, then shape them into a result. */
export class Engine {
  private readonly compiled: CompiledCheck;
  private readonly context: MessageContext;

  constructor(
    readonly settings: Readonly<EngineSettings>,
    private readonly stac?: StacCheck,
  ) {
    if (settings.stac && stac === undefined) throw new Error("stac: true needs the STAC layer (src/stac)");
    this.compiled = compiledCheck(settings);
    this.context = { schemaUrl: settings.schemaUrl, definedPrefixed: definedPrefixedMembers(settings.prefix) };
  }

  /** Every issue of one item, uncapped, with paths below `base` (the item's pointer in its document). */
  check(value: unknown, base = ""): Issue[] {
    const issues = this.compiled(value) ? [] : issuesFromSchemaErrors(this.compiled.errors ?? [], value, this.context);
    if (this.settings.stac) issues.push(...this.stac!(value, issues, this.settings));
    if (base !== "") for (const issue of issues) issue.path = base + issue.path;
    return issues;
  }

  /** Applies strict and maxErrors: errors are kept before warnings. */
  finish(issues: Issue[]): ValidationResult {
    if (issues.length === 0) return { valid: true, errors: [], warnings: [], omitted: 0 };
    const errors: Issue[] = [];
    const warnings: Issue[] = [];
    for (const issue of issues) {
      if (this.settings.strict) issue.severity = "error";
      (issue.severity === "error" ? errors : warnings).push(issue);
    }
    const keptErrors = errors.slice(0, this.settings.maxErrors);
    const keptWarnings = warnings.slice(0, this.settings.maxErrors - keptErrors.length);
    const result: ValidationResult = { valid: errors.length === 0, errors: keptErrors, warnings: keptWarnings, omitted: issues.length - keptErrors.length - keptWarnings.length };
    if (result.omitted > 0) {
      result.omittedErrors = errors.length - keptErrors.length;
      result.omittedWarnings = warnings.length - keptWarnings.length;
    }
    return result;
  }
}
