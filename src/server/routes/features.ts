/**
 * The feature query API's three kinds of route, each defined once and mounted at the paths of
 * both Underpass generations (routes/raw.ts, routes/raw-validation.ts, routes/stats.ts): a page
 * of features as GeoJSON, a page of list rows with centroids, and counts.
 */
import type { FastifyInstance } from "fastify";
import { DEFAULT_PAGE_SIZE, type RawFeatureCollection, type RawFeatureKind, type RawFeaturesQuery, type RawListItem, type RawQuery } from "../api/raw.js";
import type { FeatureCount, StatsQuery, ValidationCount } from "../api/stats.js";
import { countFeatures } from "../query/count.js";
import { findFeatures } from "../query/find.js";
import type { FeatureQuery, FoundFeature } from "../../model/query.js";
import type { RouteContext } from "./context.js";
import { rawFeatureJson, rawListItem } from "../http/feature-json.js";
import { JsonArrayBytes, sendJson } from "../http/json-text.js";
import { rawFilterProblems, rawQueryFilters, type ChangesetTime } from "../http/raw-filters.js";

type Selection = Pick<FeatureQuery, "tables" | "geometry">;

export const KIND_NAMES = ["polygons", "lines", "nodes"] as const;
type KindName = (typeof KIND_NAMES)[number];

/** What each route searches: area relations count as polygons, the other relations as lines. */
export const KINDS: Record<KindName | "all", { selection: Selection; summary: string }> = {
  polygons: { selection: { tables: ["ways_poly", "relations"], geometry: "polygon" }, summary: "Polygons (closed ways and area relations)" },
  lines: { selection: { tables: ["ways_line", "relations"], geometry: "line" }, summary: "Lines (open ways and other relations)" },
  nodes: { selection: { tables: ["nodes"] }, summary: "Nodes" },
  all: { selection: { tables: ["ways_poly", "ways_line", "nodes", "relations"] }, summary: "Polygons, lines and nodes" },
};

const FEATURE_TYPES: Record<RawFeatureKind, KindName> = { polygon: "polygons", line: "lines", node: "nodes" };

/** The kind a 2024 body's featureType names; every kind when it names none. */
function selectionOf({ featureType }: RawFeaturesQuery): Selection {
  return KINDS[featureType ? FEATURE_TYPES[featureType] : "all"].selection;
}

interface RouteDoc {
  /** The $id of the body's schema. */
  body: "RawQuery" | "RawFeaturesQuery" | "StatsQuery";
  summary: string;
}

interface RouteOptions extends RouteDoc {
  /** The features searched, or how the body chooses them (a RawQuery has no featureType: every route's body is a RawFeaturesQuery). */
  selection: Selection | ((body: RawFeaturesQuery) => Selection);
  /** What dateFrom and dateTo compare with. */
  time: ChangesetTime;
}

function selected(options: RouteOptions, body: RawFeaturesQuery): Selection {
  return typeof options.selection === "function" ? options.selection(body) : options.selection;
}

/** A feature query route's schema, and its filters' checks for a 422 that names every problem. */
function routeOptions(doc: RouteDoc, answer: string, time: ChangesetTime) {
  return {
    schema: { tags: ["feature query"], summary: doc.summary, body: { $ref: `${doc.body}#` }, response: { 200: { $ref: `${answer}#` }, 422: { $ref: "HTTPValidationError#" } } },
    config: { handlerChecks: rawFilterProblems(time) },
  };
}

/** Runs the body's query, handing each match of its page to `take`. */
async function findPage(context: RouteContext, body: RawQuery, selection: Selection, time: ChangesetTime, order: FeatureQuery["order"], take: (found: FoundFeature) => void) {
  const page = body.page ?? 0;
  const pageSize = body.pageSize ?? DEFAULT_PAGE_SIZE;
  const filters = await rawQueryFilters(body, time);
  const query: FeatureQuery = { ...selection, ...filters, annotated: true, offset: page * pageSize, limit: pageSize, order };
  const { hasMore } = await findFeatures(context.store, query, take);
  return { page, pageSize, hasMore };
}

