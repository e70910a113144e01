/**
 * The modules the build generates that the validator loads only when they are first needed (the
 * compiled STAC schemas, fAIr's rule sets besides v1.0.0, fAIr's dataset rules:
 * src/generated/modules.ts lists them), by their path in src/generated/ ("rule-sets/v1.1.0.js").
 *
 * In Node they load when first asked for, synchronously (require of an ES module, Node 20.19), so
 * that validateItem stays synchronous. Where nothing loads synchronously (a browser, or a bundle
 * of the package's code) an async call loads them beforehand (loadFor, or loadStac, loadRuleSet,
 * loadDatasetRules), through the import()s of src/generated/modules.ts: bundlers follow those, so
 * a page fetches what it asks for.
 */
import { nodeModule, packageFile, packageRoot } from "./package-files.js";

const loaded = new Map<string, unknown>();

/**
 * Loads a module of dist/generated/ now; undefined where that cannot be done synchronously, or
 * where the package's files are not beside its code (a bundle of it in another project).
 */
function requireNow(path: string): unknown {
  const [module, fs] = [nodeModule("node:module"), nodeModule("node:fs")];
  if (module === undefined || fs === undefined || packageRoot() === undefined) return undefined;
  const file = packageFile(`dist/generated/${path}`);
  return fs.existsSync(file) ? module.createRequire(import.meta.url)(file) : undefined;
}

/**
 * A generated module: loaded before, or now in Node. Where neither, an Error whose message
 * `notLoaded` gives (what is missing, and the call that loads it).
 */
export function generatedModule(path: string, notLoaded: () => string): unknown {
  let module = loaded.get(path);
  if (module === undefined) {
    module = requireNow(path);
    if (module === undefined) throw new Error(notLoaded());
    loaded.set(path, module);
  }
  return module;
}

/** Loads generated modules, so that generatedModule finds them everywhere. */
export async function loadGeneratedModules(paths: Iterable<string>): Promise<void> {
  const elsewhere: string[] = [];
  for (const path of new Set(paths)) {
    if (loaded.has(path)) continue;
    const module = requireNow(path);
    if (module === undefined) elsewhere.push(path);
    else loaded.set(path, module);
  }
  if (elsewhere.length === 0) return;
  const { generatedModules } = await import("./generated/modules.js");
  await Promise.all(
    elsewhere.map(async (path) => {
      const load = generatedModules[path];
      if (load === undefined) throw new Error(`the build generated no module ${path}`);
      loaded.set(path, await load());
    }),
  );
}
