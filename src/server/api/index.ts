/**
 * `basemodel/api`: the wire types and JSON Schemas of the raw data export API (/latest), the
 * feature query API (/raw, /raw-validation, /stats, /report) and the map of the store
 * (/tiles.json, /layers/count/). The reference server validates requests with these same schemas.
 */
export * from "./errors.js";
export * from "./status.js";
export * from "./feature-collection.js";
export * from "./snapshot-plain.js";
export * from "./raw.js";
export * from "./report.js";
export * from "./stats.js";
export * from "./snapshot.js";
export * from "./places.js";
export * from "./auth.js";
export * from "./custom.js";
export * from "./tasks.js";
export * from "./history.js";
export * from "./page.js";
export * from "./tiles.js";
export { normalizeAliases, type AliasSpec } from "./aliases.js";
export { forbidUnknownMembers } from "./strict.js";

import { validationErrorSchema, httpValidationErrorSchema, httpErrorSchema } from "./errors.js";
import { geometrySchema } from "./feature-collection.js";
import { rawFeatureCollectionSchema, rawFeaturesQuerySchema, rawListSchema, rawQuerySchema } from "./raw.js";
import { dataQualityGeoCollectionSchema, dataQualityRequestSchema, dataQualityTagListSchema, dataQualityTagStatsSchema } from "./report.js";
import { plainSnapshotResponseSchema, snapshotParamsPlainSchema } from "./snapshot-plain.js";
import { authFailureSchema, authUserSchema } from "./auth.js";
import { customCategorySchema, customExportResultSchema, customSnapshotParamsSchema } from "./custom.js";
import { inspectQuerySchema, queueDetailsQuerySchema, queueDetailsSchema, queueLengthsSchema, taskRevokedSchema, tasksPurgedSchema, workersInspectSchema, workersPingSchema } from "./tasks.js";
import { countriesQuerySchema, countryCollectionSchema, osmFeatureCollectionSchema, osmIdQuerySchema, polygonStatsRequestSchema } from "./places.js";
import { featureCountSchema, statsQuerySchema, validationCountSchema } from "./stats.js";
import { statusResponseSchema } from "./status.js";
import { pageSettingsSchema } from "./page.js";
import { forbidUnknownMembers } from "./strict.js";
import { areaStatsSchema, exportAreaSchema, exportResultSchema, polygonFeatureCollectionSchema, polygonFeatureSchema, polygonSchema, snapshotAcceptedSchema, snapshotParamsSchema } from "./snapshot.js";
import { taskStatusSchema } from "./tasks.js";
import { exportHistoryEntrySchema, exportHistorySchema, historyQuerySchema } from "./history.js";
import { layerCountRequestSchema, layerCountsSchema, tileJsonSchema } from "./tiles.js";

/** Every schema, each with its `$id`; those that `$ref` another need it registered beside them. */
export const schemas = [
  validationErrorSchema,
  httpValidationErrorSchema,
  httpErrorSchema,
  statusResponseSchema,
  pageSettingsSchema,
  geometrySchema,
  snapshotParamsPlainSchema,
  plainSnapshotResponseSchema,
  rawQuerySchema,
  rawFeaturesQuerySchema,
  rawFeatureCollectionSchema,
  rawListSchema,
  statsQuerySchema,
  featureCountSchema,
  validationCountSchema,
  dataQualityRequestSchema,
  dataQualityGeoCollectionSchema,
  dataQualityTagListSchema,
  dataQualityTagStatsSchema,
  polygonSchema,
  polygonFeatureSchema,
  polygonFeatureCollectionSchema,
  exportAreaSchema,
  snapshotParamsSchema,
  snapshotAcceptedSchema,
  areaStatsSchema,
  exportResultSchema,
  customCategorySchema,
  customSnapshotParamsSchema,
  customExportResultSchema,
  taskStatusSchema,
  inspectQuerySchema,
  queueDetailsQuerySchema,
  taskRevokedSchema,
  tasksPurgedSchema,
  workersInspectSchema,
  workersPingSchema,
  queueLengthsSchema,
  queueDetailsSchema,
  historyQuerySchema,
  exportHistoryEntrySchema,
  exportHistorySchema,
  countriesQuerySchema,
  countryCollectionSchema,
  osmIdQuerySchema,
  osmFeatureCollectionSchema,
  polygonStatsRequestSchema,
  authUserSchema,
  authFailureSchema,
  layerCountRequestSchema,
  layerCountsSchema,
  tileJsonSchema,
] as const;

/** The request bodies: members they do not name are ignored, unless a server is strict. */
export const requestSchemas: ReadonlyArray<(typeof schemas)[number]> = [
  snapshotParamsPlainSchema,
  rawQuerySchema,
  rawFeaturesQuerySchema,
  statsQuerySchema,
  dataQualityRequestSchema,
  snapshotParamsSchema,
  polygonStatsRequestSchema,
  customSnapshotParamsSchema,
  customCategorySchema,
  layerCountRequestSchema,
];

/** Every schema as a strict server has them: its request bodies refuse members they do not name. */
export function strictSchemas(): Array<(typeof schemas)[number]> {
  return schemas.map((schema) => (requestSchemas.includes(schema) ? forbidUnknownMembers(schema) : schema));
}
