/**
 * The validator's commands of `basemodel`: validate, schema and rules, each declared on the root
 * command when asked for (main.ts).
 */
import { Command, Option } from "commander";
import { PROFILE_NAMES, RULE_SET_NAMES, RULES_OPTIONS, type RuleSetName } from "../validator/item/rule-sets.js";
import { formatNames } from "../validator/report/index.js";
import { UsageError } from "./usage-error.js";
import { runValidate, type ValidateFlags } from "./validate.js";
import { loadConfig } from "./config.js";
import { chooseRules } from "./rule-choices.js";
import { numberAtLeast } from "./number-option.js";

const EXIT_CODES = `
Exit codes:
  0  every item is valid (warnings allowed, unless --strict)
  1  at least one item is invalid, or a file is not parseable JSON
  2  usage or configuration error, an unreadable path, or no file matched`;

const collect = (value: string, previous: string[] = []) => [...previous, value];

const prefixOption = () => new Option("--prefix <prefix>", 'service prefix of the item\'s own properties (default "fair:")');
const schemaUrlOption = () => new Option("--schema-url <url>", "schema identifier items must list in stac_extensions (default: fAIr's v1.0.0)");
const rulesOption = (choices: readonly string[]) =>
  new Option("--rules <set>", "fAIr's rule set: v1.0.0 (the specification's, the default), v1.0.0-current (what fAIr enforces today under that identifier), v1.1.0" + (choices.includes("auto") ? ", or auto (the set each item's stac_extensions names)" : "")).choices(choices);
const configOption = () => new Option("-c, --config <file>", "configuration file (default: nearest basemodel.config.json or package.json \"basemodel\")");

function declareValidate(cli: Command): void {
  cli
    .command("validate")
    .description("validate base model items in files, folders (*.json, recursively), globs, or - (standard input)")
    .argument(
      "[paths...]",
      "files, folders, globs; - reads standard input. A folder walk (and a glob) skips hidden files and folders (.name), node_modules and .git, and the JSON files it finds that are not STAC at all (counted in the summary); a file named is always checked",
    )
    .addOption(prefixOption())
    .addOption(schemaUrlOption())
    .option("--strict", "count warnings as errors")
    .option("--no-strict", "do not count warnings as errors (overrides the configuration file)")
    .option("--stac", "also check core STAC (by stac_version) and every extension in stac_extensions, offline")
    .option("--no-stac", "do not check core STAC and extensions (overrides the configuration file)")
    .addOption(rulesOption(RULES_OPTIONS))
    .option("--fair-checks", "also check what fAIr's catalogue CI checks beyond its schema: keywords from its vocabulary, fair:hyperparameters_spec covering mlm:hyperparameters, the checkpoint and model assets at http(s) URLs; and fAIr's dataset items, by fAIr's dataset rules")
    .option("--no-fair-checks", "do not run fAIr's CI checks (overrides the configuration file or profile)")
    .addOption(new Option("--profile <name>", "fair-ci: --stac --rules v1.0.0-current --fair-checks, what fAIr's catalogue CI checks today (options given beside it win)").choices(PROFILE_NAMES))
    .option("--schema-map <url=file>", 'with --stac: check the extension whose schema URL is <url> against a local file (repeatable); <url-prefix>/=<folder> maps every URL under the prefix to the same path under the folder', collect)
    .option("--fetch", "with --stac: download the extension schemas that are neither bundled nor mapped, once, into $XDG_CACHE_HOME/basemodel/schemas (default ~/.cache/basemodel/schemas)")
    .option("--offline", "with --stac: use the schemas --fetch downloaded before, and send no request")
    .option("--check-links", "check that every http(s) asset href answers with a status below 400 (HEAD, or a one-byte GET where HEAD is refused); each URL once")
    .option("--link-timeout <seconds>", "with --check-links: how long one request may take (default 10)", numberAtLeast(0.001, false))
    .option("--max-errors <n>", "at most this many issues per item (default 100)", numberAtLeast(1, true))
    .option("-q, --quiet", "print only errors: no valid files, no warnings (text format; the summary still counts them)")
    .addOption(new Option("-f, --format <format>", "output format (default text)").choices(formatNames))
    .addOption(configOption())
    .option("--ignore <glob>", "skip files and folders matching this glob, relative to the folder walked (to the working folder for a glob); repeatable. Hidden ones, node_modules and .git are always skipped", collect, [])
    .option("--color", "colour the text output")
    .option("--no-color", "never colour the text output")
    .option("--stdin-filename <name>", "name shown for standard input; .ndjson/.jsonl reads it as NDJSON")
    .option("-j, --jobs <n>", "threads that validate files: 1 validates in this process alone (default: one per core but one when there are many files)", numberAtLeast(1, true))
    .addHelpText("after", EXIT_CODES)
    .action(async (paths: string[], flags: ValidateFlags) => {
      process.exitCode = await runValidate(paths, flags, {
        cwd: process.cwd(),
        env: process.env,
        stdout: process.stdout,
        stderr: process.stderr,
        // Only a run that reads standard input opens it: making process.stdin costs a run that does not.
        get stdin() {
          return process.stdin;
        },
      });
    });
}

function declareSchema(cli: Command): void {
  cli
    .command("schema")
    .description("print the JSON Schema of a base model item (with --rules, --prefix and --schema-url applied)")
    .addOption(rulesOption(RULE_SET_NAMES))
    .addOption(prefixOption())
    .addOption(schemaUrlOption())
    .addOption(configOption())
    .action(async (flags: { rules?: RuleSetName; prefix?: string; schemaUrl?: string; config?: string }) => {
      // The configuration and rule choices are validate's, loaded already: importing them again
      // would make them chunks of their own, and every run start with more files to read.
      const { createValidator } = await import("../index.js");
      const { config } = loadConfig(process.cwd(), flags.config);
      // "auto" chooses per item: with no item, the default set's schema.
      const { rules } = chooseRules(flags, config);
      let schema;
      try {
        schema = createValidator({ rules: rules === "auto" ? undefined : rules, prefix: flags.prefix ?? config.prefix, schemaUrl: flags.schemaUrl ?? config.schemaUrl } as object).schema();
      } catch (error) {
        throw new UsageError((error as Error).message);
      }
      process.stdout.write(`${JSON.stringify(schema, null, 2)}\n`);
    });
}

function declareRules(cli: Command): void {
  cli
    .command("rules")
    .description("print the rules table (Markdown), or --json for the rule catalogue")
    .option("--json", "print the rules as JSON")
    .action(async (flags: { json?: boolean }) => {
      const [{ rules }, { rulesMarkdown }] = await Promise.all([import("../diagnostics/rules.js"), import("../validator/item/rules-doc.js")]);
      process.stdout.write(flags.json ? `${JSON.stringify(rules, null, 2)}\n` : rulesMarkdown());
    });
}

/** Each command by its name, in the order the root's help lists them. */
export const VALIDATOR_COMMANDS: ReadonlyMap<string, (cli: Command) => void> = new Map([
  ["validate", declareValidate],
  ["schema", declareSchema],
  ["rules", declareRules],
]);
