// Build step for --stac: the official STAC schemas bundled in schema/stac/ (see provenance.json
// there), compiled ahead of time by Ajv into ES modules, one per schema file and per use, at the
// path of the file (src/generated/stac/<use>/<host>/<path>.js):
//
//   verdict/  each schema with its $refs kept and without allErrors: pass or fail only, and fast
//             (its functions are small enough for V8 to optimise, and it stops at the first
//             failure). Most items pass; this is all they run.
//   explain/  each schema as src/validator/stac/expand.ts prepares it, so that every failure's
//             schemaPath is the full path from the root (what the explainer reads), with allErrors;
//             run only on an item the verdict failed. Beside its check, a root's module exports
//             what the explainer knows of the schema (sites, hints).
//
// A schema that others refer to (PROJJSON, GeoJSON, core STAC's common fields) is compiled once:
// the modules import each other's functions (scripts/ajv-modules.mjs). For explain/, expand.ts
// writes every part the expanded schemas share once (SharedExpansion), and the code written here
// gives each failure a part passes up the schema path it has in the expanded schema (rebase in
// src/ajv-runtime.ts); the build checks that each root, its parts put back in place, is exactly
// what expand() makes of it. A test compares every verdict with another implementation run on
// the official files, and every explanation with the expanded schema compiled at run time.
//
// The validator loads a root's module when an item first names its schema: synchronously in Node
// (require), after loadStac() elsewhere (src/generated/modules.ts, whose import()s bundlers follow).
import { createHash } from "node:crypto";
import { isDeepStrictEqual } from "node:util";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { posix } from "node:path";
import { build } from "esbuild";
import { ajvModules, literal, withoutFailureDetails } from "./ajv-modules.mjs";

const require = createRequire(import.meta.url);
const addFormats = require("ajv-formats");

/** The document that holds every part SharedExpansion writes once. */
const SHARED = "urn:basemodel:stac";

/** src/validator/stac/expand.ts, runnable before tsc has compiled anything: it imports nothing but types. */
async function loadExpand(root) {
  const { outputFiles } = await build({
    entryPoints: [new URL("src/validator/stac/expand.ts", root).pathname],
    bundle: true,
    write: false,
    format: "esm",
    platform: "node",
    logLevel: "warning",
  });
  return import(`data:text/javascript;base64,${Buffer.from(outputFiles[0].text).toString("base64")}`);
}

function readBundle(root) {
  const folder = new URL("schema/stac/", root);
  const { schemas } = JSON.parse(readFileSync(new URL("provenance.json", folder), "utf8"));
  const docs = new Map();
  for (const entry of schemas) {
    const bytes = readFileSync(new URL(entry.file, folder));
    const sha256 = createHash("sha256").update(bytes).digest("hex");
    if (sha256 !== entry.sha256) throw new Error(`schema/stac/${entry.file} is not the official file (sha256 ${sha256}, provenance.json says ${entry.sha256})`);
    docs.set(entry.url, JSON.parse(bytes.toString("utf8")));
  }
  return { schemas, docs };
}

/** "mlm" for .../mlm/v1.5.1/schema.json and .../mlm-extension/v1.0.0/schema.json; "core" for the item schema. */
function nameOf(entry) {
  const version = /\/v(\d+\.\d+\.\d+[^/]*)\//.exec(entry.url)?.[1];
  if (version === undefined) throw new Error(`no version in ${entry.url}`);
  if (entry.role === "core") return { family: "core", version };
  const family = /^https:\/\/[^/]+\/([^/]+)\/v/.exec(entry.url)[1].replace(/-extension$/, "");
  return { family, version };
}

/** The module of a schema file: its path in schema/stac/ without ".json". */
const moduleName = (entry) => entry.file.replace(/\.json$/, "");

/**
 * Writes src/generated/stac/{verdict,explain}/<module>.js for every schema file the core and
 * extension schemas reach, and src/generated/stac-registry.ts: every URL an item may name, and
 * the module that checks it. Returns the root modules, by their path in src/generated/.
 */
