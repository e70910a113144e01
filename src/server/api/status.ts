/** GET /latest/status/ (and /v1/status/). */
import type { Answer } from "./wire.js";

export const statusResponseSchema = {
  $id: "StatusResponse",
  description: "When the data was last brought up to date",
  type: "object",
  required: ["lastUpdated"],
  additionalProperties: false,
  properties: {
    lastUpdated: {
      type: "string",
      pattern: "^\\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}:\\d{2}\\+00:00$",
      description: "Time (UTC) of the data's last complete update: the replication timestamp of the import or of the last change file",
      examples: ["2025-01-01 21:21:00+00:00"],
    },
  },
} as const;

export type StatusResponse = Answer<typeof statusResponseSchema>;
