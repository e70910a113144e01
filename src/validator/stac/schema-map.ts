/**
 * The schema map option (library: schemaMap; CLI: --schema-map and "schemaMap" in the
 * configuration file): extension schema URL -> a local file, or URL prefix ending in "/" -> a
 * folder whose files sit at the rest of the URL's path.
 */
import { resolve } from "node:path";
import { describeValue } from "../../diagnostics/messages.js";
import { isHttpUrl } from "../net/http-url.js";

/** The map with every path made absolute (relative ones are read from `base`); a TypeError says what is wrong. */
export function normalizeSchemaMap(map: unknown, base = process.cwd()): Record<string, string> {
  if (map === null || typeof map !== "object" || Array.isArray(map)) {
    throw new TypeError(`schemaMap must be an object of schema URL -> file path; found ${describeValue(map)}`);
  }
  const normalized: Record<string, string> = {};
  for (const [url, path] of Object.entries(map)) {
    if (!isHttpUrl(url)) throw new TypeError(`schemaMap: ${JSON.stringify(url)} is not an http(s) URL`);
    if (typeof path !== "string" || path === "") {
      const what = url.endsWith("/") ? "a folder (the key is a URL prefix)" : "a file path";
      throw new TypeError(`schemaMap[${JSON.stringify(url)}] must be ${what}; found ${describeValue(path)}`);
    }
    normalized[url] = resolve(base, path);
  }
  return normalized;
}
