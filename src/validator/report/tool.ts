/** The name and version machine-readable reports identify the validator with. */
import { readFileSync } from "node:fs";
import { packageFile } from "../../package-files.js";

export interface ToolInfo {
  name: string;
  version: string;
  /** The package's homepage, when package.json gives one. */
  homepage?: string;
}

let cached: ToolInfo | undefined;

/**
 * Read from package.json on first use. Both src/validator/report and dist/report sit two levels below the
 * package root, so one relative URL serves tests (running the sources) and the published build.
 */
export function toolInfo(): ToolInfo {
  if (cached) return cached;
  const { name, version, homepage } = JSON.parse(readFileSync(packageFile("package.json"), "utf8")) as ToolInfo;
  cached = homepage === undefined ? { name, version } : { name, version, homepage };
  return cached;
}