export async function buildStac(root, generated) {
  const { AJV_MODULES, AJV_OPTIONS, draftOf, expand, SharedExpansion } = await loadExpand(root);
  const { schemas, docs } = readBundle(root);
  const modules = new Map(schemas.map((entry) => [entry.url, moduleName(entry)]));
  const drafts = new Set([...docs.values()].map(draftOf));
  if (drafts.size !== 1) throw new Error(`the bundled schemas are written in ${[...drafts].join(", ")}: the modules of one Ajv cannot call another's`);
  const [draft] = drafts;
  if (!AJV_MODULES[draft]) throw new Error(`no Ajv for JSON Schema ${draft}`);
  /** An Ajv holding every bundled file, each under the URL it is published at (the $id in a file may be wrong: core 1.1.0's common.json says .../commonjson). */
  const ajvWith = (allErrors) => {
    const Ajv = require(AJV_MODULES[draft]).default;
    const ajv = new Ajv({ ...AJV_OPTIONS, allErrors, code: { source: true } });
    addFormats(ajv, ["date-time"]);
    for (const [url, doc] of docs) ajv.addSchema({ ...doc, $id: url });
    return ajv;
  };

  // One root per file: the same file at two addresses (MLM's, crim-ca's and stac-extensions') is checked by one module.
  const roots = [];
  const bySha = new Map();
  const registry = [];
  for (const entry of schemas) {
    if (entry.role === "dependency") continue;
    if (!bySha.has(entry.sha256)) {
      bySha.set(entry.sha256, entry);
      roots.push(entry);
    }
    registry.push({ url: entry.url, role: entry.role, ...nameOf(entry), module: moduleName(bySha.get(entry.sha256)) });
  }

  const out = new URL("stac/", generated);
  rmSync(out, { recursive: true, force: true });
  const write = (use, files) => {
    for (const [module, code] of files) {
      const file = new URL(`${use}/${module}.js`, out);
      mkdirSync(new URL(".", file), { recursive: true });
      writeFileSync(file, `// Generated by scripts/build-stac.mjs from schema/stac/. Do not edit.\n${code}`);
    }
  };
  const paths = (use) => ({
    runtimeFrom: (module) => relativeSpecifier(`stac/${use}/${module}.js`, "../ajv-runtime.js"),
    specifier: (from, to) => relativeSpecifier(`${use}/${from}.js`, `${use}/${to}.js`),
  });
  const documentModule = (url) => {
    const module = modules.get(url.replace(/#.*$/, ""));
    if (module === undefined) throw new Error(`Ajv compiled a schema of ${url}, which is not a bundled file`);
    return module;
  };

  // verdict/: the official files as they are.
  const verdict = ajvWith(false);
  write(
    "verdict",
    ajvModules({
      roots: roots.map((entry) => ({ module: moduleName(entry), validate: verdict.getSchema(entry.url), exportName: "validate" })),
      moduleOf: (validate) => documentModule(validate.schemaEnv.baseId),
      rewrite: (_fn, code) => withoutFailureDetails(code),
      minify: true,
      ...paths("verdict"),
    }),
  );

  // explain/: the expanded schemas, each part once.
  const shared = new SharedExpansion((url) => docs.get(url));
  const explained = new Map();
  for (const entry of roots) {
    const name = shared.add(entry.url);
    const { schema, sites, hints } = expand((url) => docs.get(url), entry.url);
    if (!isDeepStrictEqual(shared.materialize(name), schema)) throw new Error(`the shared expansion of ${entry.url} is not what expand() makes of it`);
    explained.set(moduleName(entry), { name, sites, hints });
  }
  const explain = ajvWith(true);
  explain.addSchema({ $id: SHARED, definitions: shared.definitions });
  const definitionOf = new Map(Object.entries(shared.definitions).map(([name, schema]) => [schema, name]));
  const partOf = (validate) => (validate.schemaEnv.baseId === SHARED ? definitionOf.get(validate.schemaEnv.schema) : undefined);
  write(
    "explain",
    ajvModules({
      roots: [...explained].map(([module, { name }]) => ({ module, validate: explain.getSchema(`${SHARED}#/definitions/${name}`), exportName: "validate" })),
      moduleOf: (validate) => {
        const part = partOf(validate);
        if (part === undefined) return documentModule(validate.schemaEnv.baseId);
        // An alias goes with its target.
        const alias = shared.aliases.get(part);
        return documentModule(shared.documents.get(alias === undefined ? part : alias.target.slice("#/definitions/".length)));
      },
      // An alias passes its target's failures up as they are: the part that holds it places them.
      rewrite: (fn, code, use) => (partOf(fn.validate) === undefined || shared.aliases.has(partOf(fn.validate)) ? code : placedFailures(fn, code, use, partOf, shared)),
      extra: (module) => {
        const root = explained.get(module);
        if (root === undefined) return "";
        // The typed forms of a large schema kept as a $ref (PROJJSON's) are told at each place that names it: written once.
        const hints = literal(root.hints);
        return [...hints.declarations, `export const sites = ${JSON.stringify(root.sites)};`, `export const hints = ${hints.expression};`].join("\n");
      },
      minify: true,
      ...paths("explain"),
    }),
  );

  writeFileSync(
    new URL("stac-registry.ts", generated),
    "// Generated by scripts/build-stac.mjs from schema/stac/provenance.json. Do not edit.\n" +
      "/** Every schema URL --stac checks offline, and the compiled modules (src/generated/stac/{verdict,explain}/<module>.js) that check it. */\n" +
      `export const bundledSchemas = ${JSON.stringify(registry, null, 2)} as const;\n`,
  );
  return roots.flatMap((entry) => ["verdict", "explain"].map((use) => `stac/${use}/${moduleName(entry)}.js`));
}

/** The specifier that imports `to` from `from`, both paths in the same tree. */
function relativeSpecifier(from, to) {
  const path = posix.relative(posix.dirname(from), to);
  return path.startsWith(".") ? path : `./${path}`;
}

/**
 * A part's code with the failures of what it calls placed in it: those of an alias (another part,
 * at the alias's site) rebased to the schema path they have in the expanded schema, those of a
 * schema too large to expand marked to keep their own (as expand() leaves them).
 */
function placedFailures(fn, code, use, partOf, shared) {
  for (const [prefix, names] of Object.entries(fn.source.scopeValues)) {
    if (prefix === "root" || prefix === "wrapper") throw new Error(`part ${partOf(fn.validate)} calls a schema being compiled: its failures cannot be placed`);
    if (prefix !== "validate") continue;
    for (const value of names.values()) {
      const callee = `${value}`;
      if (callee === fn.name) continue;
      const part = partOf(value.value.ref);
      const alias = part === undefined ? undefined : shared.aliases.get(part);
      if (part !== undefined && alias === undefined) throw new Error(`part ${partOf(fn.validate)} calls part ${part} other than through an alias`);
      const placed = alias === undefined ? `keepPaths(${callee}.errors)` : `rebase(${callee}.errors, ${JSON.stringify(alias.site)}, ${JSON.stringify(alias.target)})`;
      use(alias === undefined ? "keepPaths" : "rebase");
      code = code.replace(new RegExp(`\\b${callee}\\.errors\\b`, "g"), placed);
    }
  }
  return code;
}
