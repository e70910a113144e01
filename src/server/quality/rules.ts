/**
 * Quality rules: what the data quality checker tests, read from a JSON or YAML file a person
 * edits. (Not fAIr's rule sets, which judge base model items: src/validator/item/rule-sets.ts.)
 * The file format is described in docs/quality.md; this module turns a file into QualityRules
 * (every default filled in) or says exactly which member is wrong and what it should be.
 *
 * YAML needs the optional dependency `yaml`, imported only when a YAML file is read, so that
 * JSON quality rules (the default among them) work without it.
 */
import { readFile } from "node:fs/promises";
import { extname } from "node:path";
import { evaluate, parse as parseJsonText } from "@humanwhocodes/momoa";
import type { DocumentNode, Location, ValueNode } from "@humanwhocodes/momoa";
import { packageFile } from "../../package-files.js";

/** A tag condition: the key present, with exactly `value` when it is not null. */
export interface TagTerm {
  key: string;
  value: string | null;
}

/** The checks of one source: its name is what issues report as their `source`. */
export interface SourceRules {
  source: string;
  /** The features the checks apply to: those with any of these tags. */
  match: TagTerm[];
  /** badgeom when GEOS finds the geometry invalid. */
  valid: boolean;
  /** badgeom when a polygon corner is neither within `threshold` degrees of 90 nor of 180; null: not checked. */
  squareness: { threshold: number } | null;
  /** overlapping when a polygon's interior overlaps that of another feature of this source. */
  overlapping: boolean;
  /** duplicate when another feature of this source has the same geometry. */
  duplicate: boolean;
  /** badvalue when the feature has one of these keys with a value outside its list. */
  allowedValues: Array<{ key: string; values: string[] }>;
  /** incomplete when the feature lacks one of these keys. */
  required: string[];
}

export interface QualityRules {
  sources: SourceRules[];
}

/** Used when no quality rules are given: buildings, highways, places and a few amenities. */
export const DEFAULT_QUALITY_RULES_PATH = packageFile("rules/quality.default.json");

export const DEFAULT_SQUARENESS_THRESHOLD = 10;

// Above 45°, the tolerances around 90° and 180° would meet and every corner would pass.
const MAX_SQUARENESS_THRESHOLD = 45;

const ROOT_MEMBERS = ["sources"];
const SOURCE_MEMBERS = ["match", "valid", "squareness", "overlapping", "duplicate", "values", "required"];
const SQUARENESS_MEMBERS = ["threshold"];

/** Reads a quality rules file (.json, .yaml or .yml); without a path, the default quality rules. */
export async function loadQualityRules(path: string = DEFAULT_QUALITY_RULES_PATH): Promise<QualityRules> {
  const format = formatOf(path);
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code === "ENOENT" ? "no such file" : (error as Error).message;
    throw new Error(`Cannot read the quality rules file ${path}: ${reason}`, { cause: error });
  }
  const data = format === "json" ? parseJson(text, path) : await parseYaml(text, path);
  return parseQualityRules(data, path);
}

/** Checks quality rules already read into memory; `origin` names it in error messages. */
export function parseQualityRules(data: unknown, origin: string): QualityRules {
  const problems: string[] = [];
  const rules = readRoot(data, problems);
  if (problems.length > 0) throw new Error(`Invalid quality rules ${origin}: ${problems.join("; ")}`);
  return rules;
}

function formatOf(path: string): "json" | "yaml" {
  const extension = extname(path).toLowerCase();
  if (extension === ".json") return "json";
  if (extension === ".yaml" || extension === ".yml") return "yaml";
  throw new Error(`Cannot read the quality rules file ${path}: its name must end in .json, .yaml or .yml, which says how to read it`);
}

function parseJson(text: string, path: string): unknown {
  // Momoa rather than JSON.parse: its errors give a line and column in every Node version, and
  // its tree shows a member written twice, which JSON.parse would silently drop.
  let document: DocumentNode;
  try {
    document = parseJsonText(text);
  } catch (error) {
    throw new Error(`The quality rules file ${path} is not valid JSON: ${(error as Error).message}`, { cause: error });
  }
  const repeated = repeatedMember(document.body, []);
  if (repeated) {
    const { line, column } = repeated.at;
    throw new Error(`The quality rules file ${path} has ${format(repeated.path)} twice (again at line ${line}, column ${column}): write each member once`);
  }
  return evaluate(document);
}

