/**
 * The optional dependencies a part of the server needs (a command of the CLI, the
 * `basemodel/server` entry), looked for before it does any work: every missing one is named at
 * once, in one line with the command that installs them, instead of one per run or a stack trace
 * half-way. A command's list is its own packages and the drivers of the store and queue it uses,
 * as their factories declare them.
 */
import { DriverMissing } from "./errors.js";

/** What running exports loads: GEOS for their areas, the zip, FlatGeobuf and GeoParquet writers, and SQLite for GeoPackage files. */
export const EXPORT_PACKAGES: readonly string[] = ["better-sqlite3", "geos-wasm", "yazl", "flatgeobuf", "hyparquet-writer"];

/** The HTTP server's packages: fastify, its plugins, yaml for YAML request bodies, the tiler and encoder of the SQLite store's map tiles; exports run in it too. Its store's and queue's drivers aside. */
export const SERVER_PACKAGES: readonly string[] = ["fastify", "@fastify/swagger", "@fastify/swagger-ui", "@fastify/static", ...EXPORT_PACKAGES, "yaml", "@maplibre/geojson-vt", "@maplibre/vt-pbf"];

/**
 * Runs `load` once every package of `packages` (what `user` needs: a command, basemodel/server)
 * can be found; the missing ones are a DriverMissing listing them all. A package `load` still
 * misses (one the list forgot, or one a dependency needs) is named the same way.
 */
export async function withOptionalDependencies<T>(user: string, packages: readonly string[], load: () => Promise<T>): Promise<T> {
  const missing = [...new Set(packages)].filter((name) => !isInstalled(name));
  if (missing.length > 0) throw new DriverMissing({ user, packages: missing });
  try {
    return await load();
  } catch (error) {
    const name = missingPackage(error);
    if (name === null) throw error;
    throw new DriverMissing({ user, packages: [name] }, { cause: error });
  }
}

/** Found as `import()` would find it, without loading it. */
function isInstalled(name: string): boolean {
  try {
    import.meta.resolve(name);
    return true;
  } catch {
    return false;
  }
}

/** The package Node did not find: its error names it in its message alone. */
function missingPackage(error: unknown): string | null {
  if ((error as NodeJS.ErrnoException).code !== "ERR_MODULE_NOT_FOUND") return null;
  return /Cannot find package '([^']+)'/.exec((error as Error).message)?.[1] ?? null;
}
