import type { Issue } from "../../diagnostics/issue.js";
import type { ItemResult } from "../item/result.js";
import type { RuleSetName, RulesOption } from "../item/rule-sets.js";
import type { Paint } from "./paint.js";

/** Everything `basemodel validate` found in one file. */
export interface FileReport {
  /** Path as the user should see it: relative to the working directory, "<stdin>" for standard input. */
  file: string;
  /** One entry per item; a file that is not parseable JSON has one item carrying the json-syntax error. */
  items: ItemResult[];
  /** Set when the file could not be read at all (missing, permission, not a regular file...). */
  readError?: string;
  /** The file's text, kept only when it has issues, for code frames. */
  source?: string;
}

export interface RunSummary {
  files: number;
  /** Files that could not be read. */
  unreadable: number;
  items: number;
  valid: number;
  invalid: number;
  /** Errors and warnings listed in the report. */
  errors: number;
  warnings: number;
  /** Errors and warnings found but left out by maxErrors: with the listed ones, every issue found. */
  omittedErrors: number;
  omittedWarnings: number;
  durationMs: number;
  /** How many items each rule set judged; present when the run named rule sets (the CLI always does). */
  ruleSets?: RuleSetCounts;
  /** Files a folder walk or a glob found that are JSON but not STAC at all, left out of `files`; present when there were some. */
  skipped?: number;
}

export type RuleSetCounts = Partial<Record<RuleSetName, number>>;

export interface RunReport {
  files: FileReport[];
  summary: RunSummary;
  /** The files `summary.skipped` counts, as shown; present when there were some. */
  skipped?: string[];
  /** The validator settings the run used. */
  settings: { prefix: string; schemaUrl: string; strict: boolean; stac: boolean; rules?: RulesOption; fairChecks?: boolean };
}

export interface FormatContext {
  /** The styles the text format paints with: colours (`paintFor`), or NO_COLOURS; the other formats never colour. */
  paint: Paint;
  /** Print only problems: no line per valid file. */
  quiet: boolean;
}

/** Every output format is one module exporting one function of this shape. */
export type Formatter = (report: RunReport, context: FormatContext) => string;

export type { Issue, ItemResult };