/** The first member written twice in one object, as YAML refuses it too. */
function repeatedMember(node: ValueNode, path: Path): { path: Path; at: Location } | null {
  if (node.type === "Array") {
    for (const [index, element] of node.elements.entries()) {
      const repeated = repeatedMember(element.value, [...path, index]);
      if (repeated) return repeated;
    }
  } else if (node.type === "Object") {
    const seen = new Set<string>();
    for (const member of node.members) {
      const name = member.name.type === "String" ? member.name.value : member.name.name;
      if (seen.has(name)) return { path: [...path, name], at: member.loc.start };
      seen.add(name);
      const repeated = repeatedMember(member.value, [...path, name]);
      if (repeated) return repeated;
    }
  }
  return null;
}

async function parseYaml(text: string, path: string): Promise<unknown> {
  let yaml: typeof import("yaml");
  try {
    yaml = await import("yaml");
  } catch (error) {
    throw new Error(`Reading the YAML quality rules file ${path} needs the optional dependency yaml: run \`npm install yaml@2\`, or write the quality rules as JSON`, {
      cause: error,
    });
  }
  try {
    return yaml.parse(text, { prettyErrors: true });
  } catch (error) {
    throw new Error(`The quality rules file ${path} is not valid YAML: ${(error as Error).message}`, { cause: error });
  }
}

type Path = Array<string | number>;

function readRoot(data: unknown, problems: string[]): QualityRules {
  if (!isObject(data)) {
    problems.push(`the quality rules must be an object with a member "sources"; found ${describe(data)}`);
    return { sources: [] };
  }
  unknownMembers(data, ROOT_MEMBERS, [], problems);
  if (!("sources" in data)) {
    problems.push('the quality rules need a member "sources": an object naming each source and its checks');
    return { sources: [] };
  }
  const sources = data.sources;
  if (!isObject(sources)) {
    problems.push(`sources must be an object naming each source and its checks; found ${describe(sources)}`);
    return { sources: [] };
  }
  return { sources: Object.entries(sources).map(([name, rules]) => readSource(name, rules, ["sources", name], problems)) };
}

function readSource(source: string, data: unknown, path: Path, problems: string[]): SourceRules {
  const rules: SourceRules = {
    source,
    match: [{ key: source, value: null }],
    valid: false,
    squareness: null,
    overlapping: false,
    duplicate: false,
    allowedValues: [],
    required: [],
  };
  if (source === "") problems.push(`${format(path)}: a source name must not be empty`);
  if (!isObject(data)) {
    problems.push(`${format(path)} must be an object of checks (${SOURCE_MEMBERS.join(", ")}); found ${describe(data)}`);
    return rules;
  }
  // A misspelt check is the likely reason for having none: saying so once is enough.
  const misspelt = unknownMembers(data, SOURCE_MEMBERS, path, problems);
  if (!misspelt && !SOURCE_MEMBERS.some((member) => member !== "match" && member in data)) {
    problems.push(`${format(path)} has no check: give at least one of ${SOURCE_MEMBERS.filter((member) => member !== "match").join(", ")}`);
  }
  if ("match" in data) rules.match = readMatch(data.match, [...path, "match"], problems);
  if ("valid" in data) rules.valid = readBoolean(data.valid, [...path, "valid"], problems);
  if ("squareness" in data) rules.squareness = readSquareness(data.squareness, [...path, "squareness"], problems);
  if ("overlapping" in data) rules.overlapping = readBoolean(data.overlapping, [...path, "overlapping"], problems);
  if ("duplicate" in data) rules.duplicate = readBoolean(data.duplicate, [...path, "duplicate"], problems);
  if ("values" in data) rules.allowedValues = readAllowedValues(data.values, [...path, "values"], problems);
  if ("required" in data) rules.required = readStrings(data.required, [...path, "required"], "a list of tag keys", problems);
  return rules;
}

