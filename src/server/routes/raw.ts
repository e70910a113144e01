/**
 * The feature query API under /raw: Underpass's 2023 routes, /raw/{polygons,lines,nodes,all}
 * and their *List variants (dates on the changeset's creation), and its 2024 ones, /raw/features,
 * /raw/list and /raw/{kind}/list (dates on the changeset's closing).
 */
import type { FastifyPluginAsync } from "fastify";
import type { RouteContext } from "./context.js";
import { addRoutes2024, featuresRoute, KINDS, listRoute } from "./features.js";

export const rawRoutes: FastifyPluginAsync<RouteContext> = async (app, context) => {
  for (const [name, { selection, summary }] of Object.entries(KINDS)) {
    featuresRoute(app, context, `/${name}`, { selection, time: "created", body: "RawQuery", summary: `${summary} in an area, by tag, as GeoJSON` });
    listRoute(app, context, `/${name}List`, { selection, time: "created", body: "RawQuery", summary: `${summary} in an area, by tag, as a list with centroids, newest first` });
  }
  addRoutes2024(app, context, "by tag");
};
