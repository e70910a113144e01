import { existsSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { problemText, schemaProblems, type SchemaCheck } from "../diagnostics/schema-problems.js";
import validateConfig from "../generated/inputs/config.js";
import type { ProfileName, RulesOption } from "../validator/item/rule-sets.js";
import { UsageError } from "./usage-error.js";
import { isYamlFile } from "./yaml-files.js";

/** Settings a config file may hold (schema/inputs/config.schema.json); command-line flags win over them. */
export interface FileConfig {
  prefix?: string;
  schemaUrl?: string;
  strict?: boolean;
  stac?: boolean;
  rules?: RulesOption;
  fairChecks?: boolean;
  profile?: ProfileName;
  /** Extension schema URL (or URL prefix ending in "/") -> file (or folder), relative to the configuration file. */
  schemaMap?: Record<string, string>;
  maxErrors?: number;
  format?: string;
  quiet?: boolean;
  ignore?: string[];
}

export const CONFIG_FILE = "basemodel.config.json";

/**
 * The settings, checked by schema/inputs/config.schema.json, or a UsageError listing every
 * problem, one line each: fixing them one run at a time is tedious.
 */
function checked(raw: unknown, source: string): FileConfig {
  const problems = schemaProblems(validateConfig as SchemaCheck, raw, { root: "the configuration" });
  if (problems.length > 0) throw new UsageError(problems.map((problem) => `${source}: ${problemText(problem)}`).join("\n"));
  return raw as FileConfig;
}

function readJson(file: string): unknown {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    throw new UsageError(`cannot read the configuration file ${file}: ${(error as Error).message}`);
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    if (isYamlFile(file)) throw new UsageError(`${file} is YAML; basemodel reads its configuration as JSON: write it as ${CONFIG_FILE}, or as "basemodel" in package.json`);
    throw new UsageError(`${file} is not valid JSON: ${(error as Error).message}`);
  }
}

export interface LoadedConfig {
  config: FileConfig;
  /** Where it came from, or undefined when no file was found. */
  source?: string;
}

/**
 * The configuration: the given file, else the nearest basemodel.config.json or package.json with
 * a "basemodel" key, from the working directory upward. The nearest directory that has either wins.
 */
export function loadConfig(cwd: string, explicit?: string): LoadedConfig {
  if (explicit !== undefined) {
    const file = resolve(cwd, explicit);
    return { config: checked(readJson(file), file), source: file };
  }
  for (let dir = resolve(cwd); ; dir = dirname(dir)) {
    const own = join(dir, CONFIG_FILE);
    if (existsSync(own)) return { config: checked(readJson(own), own), source: own };
    const pkg = join(dir, "package.json");
    if (existsSync(pkg)) {
      const manifest = readJson(pkg) as { basemodel?: unknown } | null;
      if (manifest && typeof manifest === "object" && "basemodel" in manifest) {
        return { config: checked(manifest.basemodel, `${pkg} ("basemodel")`), source: pkg };
      }
    }
    if (dirname(dir) === dir) return { config: {} };
  }
}
