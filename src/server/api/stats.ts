/**
 * Feature counts, both generations of Underpass's: POST /stats/count (2023), /stats/{features,
 * polygons,lines,nodes} and /raw-validation/stats[/{polygons,lines,nodes}] (2024).
 */
import { rawFilterExamples, rawFilterProperties } from "./raw.js";
import type { Answer, Request } from "./wire.js";

export const statsQuerySchema = {
  $id: "StatsQuery",
  type: "object",
  examples: rawFilterExamples,
  properties: rawFilterProperties,
} as const;

export type StatsQuery = Request<typeof statsQuerySchema>;

const count = { type: "integer", minimum: 0, description: "How many features match every filter" } as const;
const total = { type: "integer", minimum: 0, description: "How many match every filter but status" } as const;

export const featureCountSchema = {
  $id: "FeatureCount",
  description: "How many features match; when a status is given, also how many match the other filters",
  type: "object",
  required: ["count"],
  additionalProperties: false,
  properties: { count, total },
} as const;

export type FeatureCount = Answer<typeof featureCountSchema>;

export const validationCountSchema = {
  $id: "ValidationCount",
  description: "How many features match every filter, and how many match every filter but status (the same number when no status is given)",
  type: "object",
  required: ["count", "total"],
  additionalProperties: false,
  properties: { count, total },
} as const;

export type ValidationCount = Answer<typeof validationCountSchema>;
