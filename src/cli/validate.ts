import { appendFileSync } from "node:fs";
import { extname } from "node:path";
import type { ItemResult } from "../validator/item/result.js";
import { NDJSON_HINT } from "../validator/item/syntax.js";
import type { ProfileName, RulesOption } from "../validator/item/rule-sets.js";
import type { DocumentFormat } from "../validator/engine/text.js";
import { validatorOf, type Validator, type ValidatorOptions } from "../validator/engine/validator.js";
import { formatNames, loadFormatter } from "../validator/report/index.js";
import type { FileReport, RuleSetCounts, RunReport, RunSummary } from "../validator/report/types.js";
import { defaultSchemaCache } from "../validator/stac/cache.js";
import { loadConfig } from "./config.js";
import { chooseRules } from "./rule-choices.js";
import { findFiles } from "./files.js";
import { ignoreHint, isOtherJson, withIgnoreHint } from "./found-files.js";
import { readItemFile, readStandardInput, type ReadResult } from "./read.js";
import { runSchemaMap } from "./schema-map.js";
import { UsageError } from "./usage-error.js";
import { isYamlFile } from "./yaml-files.js";
import { byPosition } from "../diagnostics/issue.js";
import { EXIT_INVALID, EXIT_USAGE, EXIT_VALID, progress, type Io } from "./io.js";

export interface ValidateFlags {
  prefix?: string;
  schemaUrl?: string;
  strict?: boolean;
  stac?: boolean;
  rules?: RulesOption;
  fairChecks?: boolean;
  profile?: ProfileName;
  /** --schema-map <url>=<file>, repeatable. */
  schemaMap?: string[];
  fetch?: boolean;
  offline?: boolean;
  checkLinks?: boolean;
  /** Seconds. */
  linkTimeout?: number;
  maxErrors?: number;
  quiet?: boolean;
  format?: string;
  config?: string;
  ignore?: string[];
  color?: boolean;
  stdinFilename?: string;
}

const NDJSON_EXTENSIONS = new Set([".ndjson", ".jsonl"]);

/** Colour only on a terminal; FORCE_COLOR and NO_COLOR (https://no-color.org) decide before that, a flag before both. */
export function useColor(flag: boolean | undefined, env: NodeJS.ProcessEnv, isTTY: boolean | undefined): boolean {
  if (flag !== undefined) return flag;
  if (env.FORCE_COLOR !== undefined) return env.FORCE_COLOR !== "0" && env.FORCE_COLOR !== "false";
  if (env.NO_COLOR) return false;
  return isTTY === true;
}

const formatOf = (file: string): DocumentFormat => (NDJSON_EXTENSIONS.has(extname(file).toLowerCase()) ? "ndjson" : "json");

