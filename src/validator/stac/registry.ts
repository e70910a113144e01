import { bundledSchemas as generated } from "../../generated/stac-registry.js";
import { generatedModule, loadGeneratedModules } from "../../generated-modules.js";

/** One failure of a compiled STAC schema, as Ajv reports it. */
export interface SchemaFailure {
  instancePath: string;
  /** The full path from the schema's root: the build compiles an expanded copy (scripts/build-stac.mjs). */
  schemaPath: string;
  keyword: string;
  params: Record<string, unknown>;
}

/** One form of a union told apart by its "type" member: what an object of that form must have. */
export interface TypedForm {
  required: string[];
  /** Exactly one of these members (PROJJSON's datum or datum_ensemble). */
  either?: string[];
  /** The members it allows, when it allows no others. */
  members?: string[];
}

/** What the build recorded about the keyword at a schema path, for the messages. */
export type Hint =
  | { kind: "branches"; count: number }
  | { kind: "anything" }
  | { kind: "members"; members: string[]; patterns?: string[] }
  | { kind: "value"; value: unknown }
  | { kind: "contains"; value: unknown }
  | { kind: "pattern"; pattern: string }
  | { kind: "type"; type: string | string[] }
  | { kind: "condition"; member: string; value?: unknown; contains?: { member: string; value: unknown } }
  | { kind: "schema" }
  | { kind: "forms"; forms: Record<string, TypedForm[]> };

/** A bundled schema compiled ahead of time, with what the explainer needs to know about it. */
export interface CompiledSchema {
  (data: unknown): boolean;
  errors?: SchemaFailure[] | null;
  /** Where each $ref into the schema's own file was expanded: schema path -> "#/$defs/Name". */
  sites: Readonly<Record<string, string>>;
  hints: Readonly<Record<string, Hint>>;
}

export type BundledSchema = (typeof generated)[number];

/** A schema an item is checked against: bundled and compiled ahead of time, or mapped or downloaded and compiled at run time (runtime.ts). */
export interface SchemaToCheck {
  url: string;
  role: "core" | "extension";
  /** "core", or the extension ("mlm"): which cross-field rules apply. */
  family: string;
  /** Pass or fail only, and fast: the verdict an item that passes needs (may be `check` itself). */
  passes: (data: unknown) => boolean;
  /** Every failure, with the schema paths the explainer reads: run on an item `passes` failed. */
  check: CompiledSchema;
}

const byUrl = new Map<string, BundledSchema>(generated.map((schema) => [schema.url, schema]));

/** The bundled schema an item names, if any; "…/schema.json#" (an empty fragment) is the same URL. */
export function bundledSchema(url: string): BundledSchema | undefined {
  return byUrl.get(url.endsWith("#") ? url.slice(0, -1) : url);
}

export const bundledSchemas: readonly BundledSchema[] = generated;
export const coreSchemas: readonly BundledSchema[] = generated.filter((schema) => schema.role === "core");
export const extensionSchemas: readonly BundledSchema[] = generated.filter((schema) => schema.role === "extension");

/** The core item schema of a STAC version ("1.0.0", "1.1.0"). */
export function coreSchema(stacVersion: string): BundledSchema | undefined {
  return coreSchemas.find((schema) => schema.version === stacVersion);
}

/** The generated modules of a bundled schema (scripts/build-stac.mjs): its verdict, and its explanation. */
const modulesOf = (schema: BundledSchema) => [`stac/verdict/${schema.module}.js`, `stac/explain/${schema.module}.js`] as const;

function stacModule(schema: BundledSchema, path: string): unknown {
  return generatedModule(path, () => `the compiled STAC schema ${schema.url} is not loaded: call \`await loadStac(items)\` before validating with stac: true (where basemodel cannot load files as it needs them, as in a browser)`);
}

/** Loads the compiled modules of bundled schemas, so that they check items where nothing loads synchronously (see generated-modules.ts). */
export function loadBundledSchemas(schemas: Iterable<BundledSchema>): Promise<void> {
  return loadGeneratedModules([...schemas].flatMap(modulesOf));
}

const explained = new Map<BundledSchema["module"], CompiledSchema>();

/** The compiled check of a bundled schema: every failure, explained (see scripts/build-stac.mjs). */
export function compiled(schema: BundledSchema): CompiledSchema {
  let check = explained.get(schema.module);
  if (check === undefined) {
    const { validate, sites, hints } = stacModule(schema, modulesOf(schema)[1]) as Pick<CompiledSchema, "sites" | "hints"> & { validate: CompiledSchema };
    check = Object.assign(validate, { sites, hints });
    explained.set(schema.module, check);
  }
  return check;
}

const checks = new Map<string, SchemaToCheck>();

/**
 * A bundled schema to check an item against, made once per schema (every item asks for it). The
 * explaining module is loaded only when an item fails the verdict module, so an item that passes
 * loads and runs the small one alone.
 */
export function bundledCheck(schema: BundledSchema): SchemaToCheck {
  let check = checks.get(schema.url);
  if (check === undefined) {
    check = {
      url: schema.url,
      role: schema.role,
      family: schema.family,
      passes: (stacModule(schema, modulesOf(schema)[0]) as { validate: (data: unknown) => boolean }).validate,
      get check() {
        return compiled(schema);
      },
    };
    checks.set(schema.url, check);
  }
  return check;
}
