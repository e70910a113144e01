/**
 * The files the package ships beside its code (package.json, rules/, schema/, osm2pgsql/) and the
 * modules its build generates (dist/generated/), found from the package's root. A module cannot
 * name them relative to itself: the sources (src/<wing>/<folder>/), the compiled modules (dist/...)
 * and the bundles (dist/cli-bundle/) sit at different depths below the root.
 *
 * There are package files only in Node, and the validator also runs in browsers. So Node's own
 * modules are asked of Node when they are needed (process.getBuiltinModule) rather than imported:
 * the validator's modules then bundle for the browser with nothing in Node's place.
 */
/** Node's modules the package uses. */
interface BuiltIn {
  "node:fs": typeof import("node:fs");
  "node:http": typeof import("node:http");
  "node:module": typeof import("node:module");
  "node:os": typeof import("node:os");
  "node:path": typeof import("node:path");
  "node:url": typeof import("node:url");
}

/** Node's module `id` ("node:fs"), or undefined outside Node. */
export function nodeModule<ID extends keyof BuiltIn>(id: ID): BuiltIn[ID] | undefined {
  return typeof process === "undefined" ? undefined : process.getBuiltinModule?.(id);
}

/** Node's module `id`; outside Node, an Error saying that `what` needs Node.js. */
export function nodeModuleFor<ID extends keyof BuiltIn>(id: ID, what: string): BuiltIn[ID] {
  const module = nodeModule(id);
  if (module === undefined) throw new Error(`${what} needs Node.js: it reads or writes local files`);
  return module;
}

const PACKAGE_NAME = "basemodel";

/** The root once looked for: a folder, or null when there is none (outside Node, or a bundle of the package's code in another project). */
let root: string | null | undefined;

/** The package's root folder, or undefined where the package's files are not at hand. */
export function packageRoot(): string | undefined {
  if (root !== undefined) return root ?? undefined;
  const [fs, path, url] = [nodeModule("node:fs"), nodeModule("node:path"), nodeModule("node:url")];
  root = null;
  if (fs === undefined || path === undefined || url === undefined || !String(import.meta.url).startsWith("file:")) return undefined;
  let folder = path.dirname(url.fileURLToPath(import.meta.url));
  for (;;) {
    try {
      const { name } = JSON.parse(fs.readFileSync(path.join(folder, "package.json"), "utf8")) as { name?: unknown };
      if (name === PACKAGE_NAME) return (root = folder);
    } catch {
      // no package.json here, or not JSON: look further up
    }
    const parent = path.dirname(folder);
    if (parent === folder) return undefined;
    folder = parent;
  }
}

/** The absolute path of a file of the package, given from its root ("rules/quality.default.json"). */
export function packageFile(file: string): string {
  const folder = packageRoot();
  if (folder === undefined) throw new Error(`the ${PACKAGE_NAME} package's root was not found above ${import.meta.url}`);
  return nodeModuleFor("node:path", `the package file ${file}`).join(folder, file);
}
