/**
 * The official STAC schemas basemodel bundles (schema/stac/, copied unchanged from where they are
 * published), by URL, checked by an independent implementation: @cfworker/json-schema (draft 7)
 * runs the official file itself, the files it refers to registered under their URLs. What the
 * differential tests hold --stac (and fAIr's CI, which runs these schemas) against.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { Validator as CfValidator, type Schema as CfSchema } from "@cfworker/json-schema";
import { isObject, type Json, type JsonObject } from "./json-edit.js";

const BUNDLE = path.resolve(__dirname, "../../schema/stac");

export interface OfficialEntry {
  file: string;
  url: string;
  role: "core" | "extension" | "dependency";
}

export const officialEntries = (JSON.parse(readFileSync(path.join(BUNDLE, "provenance.json"), "utf8")) as { schemas: OfficialEntry[] }).schemas;
export const officialSchemas: ReadonlyMap<string, JsonObject> = new Map(officialEntries.map((entry) => [entry.url, JSON.parse(readFileSync(path.join(BUNDLE, entry.file), "utf8")) as JsonObject]));

/** Every node of a schema document, depth first. */
export function* nodes(value: Json): Generator<Json> {
  yield value;
  if (Array.isArray(value)) for (const child of value) yield* nodes(child);
  else if (isObject(value)) for (const child of Object.values(value)) yield* nodes(child);
}

/** The files a schema refers to, transitively, by URL. */
function dependencies(url: string, found = new Set<string>()): Set<string> {
  for (const node of nodes(officialSchemas.get(url)!)) {
    if (!isObject(node) || typeof node.$ref !== "string" || node.$ref.startsWith("#")) continue;
    const target = new URL(node.$ref, url);
    target.hash = "";
    if (!found.has(target.href) && target.href !== url) {
      found.add(target.href);
      dependencies(target.href, found);
    }
  }
  return found;
}

/** cfworker on the official schema published at `url`, with the files it refers to. */
export function officialValidator(url: string): CfValidator {
  // cfworker annotates the schema objects it is given: it gets copies.
  const validator = new CfValidator(structuredClone({ ...officialSchemas.get(url)!, $id: url }) as CfSchema, "7", false);
  for (const dependency of dependencies(url)) validator.addSchema(structuredClone(officialSchemas.get(dependency)!) as CfSchema, dependency);
  return validator;
}
