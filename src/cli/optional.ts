/**
 * Loading the optional dependencies a command needs before it does any work, so that a missing
 * one is named, with the command that installs it, instead of failing half-way.
 */
import { readFileSync } from "node:fs";
import { UsageError } from "./usage-error.js";

/** Runs `load`; a missing package becomes a UsageError saying what to install. */
export async function withOptionalDependencies<T>(what: string, load: () => Promise<T>): Promise<T> {
  try {
    return await load();
  } catch (error) {
    const name = missingPackage(error);
    if (name === null) throw error;
    throw new UsageError(`${what} needs the optional dependency ${name}: run \`npm install ${name}@${peerMajor(name)}\``);
  }
}

function missingPackage(error: unknown): string | null {
  if ((error as NodeJS.ErrnoException).code !== "ERR_MODULE_NOT_FOUND") return null;
  return /Cannot find package '([^']+)'/.exec((error as Error).message)?.[1] ?? null;
}

/** The major version package.json asks for, so the advice stays right when the range moves. */
function peerMajor(name: string): string {
  const manifest = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as {
    peerDependencies?: Record<string, string>;
  };
  return /\d+/.exec(manifest.peerDependencies?.[name] ?? "")?.[0] ?? "latest";
}
