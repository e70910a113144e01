/** The feature query API: POST /raw/{polygons,lines,nodes,all} and their *List variants. */
import type { FastifyPluginAsync } from "fastify";
import { DEFAULT_PAGE_SIZE, type RawFeatureCollection, type RawListItem, type RawQuery } from "../../api/raw.js";
import { findFeatures } from "../../query/find.js";
import type { FeatureQuery, FoundFeature } from "../../query/types.js";
import type { RouteContext } from "../app.js";
import { areaFromRing } from "../area.js";
import { parseUtcDateTime } from "../dates.js";
import { rawFeatureJson, rawListItem } from "../features.js";
import { JsonArrayBytes, sendJson } from "../json-text.js";
import { parseTagTerms } from "../tag-terms.js";

type Selection = Pick<FeatureQuery, "tables" | "geometry">;

/** What each route searches: area relations count as polygons, the other relations as lines. */
const ROUTES: Record<string, { selection: Selection; summary: string }> = {
  polygons: { selection: { tables: ["ways_poly", "relations"], geometry: "polygon" }, summary: "Polygons (closed ways and area relations)" },
  lines: { selection: { tables: ["ways_line", "relations"], geometry: "line" }, summary: "Lines (open ways and other relations)" },
  nodes: { selection: { tables: ["nodes"] }, summary: "Nodes" },
  all: { selection: { tables: ["ways_poly", "ways_line", "nodes", "relations"] }, summary: "Polygons, lines and nodes" },
};

/** Runs the body's query, handing each match of its page to `take`. */
async function runQuery(context: RouteContext, body: RawQuery, selection: Selection, order: FeatureQuery["order"], take: (found: FoundFeature) => void) {
  const page = body.page ?? 0;
  const pageSize = body.pageSize ?? DEFAULT_PAGE_SIZE;
  const area = await areaFromRing(body.area, ["body", "area"]);
  try {
    const tags = parseTagTerms(body.tags, ["body", "tags"]);
    const changesets = {
      hashtag: body.hashtag,
      createdFrom: body.dateFrom === undefined ? undefined : parseUtcDateTime(body.dateFrom, ["body", "dateFrom"]),
      createdTo: body.dateTo === undefined ? undefined : parseUtcDateTime(body.dateTo, ["body", "dateTo"], "to"),
    };
    const query: FeatureQuery = {
      ...selection,
      area,
      ...(tags && { tags }),
      changesets,
      status: body.status,
      annotated: true,
      offset: page * pageSize,
      limit: pageSize,
      order,
    };
    const { hasMore } = await findFeatures(context.store, query, take);
    return { page, pageSize, hasMore };
  } finally {
    area.dispose?.();
  }
}

export const rawRoutes: FastifyPluginAsync<RouteContext> = async (app, context) => {
  for (const [name, { selection, summary }] of Object.entries(ROUTES)) {
    app.post<{ Body: RawQuery }>(
      `/${name}`,
      {
        schema: {
          tags: ["feature query"],
          summary: `${summary} in an area, by tag, as GeoJSON`,
          body: { $ref: "RawQuery#" },
          response: { 200: { $ref: "RawFeatureCollection#" }, 422: { $ref: "HTTPValidationError#" } },
        },
      },
      async (request, reply) => {
        const features = new JsonArrayBytes();
        const { page, pageSize, hasMore } = await runQuery(context, request.body, selection, "id", (found) => features.add(rawFeatureJson(found)));
        const head: Omit<RawFeatureCollection, "features"> = { type: "FeatureCollection", page, pageSize, hasMore };
        return sendJson(reply, features.memberOf(head, "features"));
      },
    );
    app.post<{ Body: RawQuery }>(
      `/${name}List`,
      {
        schema: {
          tags: ["feature query"],
          summary: `${summary} in an area, by tag, as a list with centroids, newest first`,
          body: { $ref: "RawQuery#" },
          response: { 200: { $ref: "RawList#" }, 422: { $ref: "HTTPValidationError#" } },
        },
      },
      async (request) => {
        const order = request.body.orderBy === "id" ? "id" : "newest";
        const items: RawListItem[] = [];
        await runQuery(context, request.body, selection, order, (found) => items.push(rawListItem(found)));
        return items;
      },
    );
  }
};
