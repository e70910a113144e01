// Build step for --stac: the official STAC schemas bundled in schema/stac/ (see provenance.json
// there), compiled ahead of time by Ajv into one CommonJS module per schema an item can name
// (core item by stac_version, each extension by its URL). The validator loads a module only
// when an item asks for it, synchronously (require), so validateItem stays synchronous.
//
// Each schema is compiled from an expanded copy: its $refs (into the same file or another
// bundled file) are replaced by what they point to, so that every error's schemaPath is the
// full path from the root. That is what lets the explainer (src/stac/explain.ts) tell which
// branch of an anyOf/oneOf an error came from, and a cross-field rule which named part of the
// schema ("#/$defs/AnyBandsRef") failed. Draft-07 ignores the siblings of $ref, so replacing
// the node keeps the meaning; a test compares every verdict with another implementation run
// on the official files. Cycles (PROJJSON) keep their $ref.
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);
const standaloneCode = require("ajv/dist/standalone").default;
const addFormats = require("ajv-formats");

/** Ajv for each JSON Schema draft the bundled files declare. */
const AJV_BY_DRAFT = {
  "http://json-schema.org/draft-07/schema": () => require("ajv").default,
  "https://json-schema.org/draft/2019-09/schema": () => require("ajv/dist/2019").default,
  "https://json-schema.org/draft/2020-12/schema": () => require("ajv/dist/2020").default,
};

// allErrors: every broken rule, as the base model schema. Ajv's messages are not used (ours
// are), and leaving them out makes the code a tenth smaller. Unknown formats (iri) are not
// checked, as the STAC tools do not check them.
const AJV_OPTIONS = { allErrors: true, strict: false, messages: false, logger: false, code: { source: true } };

const ANNOTATIONS = new Set(["title", "description", "$comment", "examples", "default", "$schema", "$id"]);
/** Keywords whose value is a map of names to schemas. */
const SCHEMA_MAPS = new Set(["properties", "patternProperties", "dependencies"]);
/** Keywords whose value is data, never a schema. */
const DATA = new Set(["enum", "const", "required"]);

