/**
 * The default, human format: per file a header, then per issue `file:line:col  severity  rule
 * message` with a short code frame, and one summary line at the end.
 */
import type { Issue, Severity } from "../../diagnostics/issue.js";
import { SourceLines, visible, type FrameLine, type FrameStyle } from "./code-frame.js";
import { foundCounts, issuesOf, issueView, itemLabel, moreIssuesText, plural, ruleSetsText, skippedText } from "./labels.js";
import type { FileReport, FormatContext, Formatter, ItemResult, RunSummary } from "./types.js";
import type { Paint, Style } from "./paint.js";

function severityColor(paint: Paint, severity: Severity): Style {
  return severity === "error" ? paint.red : paint.yellow;
}

/** A frame line painted: the gutter dim, the marker and carets in the severity's colour. */
function paintedLine(line: FrameLine, paint: Paint, color: Style): string {
  const styles: Record<FrameStyle, (text: string) => string> = { plain: (text) => text, dim: paint.dim, marked: color };
  return line.map((segment) => styles[segment.style](segment.text)).join("");
}

/** `file:line:col  severity  rule  message`, then the code frame. */
function issueLines(name: string, issue: Issue, source: SourceLines | undefined, paint: Paint): string[] {
  const { position, text, frame } = issueView(issue, source);
  const where = position === undefined ? name : `${name}:${position}`;
  const color = severityColor(paint, issue.severity);
  return [`  ${where}  ${color(issue.severity)}  ${paint.dim(issue.rule)}  ${text}`, ...frame.map((line) => paintedLine(line, paint, color))];
}

/** Shown above an item's issues when its file holds several items: `features[3] (id "b")`. */
function itemHeader(file: FileReport, item: ItemResult, paint: Paint): string[] {
  const label = itemLabel(file, item);
  if (label === undefined) return [];
  const id = item.id === undefined ? "" : ` (id ${visible(JSON.stringify(item.id))})`;
  return [`  ${paint.bold(label)}${id}`];
}

/** Quiet mode shows errors only, as ESLint's --quiet does; warnings still count in the summary. */
function shownIssues(item: ItemResult, quiet: boolean): Issue[] {
  return quiet ? item.errors : issuesOf(item);
}

function itemLines(name: string, file: FileReport, item: ItemResult, source: SourceLines | undefined, context: FormatContext): string[] {
  const { paint } = context;
  const issues = shownIssues(item, context.quiet);
  if (issues.length === 0 && item.omitted === 0) return [];
  return [
    ...itemHeader(file, item, paint),
    ...issues.flatMap((issue) => issueLines(name, issue, source, paint)),
    ...(item.omitted > 0 ? [`  ${paint.dim(moreIssuesText(item))}`] : []),
  ];
}

function hasProblems(file: FileReport, quiet: boolean): boolean {
  return file.items.some((item) => shownIssues(item, quiet).length > 0 || item.omitted > 0);
}

/** The lines printed for one file: nothing in quiet mode for a file without errors. */
function fileLines(file: FileReport, context: FormatContext): string[] {
  const { paint } = context;
  const name = visible(file.file);
  if (file.readError !== undefined) return [`${name}  ${paint.red("error")}  ${visible(file.readError)}`];
  if (!hasProblems(file, context.quiet)) return context.quiet ? [] : [`${name}  ${paint.green("ok")}`];
  const source = file.source === undefined ? undefined : new SourceLines(file.source);
  return [paint.heading(name), ...file.items.flatMap((item) => itemLines(name, file, item, source, context)), ""];
}

function count(value: number, noun: string, color: Style): string {
  const text = plural(value, noun);
  return value > 0 ? color(text) : text;
}

/** Every issue found is counted; when --max-errors left some out, how many are shown. */
function issueCounts(summary: RunSummary, paint: Paint): string {
  const found = foundCounts(summary);
  const errors = count(found.errors, "error", paint.red);
  const warnings = count(found.warnings, "warning", paint.yellow);
  if (summary.omittedErrors + summary.omittedWarnings === 0) return `${errors}, ${warnings}`;
  return `${errors} and ${warnings}, showing ${summary.errors + summary.warnings}`;
}

function summaryLine(summary: RunSummary, paint: Paint): string {
  const unreadable = summary.unreadable > 0 ? `, ${paint.red(`${summary.unreadable} unreadable`)}` : "";
  const ruleSets = ruleSetsText(summary);
  const skipped = summary.skipped === undefined ? "" : `; ${skippedText(summary.skipped)}`;
  return (
    `${plural(summary.files, "file")}${unreadable}, ${plural(summary.items, "item")}: ` +
    `${summary.valid} valid, ${summary.invalid} invalid; ${issueCounts(summary, paint)}${ruleSets === undefined ? "" : `; ${ruleSets}`}${skipped} ` +
    `(${Math.round(summary.durationMs)} ms)`
  );
}

export const formatText: Formatter = (report, context) => {
  const lines = report.files.flatMap((file) => fileLines(file, context));
  return [...lines, summaryLine(report.summary, context.paint)].join("\n") + "\n";
};
