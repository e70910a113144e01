import { schema as publishedSchema } from "../../generated/schema.js";
import type { JsonSchema } from "../../diagnostics/json-schema.js";
import { describeValue } from "../../diagnostics/messages.js";

/** The service prefix of fAIr, written `svc:` in the specification. */
export const DEFAULT_PREFIX = "fair:";
/** The identifier of the base model schema v1.0.0, which every item lists in stac_extensions. */
export const DEFAULT_SCHEMA_URL = publishedSchema.$id;

export interface SchemaSettings {
  /** Service prefix of the item's own properties, ending in ":" (e.g. "fair:", "svc:"). */
  prefix: string;
  /** Schema identifier the item must list in stac_extensions. */
  schemaUrl: string;
}


/** Accepts "svc" or "svc:"; a prefix is a name that a property can start with. */
export function normalizePrefix(prefix: string): string {
  const withColon = prefix.endsWith(":") ? prefix : `${prefix}:`;
  if (!/^[A-Za-z][\w.-]*:$/.test(withColon)) {
    throw new TypeError(`prefix must be a name such as "fair:" or "svc:" (letters, digits, "_", "-", "."); found ${describeValue(prefix)}`);
  }
  return withColon;
}

export function normalizeSchemaUrl(schemaUrl: string): string {
  if (typeof schemaUrl !== "string" || schemaUrl.trim() === "" || schemaUrl !== schemaUrl.trim()) {
    throw new TypeError(`schemaUrl must be a non-empty identifier without surrounding spaces; found ${describeValue(schemaUrl)}`);
  }
  return schemaUrl;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/**
 * A rule set's schema (`source`, whose items list `sourceUrl`) re-targeted to another deployment
 * of the same format: member names with the fAIr prefix take the given prefix (so do
 * descriptions that name it), and the fAIr identifier becomes schemaUrl.
 */
export function buildSchema(source: JsonSchema, sourceUrl: string, settings: SchemaSettings): JsonSchema {
  const renameMember = (name: string) =>
    name.startsWith(DEFAULT_PREFIX) ? settings.prefix + name.slice(DEFAULT_PREFIX.length) : name;
  const prefixPattern = `^${escapeRegExp(DEFAULT_PREFIX)}`;
  const renamePattern = (pattern: string) =>
    pattern.startsWith(prefixPattern) ? `^${escapeRegExp(settings.prefix)}${pattern.slice(prefixPattern.length)}` : pattern;

  const walk = (node: unknown, keyOf: (key: string) => string = (key) => key): unknown => {
    if (typeof node === "string") return node === sourceUrl ? settings.schemaUrl : node.replaceAll(DEFAULT_PREFIX, settings.prefix);
    if (Array.isArray(node)) return node.map((element) => walk(element));
    if (node === null || typeof node !== "object") return node;
    const out: JsonSchema = {};
    for (const [key, value] of Object.entries(node)) {
      if (key === "properties") out[key] = walk(value, renameMember);
      else if (key === "patternProperties") out[key] = walk(value, renamePattern);
      else if (key === "required") out[key] = (value as string[]).map(renameMember);
      else out[keyOf(key)] = walk(value);
    }
    return out;
  };
  return walk(source) as JsonSchema;
}

/** The prefixed properties a rule set's schema defines (fair:metrics_spec, fair:split_spec, ...), under the given prefix. */
export function definedPrefixedMembers(source: JsonSchema, prefix: string): string[] {
  const properties = (source as { definitions: { properties: { properties: object } } }).definitions.properties.properties;
  return Object.keys(properties)
    .filter((name) => name.startsWith(DEFAULT_PREFIX))
    .map((name) => prefix + name.slice(DEFAULT_PREFIX.length));
}
