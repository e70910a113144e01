import { existsSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { isRulesOption, PROFILE_NAMES, RULES_OPTIONS, type ProfileName, type RulesOption } from "../validator/item/rule-sets.js";
import { UsageError } from "./usage-error.js";

/** Settings a config file may hold; command-line flags win over them. */
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

const CHECKS: Record<keyof FileConfig, (value: unknown) => boolean> = {
  prefix: (value) => typeof value === "string",
  schemaUrl: (value) => typeof value === "string",
  strict: (value) => typeof value === "boolean",
  stac: (value) => typeof value === "boolean",
  rules: isRulesOption,
  fairChecks: (value) => typeof value === "boolean",
  profile: (value) => (PROFILE_NAMES as readonly unknown[]).includes(value),
  schemaMap: (value) => value !== null && typeof value === "object" && !Array.isArray(value) && Object.values(value).every((path) => typeof path === "string"),
  maxErrors: (value) => Number.isInteger(value) && (value as number) >= 1,
  format: (value) => typeof value === "string",
  quiet: (value) => typeof value === "boolean",
  ignore: (value) => Array.isArray(value) && value.every((entry) => typeof entry === "string"),
};

const EXPECTED: Record<keyof FileConfig, string> = {
  prefix: "a string",
  schemaUrl: "a string",
  strict: "a boolean",
  stac: "a boolean",
  rules: `one of ${RULES_OPTIONS.map((name) => JSON.stringify(name)).join(", ")}`,
  fairChecks: "a boolean",
  profile: PROFILE_NAMES.map((name) => JSON.stringify(name)).join(" or "),
  schemaMap: 'an object of schema URL -> file path (URL prefix ending in "/" -> folder)',
  maxErrors: "an integer of at least 1",
  format: "a string",
  quiet: "a boolean",
  ignore: "an array of glob strings",
};

export const CONFIG_FILE = "basemodel.config.json";

/** The settings, or a UsageError listing every problem, one line each: fixing them one run at a time is tedious. */
function checked(raw: unknown, source: string): FileConfig {
  if (raw === null || typeof raw !== "object" || Array.isArray(raw)) throw new UsageError(`${source}: the configuration must be a JSON object`);
  const problems = Object.entries(raw).flatMap(([key, value]) => {
    if (!Object.hasOwn(CHECKS, key)) return [`${source}: unknown setting "${key}"; the settings are ${Object.keys(CHECKS).join(", ")}`];
    if (!CHECKS[key as keyof FileConfig](value)) return [`${source}: "${key}" must be ${EXPECTED[key as keyof FileConfig]}; found ${JSON.stringify(value)}`];
    return [];
  });
  if (problems.length > 0) throw new UsageError(problems.join("\n"));
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
