/**
 * The default, human format: per file a header, then per issue `file:line:col  severity  rule
 * message` with a short code frame, and one summary line at the end.
 */
import { Chalk, type ChalkInstance } from "chalk";
import type { Issue, Severity } from "../../diagnostics/issue.js";
import { foundCounts, issuePosition, issuesOf, issueText, itemLabel, moreIssuesText, plural, ruleSetsText, skippedText } from "./labels.js";
import type { FileReport, FormatContext, Formatter, ItemResult, RunSummary } from "./types.js";

/** Widest slice of a source line a code frame shows: a minified one-line file must not flood the terminal. */
const MAX_FRAME_WIDTH = 160;
const ELLIPSIS = "…";

/** Lines of a file's text, indexed once: a huge file is scanned a single time, however many issues it has. */
class SourceLines {
  private readonly text: string;
  private readonly starts: number[] = [0];

  constructor(source: string) {
    // The validator drops a byte-order mark before it counts columns.
    this.text = source.charCodeAt(0) === 0xfeff ? source.slice(1) : source;
    for (let at = this.text.indexOf("\n"); at !== -1; at = this.text.indexOf("\n", at + 1)) this.starts.push(at + 1);
  }

  /** The 1-based line without its line break, or undefined past the end. */
  line(lineNumber: number): string | undefined {
    const start = this.starts[lineNumber - 1];
    if (start === undefined) return undefined;
    const next = this.starts[lineNumber];
    const line = this.text.slice(start, next === undefined ? this.text.length : next - 1);
    return line.endsWith("\r") ? line.slice(0, -1) : line;
  }
}

/**
 * The columns [start, end) a frame shows, chosen to keep the issue's column in view. The context
 * line is cut to the same columns, so that both lines stay aligned.
 */
interface FrameWindow {
  start: number;
  end: number;
}

function windowAround(lineLength: number, columnIndex: number): FrameWindow {
  const start = lineLength <= MAX_FRAME_WIDTH ? 0 : Math.max(0, Math.min(columnIndex - MAX_FRAME_WIDTH / 2, lineLength - MAX_FRAME_WIDTH));
  return { start, end: start + MAX_FRAME_WIDTH };
}

/**
 * Control characters from a file (in its lines, quoted in a message, in its name) would be
 * executed by the terminal as escape sequences, so they are shown as U+FFFD; one character for
 * one keeps the caret under the right column. Tabs stay.
 */
function visible(text: string): string {
  return text.replace(/[\u0000-\u0008\u000a-\u001f\u007f-\u009f]/g, "\ufffd");
}

function cut(line: string, window: FrameWindow): string {
  const before = window.start > 0 && line.length > 0 ? ELLIPSIS : "";
  const after = window.end < line.length ? ELLIPSIS : "";
  return before + visible(line.slice(window.start, window.end)) + after;
}

/** Spaces up to the column, keeping the line's tabs so that the caret lines up under them. */
function caretIndent(line: string, window: FrameWindow, columnIndex: number): string {
  const before = window.start > 0 ? " " : ""; // under the ellipsis
  return before + line.slice(window.start, columnIndex).replace(/[^\t]/g, " ");
}

function caretLength(issue: Issue, line: string, window: FrameWindow, columnIndex: number): number {
  const endIndex = issue.endLine === issue.line && issue.endColumn !== undefined ? issue.endColumn - 1 : line.length;
  return Math.max(1, Math.min(endIndex, window.end) - columnIndex);
}

function severityColor(paint: ChalkInstance, severity: Severity): ChalkInstance {
  return severity === "error" ? paint.red : paint.yellow;
}

/** Spaces under the text before the issue, then one caret per offending character. */
function caretLine(issue: Issue, line: string, window: FrameWindow, color: ChalkInstance): string {
  const columnIndex = (issue.column ?? 1) - 1;
  return caretIndent(line, window, columnIndex) + color("^".repeat(caretLength(issue, line, window, columnIndex)));
}

