// Ajv's standalone code as ES modules, for the build (build.mjs, build-stac.mjs, build-rule-sets.mjs,
// build-inputs.mjs).
//
// Ajv's own standalone output is one module per compiled schema holding every function the schema
// reaches, and it require()s Ajv's runtime helpers even in its ESM form (ajv#2209). Here each
// compiled function goes into the module `moduleOf` names for it, once: a module imports the
// functions of other modules it calls (so a schema that many others refer to, such as PROJJSON,
// is compiled once), and the helpers from src/ajv-runtime.ts, which bundlers and Node resolve alike.
import { transformSync } from "esbuild";

/**
 * What Ajv's generated code requires, and the name src/ajv-runtime.ts exports it under, or
 * src/ajv-formats.ts beside it for the formats (FORMATS).
 */
const RUNTIME = new Map([
  ['require("ajv/dist/runtime/equal").default', "equal"],
  ['require("ajv/dist/runtime/ucs2length").default', "ucs2length"],
  ['require("ajv-formats/dist/formats").fullFormats', "fullFormats"],
]);

/**
 * The helpers of src/ajv-formats.ts: ajv-formats' formats take about a millisecond to load, and
 * the item schema, which every run of validate loads, checks none; only the modules that do
 * import them.
 */
const FORMATS = new Set(["fullFormats"]);

/** The code of a constant with its require() replaced by a helper's name; `use` records the helper. */
function withoutRequire(code, use) {
  return code.replace(/require\("[^"]+"\)\.[A-Za-z]+/g, (call) => {
    const name = RUNTIME.get(call);
    if (name === undefined) throw new Error(`Ajv's code needs ${call}, which neither src/ajv-runtime.ts nor src/ajv-formats.ts exports`);
    use(name);
    return name;
  });
}

const number = (name) => Number(/\d+$/.exec(name)[0]);

/**
 * Every function the roots reach, each with the module it goes to.
 * `moduleOf(validate)`: the module of a compiled function (its `schemaEnv` tells its schema).
 */
function reachable(roots, moduleOf) {
  const functions = new Map();
  const pending = roots.map((root) => root.validate);
  while (pending.length > 0) {
    const validate = pending.pop();
    const { source } = validate;
    if (source === undefined) throw new Error("Ajv must be created with code: { source: true }");
    const name = `${source.validateName}`;
    if (functions.has(name)) continue;
    functions.set(name, { name, validate, source, module: moduleOf(validate) });
    for (const [prefix, names] of Object.entries(source.scopeValues)) {
      for (const value of names.values()) {
        if (prefix === "validate") pending.push(value.value.ref);
        else if (prefix === "root" || prefix === "wrapper") pending.push(value.value.ref.validate);
      }
    }
  }
  return functions;
}

/**
 * ES modules for Ajv's compiled functions, by module name.
 *
 * `roots`: [{ module, validate, exportName }]: each root function is exported from its module under
 * `exportName`. `rewrite(fn, code, use)` may change a function's code (build-stac.mjs: the schema
 * path of its callees' failures), calling `use(name)` for each helper of src/ajv-runtime.ts the new
 * code calls; `runtimeFrom(module)` is the import specifier of src/ajv-runtime.js
 * from a module, `specifier(from, to)` that of one module from another. `extra(module)` is code a
 * module ends with (build-stac.mjs: what the explainer knows of a schema).
 */
