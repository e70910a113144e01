/**
 * Type-level check: the hand-written request and answer types of this folder and their JSON
 * Schemas describe the same shapes (assignable both ways, deeply). tsc fails, and so does
 * `npm run build`, on the first `Assert` that is not `true`. Types only: compiles to `export {};`.
 * Value rules with no TypeScript counterpart (minItems, minimum, pattern, ...) are not compared;
 * the server tests cover them. Shapes that `$ref` a geometry schema are left to those tests.
 */
import type { FromSchema } from "json-schema-to-ts";
import type { HTTPValidationError, ValidationError, validationErrorSchema } from "./errors.js";
import type { RawFeaturesQuery, rawFeaturesQuerySchema, RawListItem, RawQuery, rawListSchema, rawQuerySchema } from "./raw.js";
import type {
  DataQualityRequest,
  dataQualityRequestSchema,
  DataQualityTagRow,
  dataQualityTagListSchema,
  DataQualityTagStat,
  dataQualityTagStatsSchema,
} from "./report.js";
import type { CustomCategory, customCategorySchema, CustomExportResult, customExportResultSchema } from "./custom.js";
import type { AreaStats, areaStatsSchema, ExportResult, exportResultSchema, SnapshotAccepted, snapshotAcceptedSchema } from "./snapshot.js";
import type { SnapshotParamsPlain, snapshotParamsPlainSchema } from "./snapshot-plain.js";
import type { FeatureCount, featureCountSchema, StatsQuery, statsQuerySchema, ValidationCount, validationCountSchema } from "./stats.js";
import type { StatusResponse, statusResponseSchema } from "./status.js";

type Assert<T extends true> = T;
type IsAny<T> = 0 extends 1 & T ? true : false;
/** Mutually assignable, and neither side an `any` that would make the comparison pass. */
type Same<A, B> = IsAny<A> extends true ? false : IsAny<B> extends true ? false : [A] extends [B] ? ([B] extends [A] ? true : false) : false;
/** Request schemas leave their objects open (unknown members are ignored, see strict.ts): the members they name, deeply. */
type Named<T> = T extends readonly unknown[] ? { [K in keyof T]: Named<T[K]> } : T extends object ? { [K in keyof T as string extends K ? never : K]: Named<T[K]> } : T;

type _Status = Assert<Same<StatusResponse, FromSchema<typeof statusResponseSchema>>>;
type _SnapshotParamsPlain = Assert<Same<Omit<SnapshotParamsPlain, "geometry">, Omit<Named<FromSchema<typeof snapshotParamsPlainSchema, { keepDefaultedPropertiesOptional: true }>>, "geometry">>>;
type _RawQuery = Assert<Same<RawQuery, Named<FromSchema<typeof rawQuerySchema, { keepDefaultedPropertiesOptional: true }>>>>;
type _RawList = Assert<Same<RawListItem[], FromSchema<typeof rawListSchema>>>;
type _RawFeaturesQuery = Assert<Same<RawFeaturesQuery, Named<FromSchema<typeof rawFeaturesQuerySchema, { keepDefaultedPropertiesOptional: true }>>>>;
type _StatsQuery = Assert<Same<StatsQuery, Named<FromSchema<typeof statsQuerySchema>>>>;
type _FeatureCount = Assert<Same<FeatureCount, FromSchema<typeof featureCountSchema>>>;
type _ValidationCount = Assert<Same<ValidationCount, FromSchema<typeof validationCountSchema>>>;
type _DataQualityRequest = Assert<Same<DataQualityRequest, Named<FromSchema<typeof dataQualityRequestSchema, { keepDefaultedPropertiesOptional: true }>>>>;
type _DataQualityTagList = Assert<Same<DataQualityTagRow[], FromSchema<typeof dataQualityTagListSchema>>>;
type _DataQualityTagStats = Assert<Same<DataQualityTagStat[], FromSchema<typeof dataQualityTagStatsSchema>>>;
type _ValidationError = Assert<Same<ValidationError, FromSchema<typeof validationErrorSchema>>>;
type _HTTPValidationError = Assert<Same<HTTPValidationError, { detail: ValidationError[] }>>;
type _SnapshotAccepted = Assert<Same<SnapshotAccepted, FromSchema<typeof snapshotAcceptedSchema>>>;
type _AreaStats = Assert<Same<AreaStats, FromSchema<typeof areaStatsSchema>>>;
type _ExportResult = Assert<Same<ExportResult, FromSchema<typeof exportResultSchema, { references: [typeof areaStatsSchema] }>>>;
type _CustomCategory = Assert<Same<CustomCategory, Named<FromSchema<typeof customCategorySchema>>>>;
type _CustomExportResult = Assert<Same<CustomExportResult, FromSchema<typeof customExportResultSchema>>>;
