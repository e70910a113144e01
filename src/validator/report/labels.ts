/**
 * How every output format names items and issues, so that all of them say the same thing. It runs
 * anywhere (the validator page shows issues with it): the file paths CI services want are in
 * portable-path.ts.
 */
import type { Issue } from "../../diagnostics/issue.js";
import type { ValidationResult } from "../item/result.js";
import { describePointer } from "../../diagnostics/pointer.js";
import { codeFrame, visible, type FrameLine, type SourceLines } from "./code-frame.js";
import type { FileReport, ItemResult, RunReport, RunSummary } from "./types.js";

/**
 * Where an item sits in its file, when the file holds more than one: `features[3]` for a
 * collection member, `line 12` for an NDJSON line. Undefined for a lone item.
 */
export function itemLabel(file: { readonly items: readonly unknown[] }, item: ItemResult): string | undefined {
  if (item.pointer !== "") return describePointer(item.pointer);
  if (file.items.length > 1 && item.line !== undefined) return `line ${item.line}`;
  return undefined;
}

/** The errors of an item, then its warnings: the order every format reports them in. */
export function issuesOf(item: ItemResult): Issue[] {
  return [...item.errors, ...item.warnings];
}

/** The message followed by the likely fix: `... found "pytorch" (did you mean "PyTorch"?)`. */
export function issueText(issue: Issue): string {
  return issue.suggestion === undefined ? issue.message : `${issue.message} (${issue.suggestion})`;
}

/** `line:column`, or just the line, or undefined when the issue has no position. */
export function issuePosition(issue: Issue): string | undefined {
  if (issue.line === undefined) return undefined;
  return issue.column === undefined ? `${issue.line}` : `${issue.line}:${issue.column}`;
}

/** One issue as a person reads it, in the text format and on the validator page. */
export interface IssueView {
  /** `line:column` (issuePosition), or undefined when the issue has no position. */
  position: string | undefined;
  /** The message and the likely fix (issueText), control characters shown as U+FFFD. */
  text: string;
  /** The code frame (code-frame.ts); none without the source or a position. */
  frame: FrameLine[];
}

export function issueView(issue: Issue, source?: SourceLines): IssueView {
  return { position: issuePosition(issue), text: visible(issueText(issue)), frame: source === undefined ? [] : codeFrame(source, issue) };
}

export function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? "" : "s"}`;
}

/** Said where maxErrors cut an item's issues short: how many, and of which severity. */
export function moreIssuesText(item: ValidationResult): string {
  const split = item.omittedErrors === undefined ? "" : `: ${plural(item.omittedErrors, "error")}, ${plural(item.omittedWarnings ?? 0, "warning")}`;
  return `… and ${plural(item.omitted, "more issue")}${split} (raise --max-errors)`;
}

/** "rules v1.0.0", or with several sets "rules v1.0.0 for 2 items, v1.1.0 for 1 item"; undefined when the run named none. */
export function ruleSetsText(summary: RunSummary): string | undefined {
  const counts = Object.entries(summary.ruleSets ?? {}).sort(([a], [b]) => a.localeCompare(b));
  if (counts.length === 0) return undefined;
  if (counts.length === 1) return `rules ${counts[0]![0]}`;
  return `rules ${counts.map(([name, count]) => `${name} for ${plural(count ?? 0, "item")}`).join(", ")}`;
}

/** "12 other JSON files skipped": found files that are not STAC at all. */
export function skippedText(count: number): string {
  return `${count} other JSON file${count === 1 ? "" : "s"} skipped`;
}

/** Every error and warning found, listed or left out by maxErrors. */
export function foundCounts(summary: RunSummary): { errors: number; warnings: number } {
  return { errors: summary.errors + summary.omittedErrors, warnings: summary.warnings + summary.omittedWarnings };
}

export interface LocatedIssue {
  file: FileReport;
  item: ItemResult;
  issue: Issue;
}

/** Every issue of the run, file by file and item by item. */
export function* allIssues(report: RunReport): Generator<LocatedIssue> {
  for (const file of report.files) {
    for (const item of file.items) {
      for (const issue of issuesOf(item)) yield { file, item, issue };
    }
  }
}