/** A page of the matching features as GeoJSON, with `page`, `pageSize` and `hasMore`. */
export function featuresRoute(app: FastifyInstance, context: RouteContext, path: string, options: RouteOptions): void {
  app.post<{ Body: RawFeaturesQuery }>(path, routeOptions(options, "RawFeatureCollection", options.time), async (request, reply) => {
    const features = new JsonArrayBytes();
    const paging = await findPage(context, request.body, selected(options, request.body), options.time, "id", (found) => features.add(rawFeatureJson(found)));
    const head: Omit<RawFeatureCollection, "features"> = { type: "FeatureCollection", ...paging };
    return sendJson(reply, features.memberOf(head, "features"));
  });
}

/** A page of list rows: centroids instead of geometries, newest first unless the body orders by id. */
export function listRoute(app: FastifyInstance, context: RouteContext, path: string, options: RouteOptions): void {
  app.post<{ Body: RawFeaturesQuery }>(path, routeOptions(options, "RawList", options.time), async (request) => {
    const order = request.body.orderBy === "id" ? "id" : "newest";
    const items: RawListItem[] = [];
    await findPage(context, request.body, selected(options, request.body), options.time, order, (found) => items.push(rawListItem(found)));
    return items;
  });
}

type CountAnswer = "FeatureCount" | "ValidationCount";

/**
 * How many features match (`count`), and how many match all but the status filter (`total`):
 * a FeatureCount says `total` only when a status is given, as the real /stats/count did; a
 * ValidationCount always does.
 */
export function countRoute(
  app: FastifyInstance,
  context: RouteContext,
  path: string,
  options: RouteDoc & { selection: Selection; time: ChangesetTime; answer: CountAnswer },
): void {
  const { selection } = options;
  app.post<{ Body: StatsQuery }>(path, routeOptions(options, options.answer, options.time), async (request): Promise<FeatureCount | ValidationCount> => {
    const { status, ...filters } = await rawQueryFilters(request.body, options.time);
    const total = await countFeatures(context.store, { ...selection, ...filters });
    if (status === undefined) return options.answer === "FeatureCount" ? { count: total } : { count: total, total };
    return { count: await countFeatures(context.store, { ...selection, ...filters, status }), total };
  });
}

/**
 * The 2024 routes that /raw and /raw-validation both have: /features, /list and /{kind}/list;
 * dates on the changeset's closing. `filters` says what they filter by, for their summaries.
 */
export function addRoutes2024(app: FastifyInstance, context: RouteContext, filters: string): void {
  const all = `${KINDS.all.summary} (or one featureType) in an area, ${filters}`;
  featuresRoute(app, context, "/features", { selection: selectionOf, time: "closed", body: "RawFeaturesQuery", summary: `${all}, as GeoJSON (Underpass 2024)` });
  listRoute(app, context, "/list", { selection: selectionOf, time: "closed", body: "RawFeaturesQuery", summary: `${all}, as a list with centroids (Underpass 2024)` });
  for (const kind of KIND_NAMES) {
    const { selection, summary } = KINDS[kind];
    listRoute(app, context, `/${kind}/list`, { selection, time: "closed", body: "RawQuery", summary: `${summary} in an area, ${filters}, as a list with centroids (Underpass 2024)` });
  }
}

/** The 2024 count routes of every kind (at `all`) and of each (at `${prefix}/${kind}`); dates on the changeset's closing. */
export function addCountRoutes2024(
  app: FastifyInstance,
  context: RouteContext,
  options: { all: string; prefix: string; answer: CountAnswer; summary: (what: string) => string },
): void {
  for (const kind of ["all", ...KIND_NAMES] as const) {
    const { selection, summary } = KINDS[kind];
    const path = kind === "all" ? options.all : `${options.prefix}/${kind}`;
    countRoute(app, context, path, { selection, time: "closed", body: "StatsQuery", answer: options.answer, summary: `${options.summary(summary.toLowerCase())} (Underpass 2024)` });
  }
}
