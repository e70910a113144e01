/**
 * Type-level check: the hand-written item types (./types.ts) and the published schema
 * (schema/base-model-item.schema.json, as the `as const` object in ../generated/schema.ts) must
 * describe the same shapes. tsc fails (and so does `npm run build`) on the first
 * `Assert<...>` below that is not `true`; the alias name says which part drifted.
 * This file holds only types: it compiles to `export {};`.
 *
 * For every part (item, properties, assets, each asset, mlm:input item, mlm:output item,
 * processing function, classification class, metrics spec item, split spec):
 *   - Same:     the hand-written type and FromSchema<schema part> are assignable both ways
 *               (member types, enums, const, string|null, arrays and their element types,
 *               required vs optional, all deeply);
 *   - Members:  both name exactly the same members, with the same ones required, and both are
 *               open (take any other member as `unknown`). Assignability alone misses an extra
 *               optional member or a closed/open difference, so this is checked separately.
 *
 * What json-schema-to-ts (v3) does not turn into types, and how each is handled:
 *   - `patternProperties: { "^fair:(?!(metrics_spec|split_spec)$)": false }` on properties:
 *     FromSchema reads a `false` pattern schema as "no other member at all" and makes the
 *     properties object closed, which is wrong (the rule only forbids unknown fair: members,
 *     every other member is allowed). The compared schema has that one keyword removed
 *     (SchemaForTypes below). TypeScript cannot say "any member except fair:*" next to
 *     defined fair: members, so the hand-written type stays open; instead _PrefixedMembersAgree
 *     checks that the members the pattern exempts are exactly the fair: members of
 *     BaseModelProperties, and _UnknownPrefixedForbidden that the pattern's schema is `false`.
 *   - `contains` on stac_extensions: no type for it (stac_extensions is `unknown[]` on both
 *     sides); _ContainsPublishedId checks that the required entry is the schema's own $id.
 *   - minLength, minItems, exclusiveMinimum/exclusiveMaximum and integer-vs-number are value
 *     rules with no TypeScript counterpart: FromSchema drops them (integer becomes number), so
 *     they are NOT covered here; the hand-written types document them in comments and the
 *     validator tests (test/differential.test.ts) cover them.
 * No FromSchema options are needed: the schema has no `default`, `not` or `if`.
 */
import type { FromSchema } from "json-schema-to-ts";
import type { schema } from "../../generated/schema.js";
import type {
  Asset,
  BaseModelAssets,
  BaseModelItem,
  BaseModelProperties,
  ClassificationClass,
  MetricSpec,
  ModelAsset,
  ModelInput,
  ModelOutput,
  ProcessingFunction,
  SourceCodeAsset,
  SplitSpec,
} from "./types.js";

type Assert<T extends true> = T;
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type And<A extends boolean, B extends boolean> = A extends true ? B : false;

/** Named members (the index signature left out). */
type KnownKeys<T> = keyof { [K in keyof T as string extends K ? never : number extends K ? never : K]: 0 };
// `{} extends Pick<T, K>` is how TypeScript tells an optional member: nothing else says it.
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
type RequiredKeys<T> = { [K in KnownKeys<T>]-?: {} extends Pick<T, K> ? never : K }[KnownKeys<T>];
/** Takes any other member, as `unknown`. */
type IsOpen<T> = string extends keyof T ? (unknown extends T[string & keyof T] ? true : false) : false;

/** `any` (e.g. from a FromSchema that gave up) would make every comparison pass: refuse it. */
type IsAny<T> = 0 extends 1 & T ? true : false;
type NotAny<A, B> = IsAny<A> extends true ? false : IsAny<B> extends true ? false : true;

type Agrees<Hand, FromJsonSchema> = And<NotAny<Hand, FromJsonSchema>, Same<Hand, FromJsonSchema>>;
type MembersAgree<Hand, FromJsonSchema> = And<
  NotAny<Hand, FromJsonSchema>,
  And<
    And<Same<KnownKeys<Hand>, KnownKeys<FromJsonSchema>>, Same<RequiredKeys<Hand>, RequiredKeys<FromJsonSchema>>>,
    And<IsOpen<Hand>, IsOpen<FromJsonSchema>>
  >
>;

type Schema = typeof schema;
type Definitions = Schema["definitions"];
/** The published schema without properties' patternProperties (see above); nothing else changes. */
type SchemaForTypes = Omit<Schema, "definitions"> & {
  readonly definitions: Omit<Definitions, "properties"> & {
    readonly properties: Omit<Definitions["properties"], "patternProperties">;
  };
};