/** The offending line with one line of context before it, and carets under the offending text. */
function codeFrame(source: SourceLines, issue: Issue, paint: ChalkInstance): string[] {
  if (issue.line === undefined) return [];
  const line = source.line(issue.line);
  if (line === undefined) return [];
  const window = windowAround(line.length, (issue.column ?? 1) - 1);
  const gutterWidth = String(issue.line).length;
  const gutter = (marker: string, lineNumber: number | undefined): string =>
    `    ${marker} ${paint.dim(`${lineNumber ?? ""}`.padStart(gutterWidth))} ${paint.dim("|")}`;
  const color = severityColor(paint, issue.severity);
  const previous = issue.line > 1 ? source.line(issue.line - 1) : undefined;
  return [
    ...(previous === undefined ? [] : [`${gutter(" ", issue.line - 1)} ${cut(previous, window)}`]),
    `${gutter(color(">"), issue.line)} ${cut(line, window)}`,
    `${gutter(" ", undefined)} ${caretLine(issue, line, window, color)}`,
  ];
}

function issueLine(name: string, issue: Issue, paint: ChalkInstance): string {
  const position = issuePosition(issue);
  const where = position === undefined ? name : `${name}:${position}`;
  const severity = severityColor(paint, issue.severity)(issue.severity);
  return `  ${where}  ${severity}  ${paint.dim(issue.rule)}  ${visible(issueText(issue))}`;
}

/** Shown above an item's issues when its file holds several items: `features[3] (id "b")`. */
function itemHeader(file: FileReport, item: ItemResult, paint: ChalkInstance): string[] {
  const label = itemLabel(file, item);
  if (label === undefined) return [];
  const id = item.id === undefined ? "" : ` (id ${visible(JSON.stringify(item.id))})`;
  return [`  ${paint.bold(label)}${id}`];
}

/** Quiet mode shows errors only, as ESLint's --quiet does; warnings still count in the summary. */
function shownIssues(item: ItemResult, quiet: boolean): Issue[] {
  return quiet ? item.errors : issuesOf(item);
}

function itemLines(name: string, file: FileReport, item: ItemResult, source: SourceLines | undefined, context: FormatContext, paint: ChalkInstance): string[] {
  const issues = shownIssues(item, context.quiet);
  if (issues.length === 0 && item.omitted === 0) return [];
  return [
    ...itemHeader(file, item, paint),
    ...issues.flatMap((issue) => [issueLine(name, issue, paint), ...(source ? codeFrame(source, issue, paint) : [])]),
    ...(item.omitted > 0 ? [`  ${paint.dim(moreIssuesText(item))}`] : []),
  ];
}

function hasProblems(file: FileReport, quiet: boolean): boolean {
  return file.items.some((item) => shownIssues(item, quiet).length > 0 || item.omitted > 0);
}

/** The lines printed for one file: nothing in quiet mode for a file without errors. */
function fileLines(file: FileReport, context: FormatContext, paint: ChalkInstance): string[] {
  const name = visible(file.file);
  if (file.readError !== undefined) return [`${name}  ${paint.red("error")}  ${visible(file.readError)}`];
  if (!hasProblems(file, context.quiet)) return context.quiet ? [] : [`${name}  ${paint.green("ok")}`];
  const source = file.source === undefined ? undefined : new SourceLines(file.source);
  return [paint.bold.underline(name), ...file.items.flatMap((item) => itemLines(name, file, item, source, context, paint)), ""];
}

function count(value: number, noun: string, color: ChalkInstance): string {
  const text = plural(value, noun);
  return value > 0 ? color(text) : text;
}

/** Every issue found is counted; when --max-errors left some out, how many are shown. */
function issueCounts(summary: RunSummary, paint: ChalkInstance): string {
  const found = foundCounts(summary);
  const errors = count(found.errors, "error", paint.red);
  const warnings = count(found.warnings, "warning", paint.yellow);
  if (summary.omittedErrors + summary.omittedWarnings === 0) return `${errors}, ${warnings}`;
  return `${errors} and ${warnings}, showing ${summary.errors + summary.warnings}`;
}

function summaryLine(summary: RunSummary, paint: ChalkInstance): string {
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
  // A private instance: the output depends on the context alone, never on what the terminal claims.
  const paint = new Chalk({ level: context.color ? 1 : 0 });
  const lines = report.files.flatMap((file) => fileLines(file, context, paint));
  return [...lines, summaryLine(report.summary, paint)].join("\n") + "\n";
};
