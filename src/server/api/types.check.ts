/**
 * Type-level check: the wire types are read from their schemas (wire.ts), except for the parts
 * given a type of their own (the `Overrides` of Answer and Request). Each such type must say no
 * more than its schema allows: assignable to what json-schema-to-ts reads from the schema alone.
 * tsc fails, and so does `npm run build`, on the first `Assert` that is not `true`. Types only:
 * compiles to `export {};`. (The overrides of a tag filter's two forms are read from its schema's parts.)
 */
import type { FromSchema } from "json-schema-to-ts";
import type { PlainSnapshotProperties, plainSnapshotResponseSchema } from "./snapshot-plain.js";
import type { PolygonalGeometry, polygonSchema } from "./snapshot.js";

type Assert<T extends true> = T;
type IsAny<T> = 0 extends 1 & T ? true : false;
/** `Narrow` is assignable to `Wide`, and neither is an `any` that would make that pass. */
type Within<Narrow, Wide> = IsAny<Narrow> extends true ? false : IsAny<Wide> extends true ? false : [Narrow] extends [Wide] ? true : false;

type PlainPropertiesSchema = typeof plainSnapshotResponseSchema.properties.features.items.properties.properties;

type _CheckedPolygon = Assert<Within<PolygonalGeometry, FromSchema<typeof polygonSchema>>>;
type _PlainSnapshotProperties = Assert<Within<PlainSnapshotProperties, FromSchema<PlainPropertiesSchema>>>;