/** A JSON Pointer segment as Ajv writes it in schemaPath (pointer-escaped, then URI-encoded). */
const segment = (name) => encodeURIComponent(String(name).replace(/~/g, "~0").replace(/\//g, "~1"));

/**
 * MLM 1.0.0 writes "$comment": "..." among the members of `properties`, a string where a schema
 * belongs. Validators read it as a schema with no keywords (it allows anything); so does this
 * compiler, with `true` in its place. A `dependencies` entry may be a list of names.
 */
const schemaOrNames = (value) => typeof value === "boolean" || (value !== null && typeof value === "object");

const draftOf = (schema) => String(schema.$schema ?? "http://json-schema.org/draft-07/schema").replace(/#$/, "");

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

function pointerGet(doc, pointer) {
  let node = doc;
  for (const raw of pointer.split("/").slice(1)) {
    const name = decodeURIComponent(raw).replace(/~1/g, "/").replace(/~0/g, "~");
    if (node === null || typeof node !== "object" || !Object.hasOwn(node, name)) return undefined;
    node = node[name];
  }
  return node;
}

/** How a `not`, `contains` or closed object reads, for the explainer's messages. */
function describe(schema) {
  if (schema === true || (schema && typeof schema === "object" && Object.keys(schema).length === 0)) return { kind: "anything" };
  if (!schema || typeof schema !== "object") return { kind: "schema" };
  if (Array.isArray(schema.required) && schema.required.length > 0) return { kind: "members", members: schema.required };
  if (Array.isArray(schema.anyOf) && schema.anyOf.every((branch) => Array.isArray(branch?.required) && branch.required.length === 1)) {
    return { kind: "members", members: schema.anyOf.map((branch) => branch.required[0]) };
  }
  if ("const" in schema) return { kind: "value", value: schema.const };
  if (schema.contains && typeof schema.contains === "object" && "const" in schema.contains) return { kind: "contains", value: schema.contains.const };
  if (typeof schema.pattern === "string") return { kind: "pattern", pattern: schema.pattern };
  if (typeof schema.type === "string" || Array.isArray(schema.type)) return { kind: "type", type: schema.type };
  return { kind: "schema" };
}

// A target whose expansion would be larger than this many schema nodes keeps its $ref: PROJJSON's
// definitions refer to each other so much that expanding them never ends in practice. Errors
// inside such a target are still explained, only without knowing the anyOf branch above them.
const INLINE_LIMIT = 5000;
const sizes = new Map();

/** The number of schema nodes a target expands to (a $ref met again inside itself counts as one). */
function expandedSize(docs, key, node, base, open = new Set()) {
  if (sizes.has(key)) return sizes.get(key);
  open.add(key);
  let size = 0;
  const count = (value, from) => {
    if (size > INLINE_LIMIT || value === null || typeof value !== "object") return;
    size++;
    if (typeof value.$ref === "string") {
      const target = new URL(value.$ref, from);
      const pointer = decodeURIComponent(target.hash.slice(1));
      target.hash = "";
      const inner = `${target.href}#${pointer}`;
      if (open.has(inner)) return;
      const doc = docs.get(target.href);
      size += expandedSize(docs, inner, doc === undefined ? undefined : pointerGet(doc, pointer), target.href, open);
      return;
    }
    for (const [keyword, child] of Object.entries(value)) if (!DATA.has(keyword) && !ANNOTATIONS.has(keyword) && keyword !== "definitions" && keyword !== "$defs") count(child, from);
  };
  count(node, base);
  open.delete(key);
  sizes.set(key, size);
  return size;
}

/**
 * The condition of an if/then/else when it is one member's value ("label:type" is "raster"), for
 * saying why its then (or else) applies. A test of the item's own "type" says nothing a person
 * needs to hear.
 */
function conditionOf(schema, path = []) {
  const entries = Object.entries(schema?.properties ?? {});
  if (entries.length !== 1 || Object.keys(schema).some((keyword) => keyword !== "properties" && keyword !== "required")) return undefined;
  const [[member, test]] = entries;
  if (!test || typeof test !== "object") return undefined;
  // {"links": {"contains": {"properties": {"rel": {"const": "collection"}}}}}: a list holding an entry with a member's value.
  if (test.contains && Object.keys(test).length === 1) {
    const entry = conditionOf(test.contains);
    return entry && { kind: "condition", member: [...path, member].join("."), contains: { member: entry.member, value: entry.value } };
  }
  // {"properties": {"properties": {"properties": {"mlm:pretrained": {"const": false}}}}}: a member of a member.
  if (!("const" in test)) return conditionOf(test, [...path, member]);
  if ((path.length === 0 && member === "type") || Object.keys(test).length !== 1) return undefined;
  return { kind: "condition", member: [...path, member].join("."), value: test.const };
}

/**
 * The root with its $refs replaced by their targets. `sites` receives, for every $ref into the
 * root's own file, where it was put and what it named; `hints` what the explainer needs to know
 * at each path: how many branches an anyOf/oneOf has, what a `not` or `contains` asks, which
 * members an object closed by `additionalProperties: false` allows.
 */
function expand(docs, rootUrl) {
  const sites = {};
  const hints = {};
  const visit = (node, base, at, stack) => {
    if (Array.isArray(node)) return node.map((child, index) => visit(child, base, `${at}/${index}`, stack));
    if (node === null || typeof node !== "object") return node;
    if (typeof node.$ref === "string") {
      const target = new URL(node.$ref, base);
      const pointer = decodeURIComponent(target.hash.slice(1));
      target.hash = "";
      const key = `${target.href}#${pointer}`;
      const doc = docs.get(target.href);
      const resolved = doc === undefined ? undefined : pointerGet(doc, pointer);
      if (resolved === undefined) throw new Error(`${rootUrl}: $ref ${node.$ref} (from ${base}) is not in schema/stac`);
      if (stack.includes(key) || expandedSize(docs, key, resolved, target.href) > INLINE_LIMIT) return { $ref: key };
      if (target.href === rootUrl && pointer !== "") sites[at] = `#${pointer}`;
      return visit(resolved, target.href, at, [...stack, key]);
    }
    const out = {};
    for (const [keyword, value] of Object.entries(node)) {
      if (ANNOTATIONS.has(keyword) || keyword === "definitions" || keyword === "$defs") continue;
      if (DATA.has(keyword)) out[keyword] = value;
      else if (SCHEMA_MAPS.has(keyword) && value && typeof value === "object" && !Array.isArray(value)) {
        out[keyword] = Object.fromEntries(
          Object.entries(value).map(([name, child]) => [name, schemaOrNames(child) ? visit(child, base, `${at}/${keyword}/${segment(name)}`, stack) : true]),
        );
      } else out[keyword] = visit(value, base, `${at}/${keyword}`, stack);
    }
    for (const keyword of ["anyOf", "oneOf"]) if (Array.isArray(node[keyword])) hints[`${at}/${keyword}`] = { kind: "branches", count: node[keyword].length };
    if ("not" in node) hints[`${at}/not`] = describe(out.not);
    const condition = "if" in node && ("then" in node || "else" in node) ? conditionOf(out.if) : undefined;
    if (condition) hints[`${at}/if`] = condition;
    if ("contains" in node) hints[`${at}/contains`] = describe(out.contains);
    if (node.additionalProperties === false) {
      hints[`${at}/additionalProperties`] = { kind: "members", members: Object.keys(node.properties ?? {}), patterns: Object.keys(node.patternProperties ?? {}) };
    }
    return out;
  };
  const schema = visit(docs.get(rootUrl), rootUrl, "#", [`${rootUrl}#`]);
  return { schema, sites, hints };
}

/** "mlm" for .../mlm/v1.5.1/schema.json and .../mlm-extension/v1.0.0/schema.json; "core" for the item schema. */
function nameOf(entry) {
  const version = /\/v(\d+\.\d+\.\d+[^/]*)\//.exec(entry.url)?.[1];
  if (version === undefined) throw new Error(`no version in ${entry.url}`);
  if (entry.role === "core") return { family: "core", version };
  const family = /^https:\/\/[^/]+\/([^/]+)\/v/.exec(entry.url)[1].replace(/-extension$/, "");
  return { family, version };
}

/**
 * Writes src/generated/stac/<family>-<version>.cjs for every core and extension schema, and
 * src/generated/stac-registry.ts: every URL an item may name, and the module that checks it.
 */
export function buildStac(root, generated) {
  const { schemas, docs } = readBundle(root);
  const ajvs = new Map();
  const ajvFor = (draft) => {
    if (!ajvs.has(draft)) {
      const Ajv = AJV_BY_DRAFT[draft]?.();
      if (!Ajv) throw new Error(`no Ajv for JSON Schema ${draft}`);
      const ajv = new Ajv(AJV_OPTIONS);
      addFormats(ajv, ["date-time"]);
      // Every file under the URL it is published at: the $id in a file may be wrong (core
      // 1.1.0's common.json says .../commonjson, processing 1.1.0 names 1.0.0).
      for (const [url, doc] of docs) if (draftOf(doc) === draft) ajv.addSchema({ ...doc, $id: url });
      ajvs.set(draft, ajv);
    }
    return ajvs.get(draft);
  };

  const out = new URL("stac/", generated);
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  const banner = "// Generated by scripts/build-stac.mjs from schema/stac/. Do not edit.\n";
  const modules = new Map();
  const registry = [];
  for (const entry of schemas) {
    if (entry.role === "dependency") continue;
    const { family, version } = nameOf(entry);
    let module = modules.get(entry.sha256);
    if (module === undefined) {
      module = `${family}-${version}`;
      modules.set(entry.sha256, module);
      const doc = docs.get(entry.url);
      const { schema, sites, hints } = expand(docs, entry.url);
      const ajv = ajvFor(draftOf(doc));
      const validate = ajv.compile({ ...schema, $id: `urn:basemodel:stac:${module}` });
      const code = standaloneCode(ajv, validate);
      const explain = `module.exports.sites = ${JSON.stringify(sites)};\nmodule.exports.hints = ${JSON.stringify(hints)};\n`;
      writeFileSync(new URL(`${module}.cjs`, out), `${banner}${code}\n${explain}`);
    }
    registry.push({ url: entry.url, role: entry.role, family, version, module });
  }
  writeFileSync(
    new URL("stac-registry.ts", generated),
    "// Generated by scripts/build-stac.mjs from schema/stac/provenance.json. Do not edit.\n" +
      "/** Every schema URL --stac checks offline, and the compiled module (src/generated/stac/<module>.cjs) that checks it. */\n" +
      `export const bundledSchemas = ${JSON.stringify(registry, null, 2)} as const;\n`,
  );
}