type Item = FromSchema<SchemaForTypes>;
type Properties = Item["properties"];
type Assets = Item["assets"];
type Element<T> = T extends readonly (infer E)[] ? E : never;
type Input = Element<Properties["mlm:input"]>;
type Output = Element<Properties["mlm:output"]>;

export type _ItemAgrees = Assert<Agrees<BaseModelItem, Item>>;
export type _ItemMembers = Assert<MembersAgree<BaseModelItem, Item>>;

export type _PropertiesAgree = Assert<Agrees<BaseModelProperties, Properties>>;
export type _PropertiesMembers = Assert<MembersAgree<BaseModelProperties, Properties>>;
export type _HyperparametersAgree = Assert<Agrees<BaseModelProperties["mlm:hyperparameters"], Properties["mlm:hyperparameters"]>>;
export type _HyperparametersMembers = Assert<MembersAgree<BaseModelProperties["mlm:hyperparameters"], Properties["mlm:hyperparameters"]>>;

export type _InputAgrees = Assert<Agrees<ModelInput, Input>>;
export type _InputMembers = Assert<MembersAgree<ModelInput, Input>>;
export type _OutputAgrees = Assert<Agrees<ModelOutput, Output>>;
export type _OutputMembers = Assert<MembersAgree<ModelOutput, Output>>;
export type _PreProcessingAgrees = Assert<Agrees<ProcessingFunction, Input["pre_processing_function"]>>;
export type _PreProcessingMembers = Assert<MembersAgree<ProcessingFunction, Input["pre_processing_function"]>>;
export type _PostProcessingAgrees = Assert<Agrees<ProcessingFunction, Output["post_processing_function"]>>;
export type _PostProcessingMembers = Assert<MembersAgree<ProcessingFunction, Output["post_processing_function"]>>;
export type _ClassAgrees = Assert<Agrees<ClassificationClass, Element<Output["classification:classes"]>>>;
export type _ClassMembers = Assert<MembersAgree<ClassificationClass, Element<Output["classification:classes"]>>>;

export type _MetricSpecAgrees = Assert<Agrees<MetricSpec, Element<Properties["fair:metrics_spec"]>>>;
export type _MetricSpecMembers = Assert<MembersAgree<MetricSpec, Element<Properties["fair:metrics_spec"]>>>;
export type _SplitSpecAgrees = Assert<Agrees<SplitSpec, Properties["fair:split_spec"]>>;
export type _SplitSpecMembers = Assert<MembersAgree<SplitSpec, Properties["fair:split_spec"]>>;

export type _AssetsAgree = Assert<Agrees<BaseModelAssets, Assets>>;
export type _AssetsMembers = Assert<MembersAgree<BaseModelAssets, Assets>>;
export type _ModelAssetAgrees = Assert<Agrees<ModelAsset, Assets["model"]>>;
export type _ModelAssetMembers = Assert<MembersAgree<ModelAsset, Assets["model"]>>;
export type _SourceCodeAssetAgrees = Assert<Agrees<SourceCodeAsset, Assets["source-code"]>>;
export type _SourceCodeAssetMembers = Assert<MembersAgree<SourceCodeAsset, Assets["source-code"]>>;
export type _TrainingAssetAgrees = Assert<Agrees<Asset, Assets["mlm:training"]>>;
export type _TrainingAssetMembers = Assert<MembersAgree<Asset, Assets["mlm:training"]>>;
export type _InferenceAssetAgrees = Assert<Agrees<Asset, Assets["mlm:inference"]>>;
export type _InferenceAssetMembers = Assert<MembersAgree<Asset, Assets["mlm:inference"]>>;

// The rules FromSchema cannot see (see the comment at the top).
type PatternProperties = Definitions["properties"]["patternProperties"];
type Split<S extends string> = S extends `${infer Head}|${infer Tail}` ? Head | Split<Tail> : S;
/** The fair: members the pattern exempts, read from "^fair:(?!(a|b)$)". */
type ExemptByPattern = keyof PatternProperties extends `^fair:(?!(${infer Names})$)` ? `fair:${Split<Names>}` : never;
export type _PrefixedMembersAgree = Assert<Same<Extract<KnownKeys<BaseModelProperties>, `fair:${string}`>, ExemptByPattern>>;
export type _PrefixedMembersDefined = Assert<Same<Extract<KnownKeys<Definitions["properties"]["properties"]>, `fair:${string}`>, ExemptByPattern>>;
export type _UnknownPrefixedForbidden = Assert<Same<PatternProperties[keyof PatternProperties], false>>;
export type _ContainsPublishedId = Assert<Same<Schema["properties"]["stac_extensions"]["contains"]["const"], Schema["$id"]>>;
