/**
 * Extension schemas basemodel does not bundle, from the user's schema map or the download cache,
 * compiled with Ajv when an item first names them. They are prepared as the bundled ones are
 * (expand.ts), so that the same explainer words their failures and the same cross-field rules
 * apply. Ajv is loaded only then.
 */
import { nodeModuleFor } from "../../package-files.js";
import { AJV_MODULES, AJV_OPTIONS, draftOf, expand, referencedDocuments, UnresolvedReference } from "./expand.js";
import type { CompiledSchema } from "./registry.js";
import { SchemaProblem, SchemaSources, withoutFragment } from "./sources.js";

/** A schema basemodel compiled itself, or why it could not. */
export type RuntimeSchema = { check: CompiledSchema; file: string } | { problem: string };

interface AjvInstance {
  addSchema(schema: object): unknown;
  compile(schema: object): CompiledSchema;
  validateSchema(schema: unknown): boolean;
  errors?: Array<{ instancePath: string; message?: string }> | null;
}

function ajvFor(draft: string): AjvInstance {
  const module = AJV_MODULES[draft];
  if (module === undefined) {
    throw new SchemaProblem(`it is written in JSON Schema ${JSON.stringify(draft)}; basemodel compiles draft-07, 2019-09 and 2020-12`);
  }
  const require = nodeModuleFor("node:module", "a mapped or downloaded schema").createRequire(import.meta.url);
  const Ajv = (require(module) as { default: new (options: object) => AjvInstance }).default;
  // With Ajv's messages: what is wrong with a schema is said in them.
  const ajv = new Ajv({ ...AJV_OPTIONS, messages: true });
  (require("ajv-formats") as (ajv: AjvInstance, formats: string[]) => unknown)(ajv, ["date-time"]);
  return ajv;
}

export class RuntimeSchemas {
  private readonly compiled = new Map<string, RuntimeSchema>();

  constructor(readonly sources: SchemaSources) {}

  /**
   * The schema of an extension URL when the user mapped it or it was downloaded; undefined when
   * neither (a bundled URL is checked by its compiled module, an unknown one is a warning).
   */
  find(url: string): RuntimeSchema | undefined {
    const key = withoutFragment(url);
    const known = this.compiled.get(key);
    if (known !== undefined) return known;
    const location = this.sources.locate(key);
    if (location === undefined || location.origin === "bundled") return undefined;
    let found: RuntimeSchema;
    try {
      found = { check: this.compile(key), file: location.file };
    } catch (error) {
      if (!(error instanceof SchemaProblem)) throw error;
      found = { problem: error.message };
    }
    this.compiled.set(key, found);
    return found;
  }

  /** The check of one URL: expanded from its documents, compiled by the Ajv of its draft. */
  private compile(url: string): CompiledSchema {
    const documents = new Map<string, unknown>();
    const resolve = (documentUrl: string): unknown => {
      if (!documents.has(documentUrl)) {
        const location = this.sources.locate(documentUrl);
        documents.set(documentUrl, location === undefined ? undefined : this.sources.read(location));
      }
      return documents.get(documentUrl);
    };
    const root = resolve(url);
    let expanded;
    try {
      expanded = expand(resolve, url);
    } catch (error) {
      if (!(error instanceof UnresolvedReference)) throw error;
      const missing = error.partMissing ? "which does not have that part" : "which is not bundled, not mapped and not downloaded";
      throw new SchemaProblem(`its schema's $ref ${JSON.stringify(error.ref)} (in ${error.from}) points to ${error.document}, ${missing}`);
    }
    const draft = draftOf(root);
    const ajv = ajvFor(draft);
    // Checked as written, so that the place named is a place in the file.
    if (!ajv.validateSchema(root)) {
      const [first] = ajv.errors ?? [];
      throw new SchemaProblem(`its schema is not a valid JSON Schema: ${first?.instancePath || "the root"} ${first?.message ?? "breaks the meta-schema"}`);
    }
    try {
      // $refs kept as they are (cycles, PROJJSON's large definitions) are resolved by Ajv: every
      // document they may lead to is registered under the URL it was requested at, as in the build.
      for (const [documentUrl, doc] of reachable(resolve, url)) {
        if (documentUrl !== url && draftOf(doc) === draft && typeof doc === "object") ajv.addSchema({ ...doc, $id: documentUrl });
      }
      const check = ajv.compile({ ...(expanded.schema as object), $id: `urn:basemodel:mapped:${url}` });
      return Object.assign(check, { sites: expanded.sites, hints: expanded.hints });
    } catch (error) {
      if (error instanceof SchemaProblem) throw error;
      throw new SchemaProblem(`its schema does not compile: ${(error as Error).message}`);
    }
  }
}

/** Every document reachable from a URL through $refs, those basemodel has (a missing one is reported where it is used). */
function reachable(resolve: (url: string) => unknown, url: string): Map<string, unknown> {
  const found = new Map<string, unknown>();
  const pending = [url];
  while (pending.length > 0) {
    const next = pending.pop()!;
    if (found.has(next)) continue;
    const doc = resolve(next);
    if (doc === undefined) continue;
    found.set(next, doc);
    pending.push(...referencedDocuments(doc, next));
  }
  return found;
}
