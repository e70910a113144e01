/**
 * One input of `basemodel validate` turned into its FileReport: the same function whether the
 * file is validated in this thread or on a worker thread (validate-threads.ts), so that both give
 * the same report.
 */
import { extname } from "node:path";
import type { ItemResult } from "../validator/item/result.js";
import { NDJSON_HINT } from "../validator/item/syntax.js";
import type { DocumentFormat } from "../validator/engine/text.js";
import type { DocumentValidator } from "../validator/engine/validator.js";
import type { FileReport } from "../validator/report/types.js";
import { byPosition } from "../diagnostics/issue.js";
import type { FoundFile } from "./files.js";
import { isOtherJson, withIgnoreHint } from "./found-files.js";
import type { ReadResult } from "./read.js";
import { isYamlFile } from "./yaml-files.js";

export interface ValidatedFile {
  report: FileReport;
  /** A file a walk or a glob found that is JSON but not STAC at all: skipped and counted, not reported (found-files.ts). */
  skipped?: true;
  /** The file's bytes, when they were asked for (--check-links reads the hrefs from them) and it could be read. */
  bytes?: Buffer;
}

const NDJSON_EXTENSIONS = new Set([".ndjson", ".jsonl"]);

export const formatOf = (file: string): DocumentFormat => (NDJSON_EXTENSIONS.has(extname(file).toLowerCase()) ? "ndjson" : "json");

/** What a report keeps beside its items: the file's bytes (--check-links reads the hrefs from them), its text (only the text format's code frames show it). */
export interface Keep {
  bytes: boolean;
  source: boolean;
}

/** How a file's report is made: where it came from, and who is given each JSON value its text holds. */
export interface ReportOptions {
  fromStdin?: boolean;
  seen?: (value: unknown) => void;
}

const dropValue = () => {};

function fileReport(file: string, bytes: Buffer, validator: DocumentValidator, keepSource: boolean, seen: (value: unknown) => void): FileReport {
  const items: ItemResult[] = validator.validateDocumentSeen(bytes, formatOf(file), seen);
  let hasIssues = false;
  for (const item of items) {
    item.errors.sort(byPosition);
    item.warnings.sort(byPosition);
    hasIssues ||= item.errors.length > 0 || item.warnings.length > 0;
  }
  return hasIssues && keepSource ? { file, items, source: bytes.toString("utf8") } : { file, items };
}

/** The library's hint for JSON text that holds one document per line, said in the command line's terms. */
function withNdjsonHint(report: FileReport, fromStdin: boolean): FileReport {
  const hint = fromStdin ? "pass --stdin-filename items.ndjson to read it as NDJSON" : "name the file .ndjson or .jsonl to read it as NDJSON";
  for (const issue of report.items[0]?.errors ?? []) if (issue.suggestion === NDJSON_HINT) issue.suggestion = hint;
  return report;
}

/** A YAML file that is not also JSON is said to be YAML, rather than JSON with a syntax error where YAML begins. */
function withYamlNote(report: FileReport): FileReport {
  const syntax = isYamlFile(report.file) && report.items.length === 1 ? report.items[0]!.errors.find((issue) => issue.rule === "json-syntax") : undefined;
  if (syntax !== undefined) {
    syntax.message = "the file is YAML, and basemodel reads items written in JSON";
    syntax.suggestion = "convert it to JSON first, e.g. with yq -o=json";
  }
  return report;
}

/** The report of one input, shown as `file`: its items, or why it could not be read. */
export function inputReport(file: string, read: ReadResult, validator: DocumentValidator, keepSource: boolean, { fromStdin = false, seen = dropValue }: ReportOptions = {}): FileReport {
  return withYamlNote(withNdjsonHint("error" in read ? { file, items: [], readError: read.error } : fileReport(file, read.bytes, validator, keepSource, seen), fromStdin));
}

/** A found file's report, with what `keep` asks for; skipped when a walk found JSON that is not STAC. */
export function validatedFile({ shown, ignorePath }: FoundFile, read: ReadResult, validator: DocumentValidator, keep: Keep): ValidatedFile {
  // A found file's values tell whether it is STAC at all, without a second parse.
  const values: unknown[] = [];
  let report = inputReport(shown, read, validator, keep.source, ignorePath === undefined ? {} : { seen: (value) => values.push(value) });
  if (ignorePath !== undefined && "bytes" in read) {
    if (isOtherJson(report, values)) return { report, skipped: true };
    report = withIgnoreHint(report, ignorePath);
  }
  return keep.bytes && "bytes" in read ? { report, bytes: read.bytes } : { report };
}
