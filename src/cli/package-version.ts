import { readFileSync } from "node:fs";
import { packageFile } from "../package-files.js";

/** basemodel's version, from its package.json: read when asked for, as validating a file never needs it. */
export function packageVersion(): string {
  return (JSON.parse(readFileSync(packageFile("package.json"), "utf8")) as { version: string }).version;
}
