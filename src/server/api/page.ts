/** GET /page/settings.json: what the home page needs to know of the server it is served by. */
import { OUTPUT_TYPES, SNAPSHOT_GEOMETRY_TYPES } from "./snapshot.js";
import type { Answer } from "./wire.js";

export const pageSettingsSchema = {
  $id: "PageSettings",
  description: "This server's limits and what it exports, for its home page: the page warns while an area is drawn, not when the export is refused",
  type: "object",
  required: ["exports", "maxAreaKm2", "plainMaxAreaKm2", "outputTypes", "geometryTypes", "accessTokens"],
  additionalProperties: false,
  properties: {
    exports: { type: "boolean", description: "Whether this server takes exports (POST /latest/snapshot/, /latest/custom/snapshot/)" },
    maxAreaKm2: { type: "number", description: "The largest area of an export and of /latest/stats/polygon/, in km² (`serve --max-area`)", examples: [100_000] },
    plainMaxAreaKm2: { type: "number", description: "The largest area of POST /latest/snapshot/plain/ with a geometry, in km²", examples: [6] },
    outputTypes: { type: "array", items: { enum: OUTPUT_TYPES }, description: "The export formats (outputType of /latest/snapshot/)" },
    geometryTypes: { type: "array", items: { enum: SNAPSHOT_GEOMETRY_TYPES }, description: "The geometry types an export may be limited to (geometryType of /latest/snapshot/)" },
    accessTokens: { type: "boolean", description: "Whether the server has a users file: custom exports then need a staff member's access-token header" },
  },
} as const;

export type PageSettings = Answer<typeof pageSettingsSchema>;
