/**
 * Feature counts: Underpass's 2023 /stats/count (every kind, dates on the changeset's creation)
 * and its 2024 /stats/{features,polygons,lines,nodes} (dates on the changeset's closing).
 */
import type { FastifyPluginAsync } from "fastify";
import type { RouteContext } from "./context.js";
import { addCountRoutes2024, countRoute, KINDS } from "./features.js";

const SCOPE = "in an area match the filters; with a status, also how many match the others";

export const statsRoutes: FastifyPluginAsync<RouteContext> = async (app, context) => {
  const { selection, summary } = KINDS.all;
  countRoute(app, context, "/count", { selection, time: "created", body: "StatsQuery", answer: "FeatureCount", summary: `How many ${summary.toLowerCase()} ${SCOPE}` });
  addCountRoutes2024(app, context, { all: "/features", prefix: "", answer: "FeatureCount", summary: (what) => `How many ${what} ${SCOPE}` });
};