export function ajvModules({ roots, moduleOf, rewrite = (_fn, code) => code, runtimeFrom, specifier, extra = () => "", minify = false }) {
  const functions = reachable(roots, moduleOf);
  const byModule = new Map();
  for (const fn of functions.values()) {
    if (!byModule.has(fn.module)) byModule.set(fn.module, []);
    byModule.get(fn.module).push(fn);
  }
  const exported = new Map();
  const exportFrom = (module, local, as = local) => {
    if (!exported.has(module)) exported.set(module, new Map());
    exported.get(module).set(as, local);
  };
  for (const root of roots) exportFrom(root.module, `${root.validate.source.validateName}`, root.exportName);

  const bodies = new Map();
  const importsOf = new Map();
  for (const [module, own] of byModule) {
    own.sort((a, b) => number(a.name) - number(b.name));
    const imports = new Map();
    const runtime = new Set();
    const constants = new Map();
    const code = [];
    const importFunction = (name) => {
      const callee = functions.get(name);
      if (callee.module === module) return;
      if (!imports.has(callee.module)) imports.set(callee.module, new Set());
      imports.get(callee.module).add(name);
      exportFrom(callee.module, name);
    };
    for (const fn of own) {
      const body = rewrite(fn, fn.source.validateCode, (helper) => runtime.add(helper));
      for (const [prefix, names] of Object.entries(fn.source.scopeValues)) {
        for (const value of names.values()) {
          const name = `${value}`;
          if (prefix === "validate") importFunction(name);
          else if (prefix === "root" || prefix === "wrapper") {
            const target = `${value.value.ref.validateName}`;
            importFunction(target);
            constants.set(name, `{validate: ${target}}`);
          } else if (!constants.has(name) && new RegExp(`\\b${name}\\b`).test(body)) {
            // Ajv names every function's schema; most functions never read it.
            if (value.value?.code === undefined) throw new Error(`Ajv's ${name} has no code`);
            constants.set(name, withoutRequire(`${value.value.code}`, (helper) => runtime.add(helper)));
          }
        }
      }
      code.push(body);
      if (fn.source.evaluated) code.push(`${fn.name}.evaluated = ${fn.source.evaluated};`);
    }
    const head = [];
    const helpers = [...runtime].sort();
    const [formats, others] = [helpers.filter((helper) => FORMATS.has(helper)), helpers.filter((helper) => !FORMATS.has(helper))];
    if (others.length > 0) head.push(`import { ${others.join(", ")} } from ${JSON.stringify(runtimeFrom(module))};`);
    // ajv-formats.js sits beside ajv-runtime.js, in src/ as in dist/.
    if (formats.length > 0) head.push(`import { ${formats.join(", ")} } from ${JSON.stringify(runtimeFrom(module).replace(/ajv-runtime\.js$/, "ajv-formats.js"))};`);
    importsOf.set(module, imports);
    bodies.set(module, { head, constants, code });
  }

  const modules = new Map();
  for (const [module, { head, constants, code }] of bodies) {
    const lines = [...head];
    for (const [from, names] of [...importsOf.get(module)].sort(([a], [b]) => a.localeCompare(b))) {
      lines.push(`import { ${[...names].sort((a, b) => number(a) - number(b)).join(", ")} } from ${JSON.stringify(specifier(module, from))};`);
    }
    for (const [name, value] of constants) lines.push(`const ${name} = ${value};`);
    lines.push(...code);
    const names = exported.get(module);
    if (names !== undefined) lines.push(`export { ${[...names].map(([as, local]) => (as === local ? local : `${local} as ${as}`)).join(", ")} };`);
    lines.push(extra(module));
    const text = `${lines.join("\n")}\n`;
    modules.set(module, minify ? transformSync(text, { minify: true, format: "esm", target: "es2022" }).code : text);
  }
  return modules;
}

/**
 * A value as JavaScript code, each object or array it holds more than once (and worth it: `least`
 * characters of JSON or more) written once in a constant before it: `{ declarations, expression }`.
 */
export function literal(value, least = 200) {
  const counts = new Map();
  const count = (node) => {
    if (node === null || typeof node !== "object") return;
    const json = JSON.stringify(node);
    counts.set(json, (counts.get(json) ?? 0) + 1);
    if ((counts.get(json) ?? 0) === 1) for (const child of Object.values(node)) count(child);
  };
  count(value);
  const names = new Map();
  const declarations = [];
  const write = (node, top) => {
    if (node === null || typeof node !== "object") return JSON.stringify(node);
    const json = JSON.stringify(node);
    if (!top && counts.get(json) > 1 && json.length >= least) {
      if (!names.has(json)) {
        const code = write(node, true);
        names.set(json, `shared${names.size}`);
        declarations.push(`const ${names.get(json)} = ${code};`);
      }
      return names.get(json);
    }
    if (Array.isArray(node)) return `[${node.map((child) => write(child, false)).join(",")}]`;
    return `{${Object.entries(node).map(([key, child]) => `${JSON.stringify(key)}:${write(child, false)}`).join(",")}}`;
  };
  const expression = write(value, true);
  return { declarations, expression };
}

/**
 * Ajv's code with every failure it builds left empty (`{}`): for a check whose caller reads only
 * pass or fail. Ajv builds a failure in each branch of a oneOf, anyOf or if that does not match,
 * even when the schema passes, with its instance path joined from strings; an empty one costs
 * nothing to build, and the code is about a third smaller to compile. Failures are still counted,
 * so the verdict is the same.
 */
export function withoutFailureDetails(code) {
  const FAILURE = "{instancePath";
  let out = "";
  let from = 0;
  for (let start = code.indexOf(FAILURE); start !== -1; start = code.indexOf(FAILURE, from)) {
    out += `${code.slice(from, start)}{}`;
    from = closingBrace(code, start) + 1;
  }
  return out + code.slice(from);
}

/** The index of the brace that closes the object literal opening at `start` (strings skipped: Ajv writes them with double quotes). */
function closingBrace(code, start) {
  let depth = 0;
  for (let i = start; i < code.length; i++) {
    const char = code[i];
    if (char === '"') {
      for (i++; code[i] !== '"'; i++) if (code[i] === "\\") i++;
    } else if (char === "{") depth++;
    else if (char === "}" && --depth === 0) return i;
  }
  throw new Error(`Ajv's failure at ${start} is not closed`);
}
