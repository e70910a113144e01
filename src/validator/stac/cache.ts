/**
 * Where the persistent cache of downloaded extension schemas is by default (--fetch, --offline;
 * library: schemaCache: true). The file of each URL in it: cacheFile in sources.ts. Apart from
 * it, so that the validator's options need nothing else of the STAC layer.
 */
import { nodeModuleFor } from "../../package-files.js";

/** $XDG_CACHE_HOME/basemodel/schemas, ~/.cache/basemodel/schemas when it is not set (XDG Base Directory). */
export function defaultSchemaCache(given?: NodeJS.ProcessEnv): string {
  const { join } = nodeModuleFor("node:path", "schemaCache");
  const env = given ?? process.env;
  const base = env.XDG_CACHE_HOME !== undefined && env.XDG_CACHE_HOME !== "" ? env.XDG_CACHE_HOME : join(env.HOME ?? nodeModuleFor("node:os", "schemaCache").homedir(), ".cache");
  return join(base, "basemodel", "schemas");
}
