/**
 * Underpass's 2024 /raw-validation routes: the features of /raw with their data quality status
 * and a `status` filter (which /raw takes too), and counts of the features with a status.
 * Dates compare with the changeset's closing, as the 2024 service did.
 */
import type { FastifyPluginAsync } from "fastify";
import type { RouteContext } from "./context.js";
import { addCountRoutes2024, addRoutes2024, featuresRoute, KIND_NAMES, KINDS } from "./features.js";

const FILTERS = "by tag and data quality status";

export const rawValidationRoutes: FastifyPluginAsync<RouteContext> = async (app, context) => {
  for (const kind of KIND_NAMES) {
    const { selection, summary } = KINDS[kind];
    featuresRoute(app, context, `/${kind}`, { selection, time: "closed", body: "RawQuery", summary: `${summary} in an area, ${FILTERS}, as GeoJSON (Underpass 2024)` });
  }
  addRoutes2024(app, context, FILTERS);
  addCountRoutes2024(app, context, {
    all: "/stats",
    prefix: "/stats",
    answer: "ValidationCount",
    summary: (what) => `How many ${what} in an area have the status, of how many match the other filters`,
  });
};
