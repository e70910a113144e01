/**
 * Where the persistent cache of downloaded extension schemas is by default (--fetch, --offline;
 * library: schemaCache: true). The file of each URL in it: cacheFile in sources.ts. Apart from
 * it, so that the validator's options need nothing else of the STAC layer.
 */
import { homedir } from "node:os";
import { join } from "node:path";

/** $XDG_CACHE_HOME/basemodel/schemas, ~/.cache/basemodel/schemas when it is not set (XDG Base Directory). */
export function defaultSchemaCache(env: NodeJS.ProcessEnv = process.env): string {
  const base = env.XDG_CACHE_HOME !== undefined && env.XDG_CACHE_HOME !== "" ? env.XDG_CACHE_HOME : join(env.HOME ?? homedir(), ".cache");
  return join(base, "basemodel", "schemas");
}
