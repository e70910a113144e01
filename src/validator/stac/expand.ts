/**
 * A JSON Schema made ready for Ajv and for the explainer (explain.ts), shared by the build
 * (scripts/build-stac.mjs compiles the bundled schemas ahead of time) and by the schemas a user
 * maps or fetches (runtime.ts compiles them when an item first names them), so that both are
 * explained alike.
 *
 * The schema is expanded: its $refs (into the same file or another one) are replaced by what they
 * point to, so that every error's schemaPath is the full path from the root. That is what lets
 * the explainer tell which branch of an anyOf/oneOf an error came from, and a cross-field rule
 * which named part of the schema ("#/$defs/AnyBandsRef") failed. Draft-07 ignores the siblings of
 * $ref, so replacing the node keeps the meaning. Cycles (PROJJSON) keep their $ref.
 *
 * Nothing here loads Ajv: the build and the run time each load it their own way.
 */
import type { Hint, TypedForm } from "./registry.js";

/** A schema document by the URL it is requested at, or undefined when there is none. */
export type Resolve = (url: string) => unknown;

/** The Ajv module for each JSON Schema draft ($schema without its "#"); draft-07 when a schema names none. */
export const AJV_MODULES: Readonly<Record<string, string>> = {
  "http://json-schema.org/draft-07/schema": "ajv",
  "https://json-schema.org/draft/2019-09/schema": "ajv/dist/2019",
  "https://json-schema.org/draft/2020-12/schema": "ajv/dist/2020",
};

/**
 * allErrors: every broken rule, as the base model schema. Ajv's messages are not used (ours are),
 * and leaving them out makes compiled code a tenth smaller. Unknown formats (iri) are not
 * checked, as the STAC tools do not check them; date-time is (ajv-formats).
 */
export const AJV_OPTIONS = { allErrors: true, strict: false, messages: false, logger: false } as const;

