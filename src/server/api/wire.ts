/**
 * The TypeScript types of the wire, read from its JSON Schemas by json-schema-to-ts, so that each
 * shape is written once. json-schema-to-ts is a devDependency: the build writes each type made
 * here into the published declarations as the plain type it resolves to (scripts/wire-types.mjs),
 * so that `basemodel/api` needs nothing of it.
 */
import type { DeserializationPattern, FromSchema, JSONSchema } from "json-schema-to-ts";
import type { Closed } from "./strict.js";

/** A schema another names by `$ref`: it has an `$id`. */
type Reference = Exclude<JSONSchema, boolean> & { readonly $id: string };

/**
 * An answer: what its schema describes; `References` are the schemas it names by `$ref`.
 * `Overrides` type the parts whose schema says less than a TypeScript type can (json-schema-to-ts'
 * `deserialize`: a part that matches `pattern` has the type `output`).
 */
export type Answer<Schema extends JSONSchema, References extends Reference[] = [], Overrides extends DeserializationPattern[] = []> = FromSchema<
  Schema,
  { references: References; deserialize: Overrides }
>;

/**
 * A request (a body or a query string): the members its schema names, as a strict server accepts
 * them (others are ignored, and not part of the type); members with a default stay optional, as
 * the server fills none in. A schema named by `$ref` is closed only where it is itself a request
 * schema: its caller passes it `Closed`. `Overrides` as for an answer; there they also type the
 * parts that the server checks beyond their schema.
 */
export type Request<Schema extends JSONSchema, References extends Reference[] = [], Overrides extends DeserializationPattern[] = []> =
  Closed<Schema> extends infer Strict extends JSONSchema
    ? FromSchema<Strict, { keepDefaultedPropertiesOptional: true; references: References; deserialize: Overrides }>
    : never;
