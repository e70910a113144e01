/** Run reports built from real validator output on the project's item with a warning, for the formatter tests. */
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { DEFAULT_PREFIX, DEFAULT_SCHEMA_URL, validateDocumentText, type DocumentOptions, type ValidatorOptions } from "../../../src/index.js";
import type { FileReport, RunReport } from "../../../src/validator/report/types.js";

/**
 * A valid item with one warning (an undefined fair:hyperparameters_spec), pretty-printed with 4
 * spaces as fAIr publishes its items.
 */
export const itemText = readFileSync(resolve(__dirname, "../../../fixtures/warning/hyperparameters-spec.json"), "utf8");
const item = JSON.parse(itemText) as Record<string, unknown>;

/** The item without its one warning. */
export const cleanText = itemText.replace('"fair:hyperparameters_spec"', '"hyperparameters_spec"');

/**
 * The item with four members broken: type "feature" (line 2), mlm:name removed (reported at
 * "properties", line 9), mlm:framework "pytorch" (line 18), and an unknown fair:metric_spec (line 60).
 */
export const brokenText = itemText
  .replace('"type": "Feature"', '"type": "feature"')
  .replace('"mlm:name": "deeplabv3-buildings",', "")
  .replace('"mlm:framework": "PyTorch"', '"mlm:framework": "pytorch"')
  .replace('"version": "1.0.0",', '"version": "1.0.0",\n        "fair:metric_spec": [],');

export const syntaxErrorText = '{"type": "Feature",}';

/** Two features: the item, and a copy with id "b" and type "x". */
export const collectionText = JSON.stringify({ type: "FeatureCollection", features: [item, { ...item, id: "b", type: "x" }] }, null, 2);

/** Line 1 the item, line 2 blank, line 3 with type "Feat", line 4 not JSON; every line is ~3,500 characters or less. */
export const ndjsonText = `${JSON.stringify(item)}\n\n${JSON.stringify({ ...item, type: "Feat" })}\n{oops\n`;

/** What the CLI builds for one file: the items, and the text when something must be shown in it. */
export function fileReport(file: string, text: string, options: DocumentOptions & ValidatorOptions = {}): FileReport {
  const items = validateDocumentText(text, options);
  const hasIssues = items.some((item) => item.errors.length + item.warnings.length > 0);
  return hasIssues ? { file, items, source: text } : { file, items };
}

/** The report as a library caller builds it from validate(value): the issues carry no position, since there is no text. */
export function withoutPositions(report: FileReport): FileReport {
  const items = report.items.map((item) => ({
    ...item,
    errors: item.errors.map(({ line, column, endLine, endColumn, ...issue }) => issue),
    warnings: item.warnings.map(({ line, column, endLine, endColumn, ...issue }) => issue),
  }));
  return { ...report, items };
}

export function unreadable(file: string, readError: string): FileReport {
  return { file, items: [], readError };
}

export function runReport(files: FileReport[], durationMs = 12.4): RunReport {
  const items = files.flatMap((file) => file.items);
  const valid = items.filter((item) => item.valid).length;
  return {
    files,
    summary: {
      files: files.length,
      unreadable: files.filter((file) => file.readError !== undefined).length,
      items: items.length,
      valid,
      invalid: items.length - valid,
      errors: items.reduce((sum, item) => sum + item.errors.length, 0),
      warnings: items.reduce((sum, item) => sum + item.warnings.length, 0),
      omittedErrors: items.reduce((sum, item) => sum + (item.omittedErrors ?? 0), 0),
      omittedWarnings: items.reduce((sum, item) => sum + (item.omittedWarnings ?? 0), 0),
      durationMs,
    },
    settings: { prefix: DEFAULT_PREFIX, schemaUrl: DEFAULT_SCHEMA_URL, strict: false, stac: false },
  };
}

/** One file of each kind the CLI meets: broken, valid, not JSON, a collection, NDJSON, unreadable. */
export function mixedReport(): RunReport {
  return runReport([
    fileReport("models/unet/stac-item.json", brokenText),
    fileReport("models/clean/stac-item.json", cleanText),
    fileReport("bad-syntax.json", syntaxErrorText),
    fileReport("catalog/collection.json", collectionText),
    fileReport("items.ndjson", ndjsonText, { format: "ndjson" }),
    unreadable("missing.json", "ENOENT: no such file or directory"),
  ]);
}

/** The total number of issues of a report. */
export function issueCount(report: RunReport): number {
  return report.files.flatMap((file) => file.items).reduce((sum, item) => sum + item.errors.length + item.warnings.length, 0);
}
