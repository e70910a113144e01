/**
 * POST /snapshot/plain/: the features of a small region as GeoJSON, answered at once. A body with
 * `geometry` is read as raw-data-api reads it since 2023, with the export's own plan (filters,
 * attributes, centroid, useStWithin), and its features are written as the GeoJSON export writes
 * them; a body without, as raw-data-api 1.0.16 read it (bbox, select, where).
 */
import type { FastifyPluginAsync } from "fastify";
import type { ValidationError } from "../api/errors.js";
import { MAX_PLAIN_ANSWER_BYTES } from "../api/limits.js";
import { snapshotParamsPlainAliases, type GeometryTypeName, type PlainSnapshotResponse, type SnapshotParamsPlain } from "../api/snapshot-plain.js";
import type { SnapshotGeometryType, SnapshotParams } from "../api/snapshot.js";
import { geoJsonProperties } from "../formats/geojson.js";
import { planMatches } from "../exports/matches.js";
import { planExport } from "../exports/plan.js";
import { exportParams } from "../exports/request.js";
import { findFeatures } from "../query/find.js";
import { areaOf, type FeatureQuery, type TagFilter } from "../../model/query.js";
import type { RouteContext } from "./context.js";
import { acceptAliases } from "../http/aliases.js";
import { areaFromBBox, bboxProblems } from "../http/area.js";
import type { Refused } from "../http/body-checks.js";
import { polygonalArea } from "../http/export-area.js";
import { plainFeatureJson, plainSelection } from "../http/feature-json.js";
import { featureJson, JsonArrayBytes, sendJson } from "../http/json-text.js";
import { problem } from "../http/problems.js";
import { areaAndFilterProblems } from "./snapshot.js";

/** The real service's defaults (raw-data-api 1.0.16). */
const DEFAULTS = {
  select: ["*"],
  where: [{ key: "building", value: ["*"] }],
  joinBy: "OR",
  lookIn: ["nodes", "ways_poly"],
} as const satisfies SnapshotParamsPlain;

const USE_SNAPSHOT = "/snapshot/plain/ is for small regions; use POST /latest/snapshot/ for larger extractions";
const KINDS: readonly GeometryTypeName[] = ["point", "line", "polygon"];

/** geometryType as a list: 1.0.16 sent one type, raw-data-api since 2023 a list. */
function geometryTypes(value: SnapshotParamsPlain["geometryType"]): SnapshotGeometryType[] | undefined {
  return value === undefined ? undefined : ([value].flat() as SnapshotGeometryType[]);
}

/** The one geometry a 1.0.16 body restricts its answer to; undefined when it names every one (or none). */
function oneKind(value: SnapshotParamsPlain["geometryType"]): GeometryTypeName | undefined {
  const kinds = KINDS.filter((kind) => geometryTypes(value)?.includes(kind));
  return kinds.length === 1 && !geometryTypes(value)?.includes("all_geometry") ? kinds[0] : undefined;
}

/** What the schema cannot say about either body. */
async function plainProblems(params: SnapshotParamsPlain, maxAreaKm2: number, refused: Refused): Promise<ValidationError[]> {
  if (params.geometry !== undefined) {
    const advice = `for /snapshot/plain/; use POST /latest/snapshot/ for larger areas`;
    return areaAndFilterProblems(params as Pick<SnapshotParams, "geometry" | "filters">, { km2: maxAreaKm2, advice }, refused);
  }
  const problems = params.bbox === undefined || refused(["body", "bbox"]) ? [] : bboxProblems(params.bbox, ["body", "bbox"]);
  const kinds = geometryTypes(params.geometryType) ?? [];
  if (!refused(["body", "geometryType"]) && oneKind(params.geometryType) === undefined && kinds.length > 0 && !kinds.includes("all_geometry") && kinds.length < KINDS.length) {
    problems.push({ loc: ["body", "geometryType"], msg: `without geometry, geometryType names one type (point, line or polygon) or all of them; found ${JSON.stringify(params.geometryType)}`, type: "value_error" });
  }
  return problems;
}

/** The answer's features, as JSON text: more than `limit` of them, or more than MAX_PLAIN_ANSWER_BYTES, is a 422 that points to /snapshot/. */
class PlainFeatures {
  readonly #features = new JsonArrayBytes();
  #count = 0;

  constructor(readonly limit: number) {}

