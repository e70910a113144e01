/**
 * Request members a schema does not name are ignored, as the real services' models ignore them:
 * their clients send members that older versions never knew. A strict server (`basemodel serve
 * --strict-requests`) refuses them instead; its request schemas are these same schemas with every
 * object closed, so that its OpenAPI document says so too.
 */

type Schema = Record<string, unknown>;

/** Keywords whose value is one subschema. */
const ONE = ["items", "additionalProperties", "not", "if", "then", "else", "contains", "propertyNames"] as const;
/** Keywords whose value is a list of subschemas. */
const LIST = ["items", "anyOf", "oneOf", "allOf"] as const;
/** Keywords whose value maps names to subschemas. */
const MAP = ["properties", "patternProperties", "definitions", "$defs"] as const;

function isSchema(value: unknown): value is Schema {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/** Where these stand beside `properties`, other members are named elsewhere: closing the object would refuse them. */
const NAMED_ELSEWHERE = ["$ref", "anyOf", "oneOf", "allOf", "if"] as const;

/**
 * A copy of `schema` in which every object schema that lists its `properties` and says nothing of
 * others refuses others (`additionalProperties: false`). Schemas it only names by `$ref` (the
 * GeoJSON area, whose objects may carry foreign members) are not its to close. Examples,
 * defaults and enums are data, not schemas, and stay as they are.
 */
export function forbidUnknownMembers<S extends object>(schema: S): S {
  return close(schema as Schema) as S;
}

/**
 * What `forbidUnknownMembers` makes of a schema, as a type: the request types are read from it
 * (wire.ts), so that they name the members a request may have and no others.
 */
export type Closed<S> = S extends readonly unknown[]
  ? { [Index in keyof S]: Closed<S[Index]> }
  : S extends object
    ? { [Keyword in keyof S]: Keyword extends SubschemaKeyword ? Closed<S[Keyword]> : Keyword extends MapKeyword ? ClosedMembers<S[Keyword]> : S[Keyword] } & ClosedHere<S>
    : S;
type SubschemaKeyword = (typeof ONE)[number] | (typeof LIST)[number];
type MapKeyword = (typeof MAP)[number];
type ClosedMembers<Members> = { [Name in keyof Members]: Closed<Members[Name]> };
type ClosedHere<S> = S extends { properties: object } ? (Extract<keyof S, (typeof NAMED_ELSEWHERE)[number] | "additionalProperties"> extends never ? { additionalProperties: false } : unknown) : unknown;

function close(schema: Schema): Schema {
  const out: Schema = { ...schema };
  for (const keyword of ONE) if (isSchema(schema[keyword])) out[keyword] = close(schema[keyword]);
  for (const keyword of LIST) if (Array.isArray(schema[keyword])) out[keyword] = (schema[keyword] as unknown[]).map((item) => (isSchema(item) ? close(item) : item));
  for (const keyword of MAP) {
    const members = schema[keyword];
    if (isSchema(members)) out[keyword] = Object.fromEntries(Object.entries(members).map(([name, member]) => [name, isSchema(member) ? close(member) : member]));
  }
  const open = schema.additionalProperties === undefined && !NAMED_ELSEWHERE.some((keyword) => keyword in schema);
  if (isSchema(schema.properties) && open) out.additionalProperties = false;
  return out;
}
