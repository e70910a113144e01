import type { Issue } from "../../diagnostics/issue.js";
import type { RuleSetName } from "./rule-sets.js";

export interface ValidationResult {
  /** True when there is no error (warnings allowed). */
  valid: boolean;
  /** The rule set that judged the item (with rules "auto", the one it declares); present when the `rules` option was given. */
  ruleSet?: RuleSetName;
  errors: Issue[];
  warnings: Issue[];
  /** Issues left out because of maxErrors. */
  omitted: number;
  /** Of the issues left out, the errors and the warnings; present only when some were left out. */
  omittedErrors?: number;
  omittedWarnings?: number;
}

/** The result for one item of a document (a single item, a collection member or an NDJSON line). */
export interface ItemResult extends ValidationResult {
  /** 0-based index of the item in its document. */
  index: number;
  /** JSON Pointer of the item inside its document: "" for a lone item, "/features/3" in a collection. */
  pointer: string;
  /** 1-based line where the item starts: always for lone items and NDJSON lines; for collection members when the file had any issue (only then is it mapped). */
  line?: number;
  /** The item's "id" member, when it is a string. */
  id?: string;
}