function fileReport(file: string, bytes: Buffer, validator: Validator): FileReport {
  const items: ItemResult[] = validator.validateDocumentText(bytes, { format: formatOf(file) });
  let hasIssues = false;
  for (const item of items) {
    item.errors.sort(byPosition);
    item.warnings.sort(byPosition);
    hasIssues ||= item.errors.length > 0 || item.warnings.length > 0;
  }
  return hasIssues ? { file, items, source: bytes.toString("utf8") } : { file, items };
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

/** The report of one input: its items, or why it could not be read. */
function inputReport(file: string, read: ReadResult, validator: Validator): FileReport {
  return "error" in read ? { file, items: [], readError: read.error } : fileReport(file, read.bytes, validator);
}

/** The library's hint for JSON text that holds one document per line, said in the command line's terms. */
function withNdjsonHint(report: FileReport, fromStdin: boolean): FileReport {
  const hint = fromStdin ? "pass --stdin-filename items.ndjson to read it as NDJSON" : "name the file .ndjson or .jsonl to read it as NDJSON";
  for (const issue of report.items[0]?.errors ?? []) if (issue.suggestion === NDJSON_HINT) issue.suggestion = hint;
  return report;
}

/** `basemodel validate`: finds the files, validates every item, prints the report; returns the exit code. */
export async function runValidate(paths: readonly string[], flags: ValidateFlags, io: Io): Promise<number> {
  const started = performance.now();
  const { config, source: configFile } = loadConfig(io.cwd, flags.config);
  const formatName = flags.format ?? config.format ?? "text";
  const formatter = await loadFormatter(formatName);
  if (!formatter) throw new UsageError(`unknown format "${formatName}"; the formats are ${formatNames.join(", ")}`);
  const { stac, rules, fairChecks } = chooseRules(flags, config);
  // The STAC layer is loaded only for --stac: without it, validate starts as it did before.
  const stacLayer = stac ? (await import("../validator/stac/index.js")).stacIssues : undefined;
  checkNetworkFlags(flags, stac);
  const schemaMap = stac ? runSchemaMap(flags.schemaMap ?? [], config.schemaMap, configFile, io.cwd) : undefined;
  const schemaCache = flags.fetch || flags.offline ? defaultSchemaCache(io.env) : undefined;
  let validator: Validator;
  try {
    validator = validatorOf(
      {
        prefix: flags.prefix ?? config.prefix,
        schemaUrl: flags.schemaUrl ?? config.schemaUrl,
        strict: flags.strict ?? config.strict ?? false,
        stac,
        rules,
        fairChecks,
        schemaMap,
        schemaCache,
        maxErrors: flags.maxErrors ?? config.maxErrors,
      } as ValidatorOptions,
      stacLayer,
    );
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  if (paths.length === 0) throw new UsageError("give at least one file, folder or glob to validate, or - for standard input");

  const reports: FileReport[] = [];
  const ignore = [...(config.ignore ?? []), ...(flags.ignore ?? [])];
  const found = await findFiles(
    paths.filter((path) => path !== "-"),
    io.cwd,
    ignore,
  );
  for (const glob of found.emptyGlobs) io.stderr.write(`basemodel: no file matches ${glob}\n`);
  for (const { path, reason, ignorePath } of found.problems) {
    reports.push({ file: path, items: [], readError: ignorePath === undefined ? reason : `${reason} (${ignoreHint(ignorePath)})` });
  }
  /** Found files that are JSON but not STAC at all, as shown. */
  const skipped: string[] = [];
  // Loaded only when asked: a plain run sends no request and loads nothing that does.
  const fetchSchemas = flags.fetch && !flags.offline ? (await import("./schema-fetch.js")).schemaFetchStep(validator.settings, io) : undefined;
  const links = flags.checkLinks ? new (await import("./links.js")).LinkStep(flags.linkTimeout === undefined ? {} : { timeoutMs: flags.linkTimeout * 1000 }, io) : undefined;
  /** `ignorePath`: the input is a file a walk or a glob found (see found-files.ts). */
  const validateInput = async (file: string, read: ReadResult, { fromStdin = false, ignorePath }: { fromStdin?: boolean; ignorePath?: string } = {}) => {
    if (fetchSchemas !== undefined && "bytes" in read) await fetchSchemas(read.bytes, formatOf(file));
    let report = withYamlNote(withNdjsonHint(inputReport(file, read, validator), fromStdin));
    if (ignorePath !== undefined && "bytes" in read) {
      if (isOtherJson(report, read.bytes)) {
        skipped.push(file);
        return;
      }
      report = withIgnoreHint(report, ignorePath);
    }
    if (links !== undefined && "bytes" in read) links.add(report, read.bytes, formatOf(file));
    reports.push(report);
  };
  if (paths.includes("-")) await validateInput(flags.stdinFilename ?? "<stdin>", await readStandardInput(io.stdin), { fromStdin: true });

  const tick = progress(io, found.files.length);
  for (const [index, { path, shown, ignorePath }] of found.files.entries()) {
    await validateInput(shown, readItemFile(path), { ignorePath });
    tick(index + 1);
  }
  await links?.run();

  if (reports.length === 0) {
    // A glob that matched nothing said so already.
    if (skipped.length > 0) {
      const { skippedText } = await import("../validator/report/labels.js");
      io.stderr.write(`basemodel: nothing was validated: ${skippedText(skipped.length)}, none of them STAC\n`);
    }
    else if (found.emptyGlobs.length === 0) io.stderr.write("basemodel: no file matched; nothing was validated\n");
    return EXIT_USAGE;
  }
  const report = summarise(reports, skipped, validator, performance.now() - started);
  io.stdout.write(formatter(report, { color: useColor(flags.color, io.env, io.stdout.isTTY), quiet: flags.quiet ?? config.quiet ?? false }));
  if (formatName === "github" && io.env.GITHUB_STEP_SUMMARY) {
    const { formatStepSummary } = await import("../validator/report/github.js");
    appendFileSync(io.env.GITHUB_STEP_SUMMARY, formatStepSummary(report));
  }

  if (report.summary.unreadable > 0) return EXIT_USAGE;
  return report.summary.invalid > 0 ? EXIT_INVALID : EXIT_VALID;
}

/** The flags that reach the network, or forbid it, used together as they can be. */
function checkNetworkFlags(flags: ValidateFlags, stac: boolean): void {
  if (!stac && ((flags.schemaMap?.length ?? 0) > 0 || flags.fetch || flags.offline)) {
    throw new UsageError("--schema-map, --fetch and --offline choose the extension schemas that --stac checks: add --stac");
  }
  if (flags.offline && flags.checkLinks) throw new UsageError("--check-links sends requests, which --offline forbids");
  if (flags.linkTimeout !== undefined && !flags.checkLinks) throw new UsageError("--link-timeout is the timeout of --check-links: add --check-links");
}

function summarise(files: FileReport[], skipped: string[], validator: Validator, durationMs: number): RunReport {
  const summary: RunSummary = { files: files.length, unreadable: 0, items: 0, valid: 0, invalid: 0, errors: 0, warnings: 0, omittedErrors: 0, omittedWarnings: 0, durationMs: Math.round(durationMs) };
  for (const file of files) {
    if (file.readError !== undefined) summary.unreadable++;
    for (const item of file.items) {
      summary.items++;
      if (item.valid) summary.valid++;
      else summary.invalid++;
      summary.errors += item.errors.length;
      summary.warnings += item.warnings.length;
      summary.omittedErrors += item.omittedErrors ?? 0;
      summary.omittedWarnings += item.omittedWarnings ?? 0;
    }
  }
  const ruleSets = judgedBy(files);
  if (ruleSets !== undefined) summary.ruleSets = ruleSets;
  const { prefix, schemaUrl, strict, stac, rules, fairChecks } = validator.settings;
  const report: RunReport = { files, summary, settings: { prefix, schemaUrl, strict, stac, rules, fairChecks } };
  if (skipped.length > 0) {
    summary.skipped = skipped.length;
    report.skipped = skipped;
  }
  return report;
}

/** How many items each rule set judged (items that are not JSON were judged by none). */
function judgedBy(files: readonly FileReport[]): RuleSetCounts | undefined {
  const counts: RuleSetCounts = {};
  for (const file of files) for (const { ruleSet } of file.items) if (ruleSet !== undefined) counts[ruleSet] = (counts[ruleSet] ?? 0) + 1;
  return Object.keys(counts).length === 0 ? undefined : counts;
}
