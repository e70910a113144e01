import { appendFileSync } from "node:fs";
import type { ProfileName, RulesOption } from "../validator/item/rule-sets.js";
import { validatorOf, type DocumentValidator, type Validator, type ValidatorOptions } from "../validator/engine/validator.js";
import { formatNames, loadFormatter, paintFor, showsSource } from "../validator/report/index.js";
import type { FileReport, RuleSetCounts, RunReport, RunSummary } from "../validator/report/types.js";
import { defaultSchemaCache } from "../validator/stac/cache.js";
import { loadConfig } from "./config.js";
import { chooseRules } from "./rule-choices.js";
import { findFiles } from "./files.js";
import { ignoreHint } from "./found-files.js";
import { formatOf, inputReport } from "./file-report.js";
import { readStandardInput } from "./read.js";
import { runSchemaMap } from "./schema-map.js";
import { validateFiles } from "./validate-files.js";
import { UsageError } from "./usage-error.js";
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
  /** Threads that validate: 1 keeps the run in this thread; by default one per core but one once the files are many. */
  jobs?: number;
}

/** Colour only on a terminal; FORCE_COLOR and NO_COLOR (https://no-color.org) decide before that, a flag before both. */
export function useColor(flag: boolean | undefined, env: NodeJS.ProcessEnv, isTTY: boolean | undefined): boolean {
  if (flag !== undefined) return flag;
  if (env.FORCE_COLOR !== undefined) return env.FORCE_COLOR !== "0" && env.FORCE_COLOR !== "false";
  if (env.NO_COLOR) return false;
  return isTTY === true;
}

/** `basemodel validate`: finds the files, validates every item, prints the report; returns the exit code. */
export async function runValidate(paths: readonly string[], flags: ValidateFlags, io: Io): Promise<number> {
  // process.hrtime, not performance.now(): the global `performance` loads perf_hooks, about half a millisecond of every run's start.
  const started = process.hrtime.bigint();
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
  let validator: DocumentValidator;
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
  const keep = (report: FileReport, bytes: Buffer | undefined, file: string) => {
    if (links !== undefined && bytes !== undefined) links.add(report, bytes, formatOf(file));
    reports.push(report);
  };
  if (paths.includes("-")) {
    const file = flags.stdinFilename ?? "<stdin>";
    const read = await readStandardInput(io.stdin);
    const bytes = "bytes" in read ? read.bytes : undefined;
    if (fetchSchemas !== undefined && bytes !== undefined) await fetchSchemas(bytes, formatOf(file));
    keep(inputReport(file, read, validator, showsSource(formatName), { fromStdin: true }), bytes, file);
  }
  const validated = await validateFiles(found.files, { validator, jobs: flags.jobs, keep: { bytes: links !== undefined, source: showsSource(formatName) }, beforeFile: fetchSchemas, tick: progress(io, found.files.length) });
  for (const [index, { report, bytes, skipped: other }] of validated.entries()) {
    if (other) skipped.push(found.files[index]!.shown);
    else keep(report, bytes, found.files[index]!.shown);
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
  const report = summarise(reports, skipped, validator, Number(process.hrtime.bigint() - started) / 1e6);
  const paint = await paintFor(formatName, useColor(flags.color, io.env, io.stdout.isTTY));
  io.stdout.write(formatter(report, { paint, quiet: flags.quiet ?? config.quiet ?? false }));
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
