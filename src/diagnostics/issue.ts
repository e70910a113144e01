/** Stable identifiers of every rule the validator reports. See docs/rules.md. */
export type RuleId =
  | "json-syntax"
  | "encoding"
  | "duplicate-key"
  | "required"
  | "type"
  | "const"
  | "enum"
  | "min-length"
  | "min-items"
  | "exclusive-range"
  | "schema-url"
  | "unknown-prefixed-property"
  | "not-a-base-model-item"
  // rule sets v1.0.0-current and v1.1.0
  | "range"
  | "max-items"
  | "pattern"
  | "format"
  // --fair-checks: the checks of fAIr's catalogue CI beyond its schema
  | "fair-keyword"
  | "fair-hyperparameter-spec"
  | "fair-hyperparameter-spec-entry"
  | "fair-model-asset"
  // --stac: the official STAC schemas, and our own messages for what they say badly
  | "stac-core"
  | "stac-extension"
  | "stac-version"
  | "stac-extension-url"
  | "stac-extension-unknown"
  | "stac-extension-missing"
  | "stac-links"
  | "stac-geometry-bbox"
  | "stac-datetime"
  | "mlm-model-asset"
  | "mlm-artifact-type"
  | "mlm-entrypoint-role"
  | "mlm-bands"
  // --schema-map, --fetch: extension schemas that are not bundled
  | "stac-extension-schema"
  // --check-links (library: checkLinks)
  | "link-unreachable";

export type Severity = "error" | "warning";

/** One broken rule, found at one place in one item. */
export interface Issue {
  rule: RuleId;
  severity: Severity;
  /** JSON Pointer (RFC 6901) to the offending value, or to the missing member. */
  path: string;
  /** Plain-English sentence naming the member, the rule and the value found. */
  message: string;
  /** What the rule allows (allowed values, a type name, a bound), when there is something to show. */
  expected?: unknown;
  /**
   * The value found (long values are shortened). For a missing member written under a near miss
   * of its name, the name written; the issue's position is then that member's.
   */
  actual?: unknown;
  /** A likely fix, e.g. the closest allowed value. */
  suggestion?: string;
  /** With --stac: the URL of the official schema whose rule this is (core STAC or an extension). */
  schema?: string;
  /** 1-based position of the offending text; present when the item was validated from text. */
  line?: number;
  column?: number;
  /** End of the offending text (exclusive), 1-based. */
  endLine?: number;
  endColumn?: number;
}

export const byPosition = (a: Issue, b: Issue) => (a.line ?? 0) - (b.line ?? 0) || (a.column ?? 0) - (b.column ?? 0);
