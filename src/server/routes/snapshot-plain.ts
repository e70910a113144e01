/** POST /snapshot/plain/: the features of a small region as GeoJSON, answered at once. */
import type { FastifyPluginAsync } from "fastify";
import { MAX_PLAIN_ANSWER_BYTES } from "../../api/limits.js";
import { snapshotParamsPlainAliases, type PlainSnapshotResponse, type SnapshotParamsPlain } from "../../api/snapshot-plain.js";
import { findFeatures } from "../../query/find.js";
import type { FeatureQuery, TagFilter } from "../../query/types.js";
import type { RouteContext } from "../app.js";
import { acceptAliases } from "../aliases.js";
import { areaFromBBox } from "../area.js";
import { plainFeatureJson, plainSelection } from "../features.js";
import { JsonArrayBytes, sendJson } from "../json-text.js";
import { problem } from "../problems.js";

/** The real service's defaults (raw-data-api 1.0.16). */
const DEFAULTS = {
  select: ["*"],
  where: [{ key: "building", value: ["*"] }],
  joinBy: "OR",
  lookIn: ["nodes", "ways_poly"],
} as const satisfies SnapshotParamsPlain;

const USE_SNAPSHOT = "/snapshot/plain/ is for small regions; use POST /latest/snapshot/ for larger extractions";

function tagFilter(params: SnapshotParamsPlain): TagFilter {
  const where = params.where ?? DEFAULTS.where;
  return {
    join: (params.joinBy ?? DEFAULTS.joinBy) === "AND" ? "and" : "or",
    // ["*"] is how the real service writes "any value"; so is an empty list here.
    conditions: where.map(({ key, value }) => ({ key, values: value.includes("*") ? [] : value })),
  };
}

export const snapshotPlainRoutes: FastifyPluginAsync<RouteContext> = async (app, context) => {
  app.post<{ Body: SnapshotParamsPlain }>(
    "/snapshot/plain/",
    {
      schema: {
        tags: ["raw data export"],
        summary: "Features of a small region as GeoJSON, at once",
        description: `For small regions: more than ${context.plainFeatureLimit} matching features, or features that take more than ${MAX_PLAIN_ANSWER_BYTES} bytes of GeoJSON, is a 422 that points to POST /snapshot/.`,
        body: { $ref: "SnapshotParamsPlain#" },
        response: { 200: { $ref: "PlainSnapshotResponse#" }, 422: { $ref: "HTTPValidationError#" } },
      },
      preValidation: acceptAliases(snapshotParamsPlainAliases),
    },
    async (request, reply) => {
      const params = request.body;
      const selection = plainSelection(params.select ?? DEFAULTS.select);
      const area = await areaFromBBox(params.bbox, ["body", "bbox"]);
      try {
        const query: FeatureQuery = {
          tables: params.lookIn ?? DEFAULTS.lookIn,
          ...(params.geometryType && { geometry: params.geometryType }),
          area,
          tags: tagFilter(params),
          offset: 0,
          limit: context.plainFeatureLimit,
          order: "id",
        };
        const features = new JsonArrayBytes();
        // The answer is built in one go: its bytes bound the time it holds the event loop.
        const { hasMore } = await findFeatures(context.store, query, ({ feature }) => {
          features.add(plainFeatureJson(feature, selection));
          if (features.byteLength > MAX_PLAIN_ANSWER_BYTES) {
            throw problem(["body"], `the features take more than ${MAX_PLAIN_ANSWER_BYTES / 1024 / 1024} MiB of GeoJSON: ${USE_SNAPSHOT}, or select fewer tags`, "answer_too_large");
          }
        });
        if (hasMore) throw problem(["body"], `more than ${context.plainFeatureLimit} features match: ${USE_SNAPSHOT}`, "too_many_features");
        const head: Omit<PlainSnapshotResponse, "features"> = { type: "FeatureCollection" };
        return sendJson(reply, features.memberOf(head, "features"));
      } finally {
        area.dispose?.();
      }
    },
  );
};