function readMatch(data: unknown, path: Path, problems: string[]): TagTerm[] {
  const expected = 'a tag term ("key" or "key=value") or a non-empty list of them';
  if (typeof data === "string") return readTerm(data, path, problems);
  if (!Array.isArray(data) || data.length === 0) {
    problems.push(`${format(path)} must be ${expected}; found ${describe(data)}`);
    return [];
  }
  return data.flatMap((term, index) => {
    if (typeof term === "string") return readTerm(term, [...path, index], problems);
    problems.push(`${format([...path, index])} must be a tag term ("key" or "key=value"); found ${describe(term)}`);
    return [];
  });
}

function readTerm(text: string, path: Path, problems: string[]): TagTerm[] {
  const equals = text.indexOf("=");
  const key = equals < 0 ? text : text.slice(0, equals);
  const value = equals < 0 ? null : text.slice(equals + 1);
  if (key === "" || value === "") {
    problems.push(`${format(path)} must be a tag term "key" or "key=value" with a non-empty key and value; found ${JSON.stringify(text)}`);
    return [];
  }
  return [{ key, value }];
}

function readSquareness(data: unknown, path: Path, problems: string[]): { threshold: number } | null {
  if (data === false) return null;
  if (data === true) return { threshold: DEFAULT_SQUARENESS_THRESHOLD };
  if (!isObject(data)) {
    problems.push(`${format(path)} must be true, false or an object such as { "threshold": ${DEFAULT_SQUARENESS_THRESHOLD} }; found ${describe(data)}`);
    return null;
  }
  unknownMembers(data, SQUARENESS_MEMBERS, path, problems);
  if (!("threshold" in data)) return { threshold: DEFAULT_SQUARENESS_THRESHOLD };
  const threshold = data.threshold;
  if (typeof threshold !== "number" || !Number.isFinite(threshold) || threshold < 0 || threshold > MAX_SQUARENESS_THRESHOLD) {
    problems.push(`${format([...path, "threshold"])} must be a number of degrees from 0 to ${MAX_SQUARENESS_THRESHOLD}; found ${describe(threshold)}`);
    return null;
  }
  return { threshold };
}

function readAllowedValues(data: unknown, path: Path, problems: string[]): SourceRules["allowedValues"] {
  if (!isObject(data)) {
    problems.push(`${format(path)} must be an object giving each tag key its list of allowed values; found ${describe(data)}`);
    return [];
  }
  return Object.entries(data).map(([key, values]) => {
    const keyPath = [...path, key];
    if (key === "") problems.push(`${format(path)}: a tag key must not be empty`);
    const list = readStrings(values, keyPath, "a non-empty list of allowed values", problems);
    if (Array.isArray(values) && values.length === 0) problems.push(`${format(keyPath)} must list at least one allowed value; found an empty list`);
    return { key, values: list };
  });
}

function readStrings(data: unknown, path: Path, expected: string, problems: string[]): string[] {
  if (!Array.isArray(data)) {
    problems.push(`${format(path)} must be ${expected}; found ${describe(data)}`);
    return [];
  }
  return data.flatMap((item, index) => {
    if (typeof item === "string" && item !== "") return [item];
    problems.push(`${format([...path, index])} must be a non-empty string; found ${describe(item)}`);
    return [];
  });
}

function readBoolean(data: unknown, path: Path, problems: string[]): boolean {
  if (typeof data === "boolean") return data;
  problems.push(`${format(path)} must be a boolean; found ${describe(data)}`);
  return false;
}

/** Adds a problem per member not in `allowed`; true when there was one. */
function unknownMembers(data: Record<string, unknown>, allowed: string[], path: Path, problems: string[]): boolean {
  const unknown = Object.keys(data).filter((member) => !allowed.includes(member));
  const where = path.length === 0 ? "the quality rules" : format(path);
  for (const member of unknown) problems.push(`${where} has an unknown member ${JSON.stringify(member)} (allowed: ${allowed.join(", ")})`);
  return unknown.length > 0;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** A member path as a person writes it: sources.building.values["roof shape"][2]. */
function format(path: Path): string {
  return path
    .map((segment, index) => {
      if (typeof segment === "number") return `[${segment}]`;
      if (/^[A-Za-z_][\w:-]*$/.test(segment)) return index === 0 ? segment : `.${segment}`;
      return `[${JSON.stringify(segment)}]`;
    })
    .join("");
}

function describe(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "a list";
  if (typeof value === "object") return "an object";
  if (typeof value === "string") return `the string ${JSON.stringify(value)}`;
  return String(value);
}
