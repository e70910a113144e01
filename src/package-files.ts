/**
 * The files the package ships beside its code (package.json, rules/, schema/, osm2pgsql/) and the
 * modules its build generates (dist/generated/), found from the package's root. A module cannot
 * name them relative to itself: the sources (src/<wing>/<folder>/), the compiled modules (dist/...)
 * and the bundles (dist/cli-bundle/) sit at different depths below the root.
 */
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const PACKAGE_NAME = "basemodel";

let root: string | undefined;

function packageRoot(): string {
  if (root !== undefined) return root;
  let folder = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    try {
      const { name } = JSON.parse(readFileSync(join(folder, "package.json"), "utf8")) as { name?: unknown };
      if (name === PACKAGE_NAME) return (root = folder);
    } catch {
      // no package.json here, or not JSON: look further up
    }
    const parent = dirname(folder);
    if (parent === folder) throw new Error(`the ${PACKAGE_NAME} package's root was not found above ${fileURLToPath(import.meta.url)}`);
    folder = parent;
  }
}

/** The absolute path of a file of the package, given from its root ("rules/quality.default.json"). */
export function packageFile(path: string): string {
  return join(packageRoot(), path);
}
