import { createRequire } from "node:module";
import type { ErrorObject } from "ajv";
import validatePublished from "../generated/validate-item.js";
import { ajvOptions } from "../generated/schema.js";
import { LruCache } from "./lru.js";
import { buildSchema, isDefaultSchema, type SchemaSettings } from "./schema.js";

export type SchemaError = Pick<ErrorObject, "instancePath" | "schemaPath" | "keyword" | "params">;

/** A compiled schema check: true when the value passes; otherwise `errors` lists every failure. */
export interface CompiledCheck {
  (data: unknown): boolean;
  errors?: SchemaError[] | null;
}

/** Compiled checks of the last settings used: each holds Ajv's generated code. */
export const compiledChecks = new LruCache<string, CompiledCheck>(16);

/**
 * The check for these settings. The published schema was compiled to code at build time, so
 * the default costs nothing here; another prefix or identifier is compiled once with Ajv,
 * which is loaded only then.
 */
export function compiledCheck(settings: SchemaSettings): CompiledCheck {
  if (isDefaultSchema(settings)) return validatePublished as CompiledCheck;
  return compiledChecks.get(`${settings.prefix}\n${settings.schemaUrl}`, () => {
    const require = createRequire(import.meta.url);
    const Ajv = (require("ajv") as typeof import("ajv")).default;
    return new Ajv(ajvOptions).compile(buildSchema(settings)) as CompiledCheck;
  });
}
