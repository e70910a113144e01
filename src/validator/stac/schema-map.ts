/**
 * The schema map option (library: schemaMap; CLI: --schema-map and "schemaMap" in the
 * configuration file): extension schema URL -> a local file, or URL prefix ending in "/" -> a
 * folder whose files sit at the rest of the URL's path. Checked by schema/inputs/schema-map.schema.json.
 */
import { describePointer } from "../../diagnostics/pointer.js";
import { problemText, schemaProblems, type Problem, type SchemaCheck } from "../../diagnostics/schema-problems.js";
import validateSchemaMap from "../../generated/inputs/schema-map.js";
import { nodeModuleFor } from "../../package-files.js";

/** What is wrong with a schema map, each problem named from `name` (schemaMap["https://…"]). */
export function schemaMapProblems(map: unknown, name: string): Problem[] {
  return schemaProblems(validateSchemaMap as SchemaCheck, map, { place: (pointer) => describePointer(`/${name}${pointer}`) });
}

/**
 * The map with every path made absolute (relative ones are read from `base`, the working folder
 * by default); a TypeError says what is wrong.
 */
export function normalizeSchemaMap(map: unknown, base?: string): Record<string, string> {
  const problems = schemaMapProblems(map, "schemaMap");
  if (problems.length > 0) throw new TypeError(problems.map(problemText).join("; "));
  // Asked for only when there are paths: an empty map needs no Node (the default, in a browser too).
  const absolute = (path: string) => nodeModuleFor("node:path", "schemaMap").resolve(base ?? process.cwd(), path);
  return Object.fromEntries(Object.entries(map as Record<string, string>).map(([url, path]) => [url, absolute(path)]));
}
