/**
 * Files a folder walk or a glob found, rather than the command line named. A repository holds
 * JSON files of every kind (package.json, tsconfig.json, the configuration itself): those that are
 * not STAC at all are skipped and counted, never reported. A found file that is STAC but no base
 * model item, one that is not JSON (a JSONC tsconfig.json with its comments), and a folder the
 * walk cannot list are reported with the --ignore that leaves them out. A file named on the
 * command line is always checked.
 */
import type { RuleId } from "../diagnostics/issue.js";
import { isStacDocument } from "../validator/item/not-an-item.js";
import type { FileReport } from "../validator/report/types.js";

/** The --ignore option that leaves out what `ignorePath` names, quoted for a POSIX shell. */
export function ignoreHint(ignorePath: string): string {
  return `--ignore '${ignorePath.replace(/'/g, "'\\''")}' leaves it out`;
}

/**
 * Whether a found file is JSON that is not STAC at all: not an object whose type is "Feature" or
 * "FeatureCollection", nor one with a stac_version. Text that is not JSON (a syntax or encoding
 * error) may be a broken item, and is reported. `values` are the JSON values the validator parsed
 * from the file's text: a file of one invalid item holds one (its document, or its one NDJSON line).
 */
export function isOtherJson(report: FileReport, values: readonly unknown[]): boolean {
  const [item, ...more] = report.items;
  if (item === undefined || more.length > 0 || item.valid) return false;
  if (item.errors.some((issue) => issue.rule === "json-syntax" || issue.rule === "encoding")) return false;
  return values.length === 1 && !isStacDocument(values[0]);
}

/** The issues that say a found file may be no item at all: it is something else, or not JSON. */
const NO_ITEM: Partial<Record<RuleId, string>> = { "not-a-base-model-item": "", "json-syntax": "if it is no item, ", encoding: "if it is no item, " };

/** A found file whose issue says it may be no item at all also learns how to leave it out (not one item of several). */
export function withIgnoreHint(report: FileReport, ignorePath: string): FileReport {
  const [only, ...more] = report.items;
  for (const issue of only === undefined || more.length > 0 ? [] : only.errors) {
    const lead = NO_ITEM[issue.rule];
    if (lead === undefined) continue;
    const hint = lead + ignoreHint(ignorePath);
    issue.suggestion = issue.suggestion === undefined ? hint : `${issue.suggestion}; ${hint}`;
  }
  return report;
}
