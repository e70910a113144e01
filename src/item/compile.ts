import { createRequire } from "node:module";
import type { ErrorObject } from "ajv";
import validatePublished from "../generated/validate-item.js";
import { ajvOptions } from "../generated/schema.js";
import { buildSchema, isDefaultSchema, type SchemaSettings } from "./schema.js";

export type SchemaError = Pick<ErrorObject, "instancePath" | "schemaPath" | "keyword" | "params">;

/** A compiled schema check: true when the value passes; otherwise `errors` lists every failure. */
export interface CompiledCheck {
  (data: unknown): boolean;
  errors?: SchemaError[] | null;
}

const compiled = new Map<string, CompiledCheck>();

/**
 * The check for these settings. The published schema was compiled to code at build time, so
 * the default costs nothing here; another prefix or identifier is compiled once with Ajv,
 * which is loaded only then.
 */
export function compiledCheck(settings: SchemaSettings): CompiledCheck {
  if (isDefaultSchema(settings)) return validatePublished as CompiledCheck;
  const key = `${settings.prefix}\n${settings.schemaUrl}`;
  let check = compiled.get(key);
  if (!check) {
    const require = createRequire(import.meta.url);
    const Ajv = (require("ajv") as typeof import("ajv")).default;
    check = new Ajv(ajvOptions).compile(buildSchema(settings)) as CompiledCheck;
    compiled.set(key, check);
  }
  return check;
}
