/**
 * The optional dependencies a command needs, looked for before it does any work: every missing
 * one is named at once, in one line with the command that installs them, instead of one per run
 * or a stack trace half-way.
 */
import { readFileSync } from "node:fs";
import { UsageError } from "./usage-error.js";
import { packageFile } from "../package-files.js";

/**
 * Runs `load` once every package of `packages` (what `command` needs) can be found; the missing
 * ones are a UsageError listing them all. A package `load` still misses (one the list forgot,
 * or one a dependency needs) is named the same way.
 */
export async function withOptionalDependencies<T>(command: string, packages: readonly string[], load: () => Promise<T>): Promise<T> {
  const missing = packages.filter((name) => !isInstalled(name));
  if (missing.length > 0) throw missingError(command, missing);
  try {
    return await load();
  } catch (error) {
    const name = missingPackage(error);
    if (name === null) throw error;
    throw missingError(command, [name]);
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

function missingError(command: string, names: readonly string[]): UsageError {
  const what = names.length === 1 ? "the optional dependency" : "the optional dependencies";
  const install = names.map((name) => `${name}@${peerMajor(name)}`).join(" ");
  return new UsageError(`${command} needs ${what} ${names.join(", ")}: run \`npm install ${install}\``);
}

function missingPackage(error: unknown): string | null {
  if ((error as NodeJS.ErrnoException).code !== "ERR_MODULE_NOT_FOUND") return null;
  return /Cannot find package '([^']+)'/.exec((error as Error).message)?.[1] ?? null;
}

/** The major version package.json asks for, so the advice stays right when the range moves. */
function peerMajor(name: string): string {
  const manifest = JSON.parse(readFileSync(packageFile("package.json"), "utf8")) as {
    peerDependencies?: Record<string, string>;
  };
  return /\d+/.exec(manifest.peerDependencies?.[name] ?? "")?.[0] ?? "latest";
}
