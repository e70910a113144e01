/**
 * The helpers Ajv's compiled code calls, for the modules the build generates (src/generated/,
 * dist/generated/): Ajv's own output require()s them, which neither a browser nor a bundle of
 * ours can follow (scripts/ajv-modules.mjs imports them from here instead). The code also
 * reports the schema path of failures its callees pass up (`rebase`).
 */
import * as equalModule from "ajv/dist/runtime/equal.js";
import * as ucs2lengthModule from "ajv/dist/runtime/ucs2length.js";

/**
 * The `exports.default` of one of Ajv's CommonJS modules. Node and esbuild import a CommonJS
 * module's whole `exports` as its default; Rollup and webpack import `exports.default` when the
 * module says it was compiled from ES modules, as Ajv's do.
 */
function exportsDefault<T>(module: { default: unknown }): T {
  const value = module.default as { default?: T } | T;
  return typeof value === "function" ? (value as T) : (value as { default: T }).default;
}

export const equal = exportsDefault<(a: unknown, b: unknown) => boolean>(equalModule);
const codePoints = exportsDefault<(text: string) => number>(ucs2lengthModule);

const HIGH_SURROGATE = /[\uD800-\uDBFF]/;

/**
 * A string's length in code points, as minLength and maxLength count it: Ajv's count, which reads
 * every character, only for a string with a surrogate pair in it. Without one, each character is
 * one code point; the search for one runs natively, and the strings checked (descriptions, hrefs)
 * are long.
 */
export const ucs2length = (text: string): number => (HIGH_SURROGATE.test(text) ? codePoints(text) : text.length);

interface Failure {
  schemaPath: string;
}

/** Failures that keep the schema path of the schema they come from (build-stac.mjs: a $ref too large to expand). */
const ownPaths = new WeakSet<Failure>();

/** Marks the failures of a schema whose paths stay its own, and returns them. */
export function keepPaths<T extends Failure>(failures: T[]): T[] {
  for (const failure of failures) ownPaths.add(failure);
  return failures;
}

/**
 * The failures of a target schema as failures of the schema that names it at `site` (a schema
 * path): "#/required" or, when Ajv wrote the target inline, "<target>/required" becomes
 * "<site>/required". Failures marked by keepPaths are left as they are.
 */
export function rebase<T extends Failure>(failures: T[], site: string, target: string): T[] {
  for (const failure of failures) {
    if (ownPaths.has(failure)) continue;
    const path = failure.schemaPath;
    const inline = path === target || path.startsWith(`${target}/`);
    failure.schemaPath = site + path.slice(inline ? target.length : 1);
  }
  return failures;
}
