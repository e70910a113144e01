/**
 * The machine-readable report, version 1. Every member is documented in docs/json-format.md;
 * a change that removes or renames a member must raise REPORT_VERSION.
 */
import type { Issue } from "../../diagnostics/issue.js";
import { toolInfo } from "./tool.js";
import type { FileReport, Formatter, ItemResult, RunSummary } from "./types.js";

const REPORT_VERSION = 1;

/** Members are copied one by one so the shape is exactly the documented one, in a fixed order. */
function issueJson(issue: Issue) {
  return {
    rule: issue.rule,
    severity: issue.severity,
    path: issue.path,
    message: issue.message,
    expected: issue.expected,
    actual: issue.actual,
    suggestion: issue.suggestion,
    schema: issue.schema,
    line: issue.line,
    column: issue.column,
    endLine: issue.endLine,
    endColumn: issue.endColumn,
  };
}

function itemJson(item: ItemResult) {
  return {
    index: item.index,
    pointer: item.pointer,
    line: item.line,
    id: item.id,
    ruleSet: item.ruleSet,
    valid: item.valid,
    errors: item.errors.map(issueJson),
    warnings: item.warnings.map(issueJson),
    omitted: item.omitted,
    omittedErrors: item.omittedErrors,
    omittedWarnings: item.omittedWarnings,
  };
}

function summaryJson(summary: RunSummary) {
  const { files, unreadable, items, valid, invalid, errors, warnings, omittedErrors, omittedWarnings, durationMs, ruleSets, skipped } = summary;
  return { files, unreadable, items, valid, invalid, errors, warnings, omittedErrors, omittedWarnings, durationMs, ruleSets, skipped };
}

/** The source text is left out: it is only kept for the text format's code frames. */
function fileJson(file: FileReport) {
  return { file: file.file, readError: file.readError, items: file.items.map(itemJson) };
}

// JSON.stringify leaves out the members whose value is undefined: optional members are absent, never null.
export const formatJson: Formatter = (report) => {
  const { name, version } = toolInfo();
  const document = {
    version: REPORT_VERSION,
    tool: { name, version },
    settings: {
      prefix: report.settings.prefix,
      schemaUrl: report.settings.schemaUrl,
      strict: report.settings.strict,
      stac: report.settings.stac,
      rules: report.settings.rules,
      fairChecks: report.settings.fairChecks,
    },
    summary: summaryJson(report.summary),
    files: report.files.map(fileJson),
    skipped: report.skipped,
  };
  return `${JSON.stringify(document, null, 2)}\n`;
};
