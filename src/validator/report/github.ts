/**
 * GitHub Actions: one workflow command per issue, which the runner turns into an annotation on
 * the file, and a Markdown step summary listing every issue (GitHub shows only the first
 * annotations of a step).
 */
import type { Issue, Severity } from "../../diagnostics/issue.js";
import { foundCounts, issuePosition, issuesOf, issueText, moreIssuesText, ruleSetsText, skippedText } from "./labels.js";
import { portablePath } from "./portable-path.js";
import type { FileReport, Formatter, ItemResult, RunReport, RunSummary } from "./types.js";

interface Annotation {
  severity: Severity;
  file: string;
  line: number;
  col?: number;
  endLine?: number;
  endColumn?: number;
  title: string;
  message: string;
}

/** The escaping of @actions/core for a command's message. */
function escapeData(text: string): string {
  return text.replace(/%/g, "%25").replace(/\r/g, "%0D").replace(/\n/g, "%0A");
}

/** Property values also lose the characters that separate properties. */
function escapeProperty(text: string): string {
  return escapeData(text).replace(/:/g, "%3A").replace(/,/g, "%2C");
}

function workflowCommand({ severity, message, ...properties }: Annotation): string {
  const list = Object.entries(properties)
    .filter(([, value]) => value !== undefined)
    .map(([name, value]) => `${name}=${escapeProperty(String(value))}`);
  return `::${severity} ${list.join(",")}::${escapeData(message)}`;
}

/**
 * GitHub accepts columns only on one-line ranges, and its endColumn is the last column of the
 * range (ours is the one after it).
 */
function columns(issue: Issue): { col?: number; endColumn?: number } {
  if (issue.column === undefined || (issue.endLine !== undefined && issue.endLine !== issue.line)) return {};
  if (issue.endColumn === undefined) return { col: issue.column };
  return { col: issue.column, endColumn: Math.max(issue.column, issue.endColumn - 1) };
}

/** The line is always given: an annotation without one is not shown next to the file's diff. */
function issueAnnotation(file: string, issue: Issue): Annotation {
  const { col, endColumn } = columns(issue);
  return {
    severity: issue.severity,
    file: portablePath(file),
    line: issue.line ?? 1,
    col,
    endLine: issue.endLine,
    endColumn,
    title: `basemodel ${issue.rule}`,
    message: issueText(issue),
  };
}

function readErrorAnnotation(file: string, readError: string): Annotation {
  return { severity: "error", file: portablePath(file), line: 1, title: "basemodel read-error", message: readError };
}

/** Says that maxErrors hid some of the item's issues, which would otherwise go unnoticed. */
function omittedAnnotation(file: string, item: ItemResult): Annotation {
  return { severity: "warning", file: portablePath(file), line: item.line ?? 1, title: "basemodel max-errors", message: moreIssuesText(item) };
}

function itemAnnotations(file: FileReport, item: ItemResult): Annotation[] {
  const annotations = issuesOf(item).map((issue) => issueAnnotation(file.file, issue));
  return item.omitted > 0 ? [...annotations, omittedAnnotation(file.file, item)] : annotations;
}

function fileAnnotations(file: FileReport): Annotation[] {
  if (file.readError !== undefined) return [readErrorAnnotation(file.file, file.readError)];
  return file.items.flatMap((item) => itemAnnotations(file, item));
}

export const formatGithub: Formatter = (report) =>
  report.files
    .flatMap(fileAnnotations)
    .map((annotation) => `${workflowCommand(annotation)}\n`)
    .join("");

/** GitHub refuses a step summary above 1 MiB. */
const STEP_SUMMARY_LIMIT = 1024 * 1024;
/** Room kept for the row that says how many rows were left out. */
const TRUNCATION_ROW_ROOM = 200;

type Row = [file: string, line: string, severity: string, rule: string, message: string];

/** Text shown literally in a table cell: Markdown punctuation and HTML are escaped, line breaks kept. */
function cell(text: string): string {
  return text.replace(/[\\`*_[\]<>&|~]/g, "\\$&").replace(/\r\n|\r|\n/g, "<br>");
}

function tableRow(cells: readonly string[]): string {
  return `| ${cells.join(" | ")} |\n`;
}

/** Every problem of the run as a table row: unreadable files, issues, and issues left out by maxErrors. */
function* problemRows(report: RunReport): Generator<Row> {
  for (const file of report.files) {
    if (file.readError !== undefined) yield [file.file, "", "error", "read-error", file.readError];
    for (const item of file.items) {
      for (const issue of issuesOf(item)) yield [file.file, issuePosition(issue) ?? "", issue.severity, issue.rule, issueText(issue)];
      if (item.omitted > 0) yield [file.file, item.line === undefined ? "" : `${item.line}`, "", "", moreIssuesText(item)];
    }
  }
}

/** Errors and warnings count every issue found, also those --max-errors left out of the table. */
function countsTable(summary: RunSummary): string {
  const found = foundCounts(summary);
  const columns: Array<[string, number]> = [
    ["Files", summary.files],
    ["Unreadable", summary.unreadable],
    ["Items", summary.items],
    ["Valid", summary.valid],
    ["Invalid", summary.invalid],
    ["Errors", found.errors],
    ["Warnings", found.warnings],
  ];
  return (
    tableRow(columns.map(([name]) => name)) +
    tableRow(columns.map(() => "---:")) +
    tableRow(columns.map(([, value]) => String(value)))
  );
}

/** Markdown for $GITHUB_STEP_SUMMARY: the counts, then a table of every problem, cut to fit GitHub's limit. */
export function formatStepSummary(report: RunReport): string {
  const { summary } = report;
  const ruleSets = ruleSetsText(summary);
  let markdown = `## basemodel validate\n\n${countsTable(summary)}\n${ruleSets === undefined ? "" : `Judged by ${cell(ruleSets)}.\n\n`}`;
  if (summary.skipped !== undefined) markdown += `${cell(skippedText(summary.skipped))}: JSON, but not STAC.\n\n`;
  const rows = Array.from(problemRows(report));
  if (rows.length === 0) return `${markdown}No problems found.\n`;
  markdown += tableRow(["File", "Line", "Severity", "Rule", "Message"]) + tableRow(["---", "---:", "---", "---", "---"]);
  let size = Buffer.byteLength(markdown);
  let shown = 0;
  for (const row of rows) {
    const line = tableRow(row.map(cell));
    const lineSize = Buffer.byteLength(line);
    if (size + lineSize > STEP_SUMMARY_LIMIT - TRUNCATION_ROW_ROOM) break;
    markdown += line;
    size += lineSize;
    shown++;
  }
  const left = rows.length - shown;
  return left === 0 ? markdown : markdown + tableRow([`… ${left} more issues`, "", "", "", ""]);
}
