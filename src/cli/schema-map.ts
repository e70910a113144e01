/**
 * The schema map of a validate run: "schemaMap" of the configuration file (paths relative to the
 * file; the configuration's schema has checked it), then each --schema-map <url>=<path> (relative
 * to the working folder; the same URL given again wins). A URL that is not one, or a file or
 * folder that is not there, is a usage error now rather than a finding on every item.
 */
import { statSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { problemText } from "../diagnostics/schema-problems.js";
import { schemaMapProblems } from "../validator/stac/schema-map.js";
import { UsageError } from "./usage-error.js";

const FORM = '<url>=<file>, or <url-prefix>/=<folder>';

function checkedPath(url: string, path: string, where: string): string {
  const folder = url.endsWith("/");
  const stats = statSync(path, { throwIfNoEntry: false });
  if (stats === undefined) throw new UsageError(`${where}: ${path} does not exist`);
  if (folder && !stats.isDirectory()) throw new UsageError(`${where}: ${path} is not a folder; a URL prefix (ending in "/") maps to a folder`);
  if (!folder && !stats.isFile()) throw new UsageError(`${where}: ${path} is not a file`);
  return path;
}

export function runSchemaMap(entries: readonly string[], configured: Readonly<Record<string, string>> | undefined, configFile: string | undefined, cwd: string): Record<string, string> {
  const map: Record<string, string> = {};
  for (const [url, path] of Object.entries(configured ?? {})) {
    map[url] = checkedPath(url, resolve(dirname(configFile ?? cwd), path), `${configFile}: schemaMap ${JSON.stringify(url)}`);
  }
  for (const entry of entries) {
    const split = entry.indexOf("=");
    if (split <= 0 || split === entry.length - 1) throw new UsageError(`--schema-map takes ${FORM}; found ${JSON.stringify(entry)}`);
    const url = entry.slice(0, split);
    const [problem] = schemaMapProblems({ [url]: entry.slice(split + 1) }, "--schema-map");
    if (problem !== undefined) throw new UsageError(`--schema-map ${entry}: ${problemText(problem)}`);
    map[url] = checkedPath(url, resolve(cwd, entry.slice(split + 1)), `--schema-map ${entry}`);
  }
  return map;
}