export const draftOf = (schema: unknown): string =>
  String((schema as { $schema?: unknown } | null)?.$schema ?? "http://json-schema.org/draft-07/schema").replace(/#$/, "");

/** A $ref whose document or part cannot be found. */
export class UnresolvedReference extends Error {
  override name = "UnresolvedReference";
  constructor(
    readonly ref: string,
    /** The document the $ref is written in. */
    readonly from: string,
    /** The document it points to. */
    readonly document: string,
    /** True when the document was found but the part the $ref names is not in it. */
    readonly partMissing: boolean,
  ) {
    super(`$ref ${JSON.stringify(ref)} in ${from} points to ${partMissing ? `a part ${document} does not have` : document}`);
  }
}

type Node = Record<string, unknown>;

const ANNOTATIONS = new Set(["title", "description", "$comment", "examples", "default", "$schema", "$id"]);
/** Keywords whose value is a map of names to schemas. */
const SCHEMA_MAPS = new Set(["properties", "patternProperties", "dependencies"]);
/** Keywords whose value is data, never a schema. */
const DATA = new Set(["enum", "const", "required"]);

const isNode = (value: unknown): value is Node => value !== null && typeof value === "object" && !Array.isArray(value);

/** A JSON Pointer segment as Ajv writes it in schemaPath (pointer-escaped, then URI-encoded). */
const segment = (name: string) => encodeURIComponent(name.replace(/~/g, "~0").replace(/\//g, "~1"));

/**
 * MLM 1.0.0 writes "$comment": "..." among the members of `properties`, a string where a schema
 * belongs. Validators read it as a schema with no keywords (it allows anything); so does this
 * compiler, with `true` in its place. A `dependencies` entry may be a list of names.
 */
const schemaOrNames = (value: unknown) => typeof value === "boolean" || (value !== null && typeof value === "object");

function pointerGet(doc: unknown, pointer: string): unknown {
  let node = doc;
  for (const raw of pointer.split("/").slice(1)) {
    const name = decodeURIComponent(raw).replace(/~1/g, "/").replace(/~0/g, "~");
    if (node === null || typeof node !== "object" || !Object.hasOwn(node, name)) return undefined;
    node = (node as Node)[name];
  }
  return node;
}

/** A $ref as the document URL it points into and the pointer inside it. */
function target(ref: string, base: string): { document: string; pointer: string; key: string } {
  const url = new URL(ref, base);
  const pointer = decodeURIComponent(url.hash.slice(1));
  url.hash = "";
  return { document: url.href, pointer, key: `${url.href}#${pointer}` };
}

/** Every document a schema document's $refs point into (absolute URLs, without fragment), its own excepted. */
export function referencedDocuments(doc: unknown, base: string): string[] {
  const found = new Set<string>();
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) node.forEach(visit);
    else if (isNode(node)) {
      for (const [keyword, value] of Object.entries(node)) {
        if (keyword === "$ref" && typeof value === "string") {
          try {
            found.add(target(value, base).document);
          } catch {
            // Not a URL even against the base: expanding the schema says so where it matters.
          }
        } else if (!DATA.has(keyword)) visit(value);
      }
    }
  };
  visit(doc);
  found.delete(new URL(base).href.replace(/#.*$/, ""));
  return [...found];
}

/** How a `not`, `contains` or closed object reads, for the explainer's messages. */
function describe(schema: unknown): Hint {
  if (schema === true || (isNode(schema) && Object.keys(schema).length === 0)) return { kind: "anything" };
  if (!isNode(schema)) return { kind: "schema" };
  if (Array.isArray(schema.required) && schema.required.length > 0) return { kind: "members", members: schema.required as string[] };
  if (Array.isArray(schema.anyOf) && schema.anyOf.every((branch) => isNode(branch) && Array.isArray(branch.required) && branch.required.length === 1)) {
    return { kind: "members", members: (schema.anyOf as Array<{ required: string[] }>).map((branch) => branch.required[0]!) };
  }
  if ("const" in schema) return { kind: "value", value: schema.const };
  if (isNode(schema.contains) && "const" in schema.contains) return { kind: "contains", value: schema.contains.const };
  if (typeof schema.pattern === "string") return { kind: "pattern", pattern: schema.pattern };
  if (typeof schema.type === "string" || Array.isArray(schema.type)) return { kind: "type", type: schema.type as string | string[] };
  return { kind: "schema" };
}

// A target whose expansion would be larger than this many schema nodes keeps its $ref: PROJJSON's
// definitions refer to each other so much that expanding them never ends in practice. Errors
// inside such a target are still explained, only without knowing the anyOf branch above them.
const INLINE_LIMIT = 5000;

/**
 * The condition of an if/then/else when it is one member's value ("label:type" is "raster"), for
 * saying why its then (or else) applies. A test of the item's own "type" says nothing a person
 * needs to hear.
 */
function conditionOf(schema: unknown, path: string[] = []): Extract<Hint, { kind: "condition" }> | undefined {
  const entries = Object.entries(isNode(schema) && isNode(schema.properties) ? schema.properties : {});
  if (entries.length !== 1 || Object.keys(schema as Node).some((keyword) => keyword !== "properties" && keyword !== "required")) return undefined;
  const [[member, test]] = entries as [[string, unknown]];
  if (!isNode(test)) return undefined;
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

type Lookup = (ref: string, base: string) => { key: string; document: string; resolved: unknown };

const stringsOf = (value: unknown): string[] => (Array.isArray(value) ? value.filter((entry): entry is string => typeof entry === "string") : []);

/** What an object of one form must have, read from its schema and the allOf parts it names. */
function formOf(node: Node, base: string, lookup: Lookup): TypedForm {
  const form: TypedForm = { required: [] };
  const collect = (part: unknown, from: string, seen: Set<string>): void => {
    if (!isNode(part)) return;
    if (typeof part.$ref === "string") {
      const to = lookup(part.$ref, from);
      if (!seen.has(to.key)) collect(to.resolved, to.document, new Set([...seen, to.key]));
      return;
    }
    form.required.push(...stringsOf(part.required).filter((name) => name !== "type" && !form.required.includes(name)));
    const oneOf = Array.isArray(part.oneOf) ? part.oneOf : [];
    const singles = oneOf.map((branch) => (isNode(branch) ? stringsOf(branch.required) : []));
    if (singles.length > 1 && singles.every((names) => names.length === 1)) form.either = singles.flat();
    if (Array.isArray(part.allOf)) for (const child of part.allOf) collect(child, from, seen);
  };
  collect(node, base, new Set());
  if (node.additionalProperties === false && isNode(node.properties)) form.members = Object.keys(node.properties);
  return form;
}

/**
 * The forms of a union told apart by its "type" member (PROJJSON: GeographicCRS, ProjectedCRS,
 * ...), walking its oneOf/anyOf and $refs. A target too large to expand is compiled apart, so its
 * failures carry no path to the branch they come from: the explainer judges the value against
 * the form its "type" names instead.
 */
function typedForms(schema: unknown, base: string, lookup: Lookup): Record<string, TypedForm[]> {
  const forms: Record<string, TypedForm[]> = {};
  const seen = new Set<string>();
  const walk = (node: unknown, from: string): void => {
    if (!isNode(node)) return;
    if (typeof node.$ref === "string") {
      const to = lookup(node.$ref, from);
      if (seen.has(to.key)) return;
      seen.add(to.key);
      return walk(to.resolved, to.document);
    }
    const type = isNode(node.properties) ? node.properties.type : undefined;
    const names = isNode(type) ? ("const" in type ? stringsOf([type.const]) : stringsOf(type.enum)) : [];
    if (names.length > 0) {
      const form = formOf(node, from, lookup);
      for (const name of names) (forms[name] ??= []).push(form);
      return;
    }
    for (const keyword of ["oneOf", "anyOf"]) if (Array.isArray(node[keyword])) for (const branch of node[keyword] as unknown[]) walk(branch, from);
  };
  walk(schema, base);
  return forms;
}

export interface Expanded {
  schema: unknown;
  /** For every $ref into the root's own file: where it was put (schema path) and what it named ("#/$defs/Name"). */
  sites: Record<string, string>;
  /** What the explainer needs to know at a schema path (see Hint). */
  hints: Record<string, Hint>;
}

/** A $ref, found where `copy` meets it: the node that holds it, the document it is written in, and its schema path. */
type RefNode = (node: Node & { $ref: string }, base: string, at: string) => unknown;

/**
 * A copy of a schema node for Ajv: annotations and definitions dropped, a string where a schema
 * belongs read as `true`, and every $ref node replaced by what `ref` makes of it. `visited` sees
 * each other node with its copy, at its schema path.
 */
function copy(node: unknown, base: string, at: string, ref: RefNode, visited?: (node: Node, out: Node, at: string) => void): unknown {
  if (Array.isArray(node)) return node.map((child, index) => copy(child, base, `${at}/${index}`, ref, visited));
  if (!isNode(node)) return node;
  if (typeof node.$ref === "string") return ref(node as Node & { $ref: string }, base, at);
  const out: Node = {};
  for (const [keyword, value] of Object.entries(node)) {
    if (ANNOTATIONS.has(keyword) || keyword === "definitions" || keyword === "$defs") continue;
    if (DATA.has(keyword)) out[keyword] = value;
    else if (SCHEMA_MAPS.has(keyword) && isNode(value)) {
      out[keyword] = Object.fromEntries(
        Object.entries(value).map(([name, child]) => [name, schemaOrNames(child) ? copy(child, base, `${at}/${keyword}/${segment(name)}`, ref, visited) : true]),
      );
    } else out[keyword] = copy(value, base, `${at}/${keyword}`, ref, visited);
  }
  visited?.(node, out, at);
  return out;
}

/** A $ref resolved: the document it points into, the pointer inside it, "<document>#<pointer>", and what is there. */
interface Target {
  document: string;
  pointer: string;
  key: string;
  resolved: unknown;
}

/** Resolves $refs against `resolve`'s documents, and tells which targets are too large to expand (INLINE_LIMIT). */
function referenceTargets(resolve: Resolve) {
  const sizes = new Map<string, number>();
  const lookup = (ref: string, base: string): Target => {
    const to = target(ref, base);
    const doc = resolve(to.document);
    const resolved = doc === undefined ? undefined : pointerGet(doc, to.pointer);
    if (resolved === undefined) throw new UnresolvedReference(ref, base, to.document, doc !== undefined);
    return { ...to, resolved };
  };

  /** The number of schema nodes a target expands to (a $ref met again inside itself counts as one). */
  const expandedSize = (key: string, node: unknown, base: string, open = new Set<string>()): number => {
    const known = sizes.get(key);
    if (known !== undefined) return known;
    open.add(key);
    let size = 0;
    const count = (value: unknown, from: string): void => {
      if (size > INLINE_LIMIT || value === null || typeof value !== "object") return;
      size++;
      const ref = (value as Node).$ref;
      if (typeof ref === "string") {
        const to = lookup(ref, from);
        // Another document too large to expand keeps its $ref, one node here, so that the schema
        // around it (datacube's dimensions around PROJJSON) is still expanded. Within one
        // document, the parts of a large target stay together.
        const inner = open.has(to.key) ? 0 : expandedSize(to.key, to.resolved, to.document, open);
        size += inner > INLINE_LIMIT && to.document !== from ? 1 : inner;
        return;
      }
      for (const [keyword, child] of Object.entries(value)) {
        if (!DATA.has(keyword) && !ANNOTATIONS.has(keyword) && keyword !== "definitions" && keyword !== "$defs") count(child, from);
      }
    };
    count(node, base);
    open.delete(key);
    sizes.set(key, size);
    return size;
  };
  const tooLarge = (to: Target) => expandedSize(to.key, to.resolved, to.document) > INLINE_LIMIT;
  return { lookup, tooLarge };
}

/**
 * The schema at `rootUrl` with its $refs replaced by their targets, and what the explainer needs:
 * how many branches an anyOf/oneOf has, what a `not` or `contains` asks, which members an object
 * closed by `additionalProperties: false` allows. Throws UnresolvedReference for a $ref to a
 * document `resolve` does not have.
 */
export function expand(resolve: Resolve, rootUrl: string): Expanded {
  const { lookup, tooLarge } = referenceTargets(resolve);
  const sites: Record<string, string> = {};
  const hints: Record<string, Hint> = {};
  const hinted = (node: Node, out: Node, at: string): void => {
    for (const keyword of ["anyOf", "oneOf"]) {
      const branches = node[keyword];
      if (Array.isArray(branches)) hints[`${at}/${keyword}`] = { kind: "branches", count: branches.length };
    }
    if ("not" in node) hints[`${at}/not`] = describe(out.not);
    const condition = "if" in node && ("then" in node || "else" in node) ? conditionOf(out.if) : undefined;
    if (condition) hints[`${at}/if`] = condition;
    if ("contains" in node) hints[`${at}/contains`] = describe(out.contains);
    if (node.additionalProperties === false) {
      hints[`${at}/additionalProperties`] = {
        kind: "members",
        members: Object.keys(isNode(node.properties) ? node.properties : {}),
        patterns: Object.keys(isNode(node.patternProperties) ? node.patternProperties : {}),
      };
    }
  };
  const inline = (stack: readonly string[]): RefNode => (node, base, at) => {
    const to = lookup(node.$ref, base);
    if (stack.includes(to.key) || tooLarge(to)) {
      const forms = typedForms(to.resolved, to.document, lookup);
      if (Object.keys(forms).length > 1) hints[at] = { kind: "forms", forms };
      return { $ref: to.key };
    }
    if (to.document === rootUrl && to.pointer !== "") sites[at] = `#${to.pointer}`;
    return copy(to.resolved, to.document, at, inline([...stack, to.key]), hinted);
  };
  const schema = copy(resolve(rootUrl), rootUrl, "#", inline([`${rootUrl}#`]), hinted);
  return { schema, sites, hints };
}

/** Where the failures of an alias's target belong (see SharedExpansion). */
export interface AliasSite {
  /** The schema path of the $ref the alias stands for, in the definition that holds it. */
  site: string;
  /** The definition of the target: "#/definitions/t3". */
  target: string;
}

/**
 * Many roots expanded into one document, each part once: what expand() would copy into every
 * place that names it is a definition here, and each place ($ref site) names it through an alias,
 * `{"$ref": "#/definitions/t3"}`, one per target and site. Compiled with Ajv, a part is one
 * function whatever the number of roots and places that use it, and the alias's function tells
 * where a failure comes from: prefixing the failures it passes up with `site` gives each failure
 * the schema path expand() gives it (scripts/build-stac.mjs does that in the code it writes).
 * Parts that expand alike are one definition, whichever file and version they come from (MLM
 * 1.5.1 and 1.5.2 share all but a few).
 *
 * Targets too large to expand keep their $ref, as in expand(), and so does a target met again
 * inside itself: core STAC 1.1.0's common fields hold bands, whose entries hold the common
 * fields. What a target expands to depends on which of the targets it reaches are being expanded
 * around it, so such a target may have a definition for each.
 */
export class SharedExpansion {
  readonly definitions: Record<string, unknown> = {};
  /** Alias definition name -> the site it stands for. */
  readonly aliases = new Map<string, AliasSite>();
  /** Part definition name -> the URL of the document it was first met in. */
  readonly documents = new Map<string, string>();
  /** "<target key>\n<the keys around it that it reaches>" -> definition name. */
  private readonly names = new Map<string, string>();
  /** A definition's JSON -> its name. */
  private readonly byContent = new Map<string, string>();
  /** "<target>\n<site>" -> alias name. */
  private readonly aliasNames = new Map<string, string>();
  private readonly reaches = new Map<string, ReadonlySet<string>>();
  private readonly targets: ReturnType<typeof referenceTargets>;

  constructor(resolve: Resolve) {
    this.targets = referenceTargets(resolve);
  }

  /** The definition of a root: its schema as expand() makes it, with each expanded target named through an alias. */
  add(rootUrl: string): string {
    return this.define(this.targets.lookup(rootUrl, rootUrl), []);
  }

  /** The $refs a target's node holds, resolved. */
  private refsOf(to: Target): Target[] {
    const found: Target[] = [];
    copy(to.resolved, to.document, "#", (node, base) => {
      found.push(this.targets.lookup(node.$ref, base));
      return node;
    });
    return found;
  }

  /** Every target a target's expansion may copy: those its $refs name, and theirs, but none too large to expand. */
  private reach(to: Target): ReadonlySet<string> {
    let reached = this.reaches.get(to.key);
    if (reached === undefined) {
      const found = new Set<string>();
      const pending = [to];
      while (pending.length > 0) {
        for (const next of this.refsOf(pending.pop()!)) {
          if (found.has(next.key) || this.targets.tooLarge(next)) continue;
          found.add(next.key);
          pending.push(next);
        }
      }
      this.reaches.set(to.key, (reached = found));
    }
    return reached;
  }

  /** The definition of a target expanded inside the targets of `around` (keys), as expand() expands it there. */
  private define(to: Target, around: readonly string[]): string {
    const reached = this.reach(to);
    const key = [to.key, ...around.filter((outer) => reached.has(outer))].join("\n");
    const known = this.names.get(key);
    if (known !== undefined) return known;
    const inside = [...around, to.key];
    const definition = copy(to.resolved, to.document, "#", (node, base, at) => {
      const found = this.targets.lookup(node.$ref, base);
      if (inside.includes(found.key) || this.targets.tooLarge(found)) return { $ref: found.key };
      return { $ref: `#/definitions/${this.alias(`#/definitions/${this.define(found, inside)}`, at)}` };
    });
    const content = JSON.stringify(definition);
    let name = this.byContent.get(content);
    if (name === undefined) {
      name = `t${this.byContent.size}`;
      this.byContent.set(content, name);
      this.definitions[name] = definition;
      this.documents.set(name, to.document);
    }
    this.names.set(key, name);
    return name;
  }

  private alias(target: string, site: string): string {
    const key = `${target}\n${site}`;
    let name = this.aliasNames.get(key);
    if (name === undefined) {
      name = `a${this.aliasNames.size}`;
      this.aliasNames.set(key, name);
      this.aliases.set(name, { site, target });
      // A schema that is a $ref alone is its target to Ajv: the comment keeps the alias a function of its own.
      this.definitions[name] = { $ref: target, $comment: `at ${site}` };
    }
    return name;
  }

  /** A root's schema with every alias replaced by its target: what expand() returns for it, for the build to check. */
  materialize(name: string): unknown {
    const visit = (node: unknown): unknown => {
      if (Array.isArray(node)) return node.map(visit);
      if (!isNode(node)) return node;
      const ref = node.$ref;
      if (typeof ref === "string" && ref.startsWith("#/definitions/")) {
        const alias = this.aliases.get(ref.slice("#/definitions/".length));
        if (alias !== undefined) return visit(this.definitions[alias.target.slice("#/definitions/".length)]);
      }
      return Object.fromEntries(Object.entries(node).map(([keyword, value]) => [keyword, visit(value)]));
    };
    return visit(this.definitions[name]);
  }
}
