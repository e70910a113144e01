/**
 * The persistent cache of downloaded extension schemas (--fetch; library: fetchSchemas): one file
 * per URL, at a path that reads like the URL, so that a person can see what is there.
 *
 *   https://example.com/sar/v1.0.0/schema.json -> <cache>/https/example.com/sar/v1.0.0/schema.json
 */
import { homedir } from "node:os";
import { join } from "node:path";

/** $XDG_CACHE_HOME/basemodel/schemas, ~/.cache/basemodel/schemas when it is not set (XDG Base Directory). */
export function defaultSchemaCache(env: NodeJS.ProcessEnv = process.env): string {
  const base = env.XDG_CACHE_HOME !== undefined && env.XDG_CACHE_HOME !== "" ? env.XDG_CACHE_HOME : join(env.HOME ?? homedir(), ".cache");
  return join(base, "basemodel", "schemas");
}

/**
 * The cache file of a schema URL. The URL's path is already percent-encoded, and URL parsing has
 * resolved its "." and ".." segments, so no segment can leave the cache folder.
 */
export function cacheFile(cache: string, url: string): string {
  const parsed = new URL(url);
  const segments = parsed.pathname.split("/").filter((segment) => segment !== "");
  if (parsed.pathname.endsWith("/") || segments.length === 0) segments.push("index.json");
  if (parsed.search !== "") segments.push(`${segments.pop()!}${encodeURIComponent(parsed.search)}`);
  return join(cache, parsed.protocol.slice(0, -1), parsed.host.replace(/:/g, "_"), ...segments);
}
