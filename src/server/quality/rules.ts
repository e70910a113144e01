/**
 * Quality rules: what the data quality checker tests, read from a JSON or YAML file a person
 * edits. (Not fAIr's rule sets, which judge base model items: src/validator/item/rule-sets.ts.)
 * The file format is described in docs/quality.md and checked by
 * schema/inputs/quality-rules.schema.json; this module turns a file into QualityRules (every
 * default filled in) or says exactly which member is wrong and what it should be.
 *
 * YAML needs the optional dependency `yaml`, imported only when a YAML file is read, so that
 * JSON quality rules (the default among them) work without it.
 */
import { readFile } from "node:fs/promises";
import { extname } from "node:path";
import { evaluate, parse as parseJsonText } from "@humanwhocodes/momoa";
import type { DocumentNode, Location, ValueNode } from "@humanwhocodes/momoa";
import { describePointer, joinPointer } from "../../diagnostics/pointer.js";
import { wordList } from "../../diagnostics/messages.js";
import { problemText, schemaProblems, type Problem, type SchemaCheck } from "../../diagnostics/schema-problems.js";
import validateQualityRules from "../../generated/inputs/quality-rules.js";
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

/** The checks a source can run: it must run one. */
const CHECKS = ["valid", "squareness", "overlapping", "duplicate", "values", "required"] as const;

/** One source as the file writes it, once the schema has let it through: every member optional. */
interface SourceInFile {
  match?: string | string[];
  valid?: boolean;
  squareness?: boolean | { threshold?: number };
  overlapping?: boolean;
  duplicate?: boolean;
  values?: Record<string, string[]>;
  required?: string[];
}

interface QualityRulesInFile {
  sources: Record<string, SourceInFile>;
}

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

/**
 * Checks quality rules already read into memory against schema/inputs/quality-rules.schema.json
 * and fills in every default; `origin` names them in error messages.
 */
export function parseQualityRules(data: unknown, origin: string): QualityRules {
  const problems = schemaProblems(validateQualityRules as SchemaCheck, data, { root: "the quality rules" });
  const sources = problems.length > 0 ? [] : Object.entries((data as QualityRulesInFile).sources);
  for (const [name, checks] of sources) if (!CHECKS.some((check) => check in checks)) problems.push(noCheck(name));
  if (problems.length > 0) throw new Error(`Invalid quality rules ${origin}: ${problems.map(problemText).join("; ")}`);
  return { sources: sources.map(([name, checks]) => sourceRules(name, checks)) };
}

function noCheck(source: string): Problem {
  const path = joinPointer("/sources", source);
  return { path, message: `${describePointer(path)} has no check: give at least one of ${wordList(CHECKS)}` };
}

function sourceRules(source: string, checks: SourceInFile): SourceRules {
  const { squareness = false } = checks;
  return {
    source,
    match: checks.match === undefined ? [{ key: source, value: null }] : [checks.match].flat().map(tagTerm),
    valid: checks.valid ?? false,
    squareness: squareness === false ? null : { threshold: (squareness === true ? undefined : squareness.threshold) ?? DEFAULT_SQUARENESS_THRESHOLD },
    overlapping: checks.overlapping ?? false,
    duplicate: checks.duplicate ?? false,
    allowedValues: Object.entries(checks.values ?? {}).map(([key, values]) => ({ key, values })),
    required: checks.required ?? [],
  };
}

/** "key" or "key=value": the value is everything after the first "=". */
function tagTerm(text: string): TagTerm {
  const equals = text.indexOf("=");
  return equals < 0 ? { key: text, value: null } : { key: text.slice(0, equals), value: text.slice(equals + 1) };
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
  const repeated = repeatedMember(document.body, "");
  if (repeated) {
    const { line, column } = repeated.at;
    throw new Error(`The quality rules file ${path} has ${describePointer(repeated.pointer)} twice (again at line ${line}, column ${column}): write each member once`);
  }
  return evaluate(document);
}

/** The first member written twice in one object, as YAML refuses it too. */
function repeatedMember(node: ValueNode, pointer: string): { pointer: string; at: Location } | null {
  if (node.type === "Array") {
    for (const [index, element] of node.elements.entries()) {
      const repeated = repeatedMember(element.value, joinPointer(pointer, index));
      if (repeated) return repeated;
    }
  } else if (node.type === "Object") {
    const seen = new Set<string>();
    for (const member of node.members) {
      const name = member.name.type === "String" ? member.name.value : member.name.name;
      if (seen.has(name)) return { pointer: joinPointer(pointer, name), at: member.loc.start };
      seen.add(name);
      const repeated = repeatedMember(member.value, joinPointer(pointer, name));
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