  add(featureJson: string): void {
    if (++this.#count > this.limit) throw problem(["body"], `more than ${this.limit} features match: ${USE_SNAPSHOT}`, "too_many_features");
    this.#features.add(featureJson);
    if (this.#features.byteLength > MAX_PLAIN_ANSWER_BYTES) {
      throw problem(["body"], `the features take more than ${MAX_PLAIN_ANSWER_BYTES / 1024 / 1024} MiB of GeoJSON: ${USE_SNAPSHOT}, or select fewer tags`, "answer_too_large");
    }
  }

  answer(): Buffer {
    const head: Omit<PlainSnapshotResponse, "features"> = { type: "FeatureCollection" };
    return this.#features.memberOf(head, "features");
  }
}

function tagFilter(params: SnapshotParamsPlain): TagFilter {
  const where = params.where ?? DEFAULTS.where;
  return {
    join: (params.joinBy ?? DEFAULTS.joinBy) === "AND" ? "and" : "or",
    // ["*"] is how the real service writes "any value"; so is an empty list here.
    conditions: where.map(({ key, value }) => ({ key, values: value.includes("*") ? [] : value })),
  };
}

/** raw-data-api 1.0.16's body: tables, tags and the tag keys written, in a bbox. */
async function bboxAnswer(context: RouteContext, params: SnapshotParamsPlain, features: PlainFeatures): Promise<void> {
  const selection = plainSelection(params.select ?? DEFAULTS.select);
  const geometry = oneKind(params.geometryType);
  const query: FeatureQuery = {
    tables: params.lookIn ?? DEFAULTS.lookIn,
    ...(geometry && { geometry }),
    area: await areaFromBBox(params.bbox, ["body", "bbox"]),
    tags: tagFilter(params),
    offset: 0,
    // One more than the limit, so that PlainFeatures says there are too many.
    limit: features.limit + 1,
    order: "id",
  };
  await findFeatures(context.store, query, ({ feature }) => features.add(plainFeatureJson(feature, selection)));
}

/** raw-data-api's body since 2023: the export's plan in the area, each feature as the GeoJSON export writes it. */
async function geometryAnswer(context: RouteContext, params: SnapshotParamsPlain & Pick<SnapshotParams, "geometry">, features: PlainFeatures): Promise<void> {
  const { geometry, filters, joinFilterType, centroid, useStWithin, includeUserMetadata } = params;
  const geometryType = geometryTypes(params.geometryType);
  const request: SnapshotParams = { geometry, filters, joinFilterType, geometryType, centroid, useStWithin, includeUserMetadata };
  const polygon = await polygonalArea(geometry);
  const plan = planExport(exportParams(request, polygon));
  const properties = geoJsonProperties(plan.columns);
  for await (const feature of planMatches(context.store, areaOf(polygon), plan)) {
    features.add(featureJson(Number(feature.properties.osm_id), JSON.stringify(feature.geometry), properties(feature.properties)));
  }
}

export const snapshotPlainRoutes: FastifyPluginAsync<RouteContext> = async (app, context) => {
  app.post<{ Body: SnapshotParamsPlain }>(
    "/snapshot/plain/",
    {
      schema: {
        tags: ["raw data export"],
        summary: "Features of a small region as GeoJSON, at once",
        description:
          `For small regions: with geometry, areas above ${context.plainMaxAreaKm2.toLocaleString("en-US")} km² are a 422; either way, more than ${context.plainFeatureLimit} ` +
          `matching features, or features that take more than ${MAX_PLAIN_ANSWER_BYTES} bytes of GeoJSON, is a 422 that points to POST /snapshot/.`,
        body: { $ref: "SnapshotParamsPlain#" },
        response: { 200: { $ref: "PlainSnapshotResponse#" }, 422: { $ref: "HTTPValidationError#" } },
      },
      preValidation: acceptAliases(snapshotParamsPlainAliases),
      config: { checks: (body: SnapshotParamsPlain, refused) => plainProblems(body, context.plainMaxAreaKm2, refused) },
    },
    async (request, reply) => {
      const params = request.body;
      const features = new PlainFeatures(context.plainFeatureLimit);
      // The answer is built in one go: its bytes bound the time it holds the event loop.
      if (params.geometry === undefined) await bboxAnswer(context, params, features);
      else await geometryAnswer(context, { ...params, geometry: params.geometry }, features);
      return sendJson(reply, features.answer());
    },
  );
};
