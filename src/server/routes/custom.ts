/**
 * POST /custom/snapshot/ (and /custom/snapshot/yaml/, the same request written in YAML): raw-data-api's
 * custom exports, as HOT's Tasking Manager extractor sends them. Checked whole here (every
 * category's `where` read, the country found), queued, and run by the export workers.
 */
import type { FastifyInstance, FastifyPluginAsync, FastifyReply, FastifyRequest } from "fastify";
import type { CustomSnapshotParams } from "../api/custom.js";
import type { ValidationError } from "../api/errors.js";
import type { CustomCategoryJob, CustomExportJob } from "../exports/custom.js";
import { MAX_LIST_ITEMS, MAX_TAG_LENGTH } from "../api/limits.js";
import { parseWhere, WhereSyntaxError, type WhereBounds } from "../query/where-text.js";
import type { FeatureStore } from "../store/store.js";
import { refusedRole } from "../http/access.js";
import type { ExportsContext } from "./context.js";
import type { Refused } from "../http/body-checks.js";
import { countryArea, unknownCountry } from "../http/countries.js";
import { exportAreaProblems, polygonalArea } from "../http/export-area.js";
import { readBodiesAsYaml } from "../http/yaml-body.js";
import { enqueueExport } from "./snapshot.js";
import { customSummary } from "../exports/summary.js";
import { sentRequest } from "../http/sent-request.js";

export interface CustomContext extends ExportsContext {
  store: FeatureStore;
}

/** The categories as named entries, empty objects skipped as upstream skips them. */
function categoryEntries(params: CustomSnapshotParams): Array<{ name: string; index: number; category: CustomSnapshotParams["categories"][number][string] }> {
  return params.categories.flatMap((named, index) => Object.entries(named).map(([name, category]) => ({ name, index, category })));
}

/** A where holds no more than any list of a request, keys and values no longer than anywhere else. */
const WHERE_BOUNDS: WhereBounds = { conditions: MAX_LIST_ITEMS, values: MAX_LIST_ITEMS, characters: MAX_TAG_LENGTH };

/** The `where` of a category read, or the 422 that says where it goes wrong. */
function whereProblem(where: string, loc: Array<string | number>): ValidationError | undefined {
  try {
    parseWhere(where, WHERE_BOUNDS);
    return undefined;
  } catch (error) {
    if (!(error instanceof WhereSyntaxError)) throw error;
    return { loc, msg: error.message, type: "value_error" };
  }
}

/** No area limit: upstream keeps the route to staff, who export whole countries with it. */
const NO_LIMIT = { km2: Number.POSITIVE_INFINITY, advice: "" };

async function customProblems(store: FeatureStore, params: CustomSnapshotParams, refused: Refused): Promise<ValidationError[]> {
  const problems: ValidationError[] = [];
  if (!refused(["body", "categories"])) {
    if (categoryEntries(params).length === 0) problems.push({ loc: ["body", "categories"], msg: "Categories can't be empty: name at least one, as {\"Roads\": {...}}", type: "value_error" });
    for (const { name, index, category } of categoryEntries(params)) {
      const loc = ["body", "categories", index, name, "where"];
      const found = refused(loc) ? undefined : whereProblem(category.where, loc);
      if (found) problems.push(found);
    }
  }
  if (refused(["body", "geometry"]) || refused(["body", "iso3"])) return problems;
  const { geometry, iso3 } = params;
  if (geometry !== undefined && iso3 !== undefined) problems.push({ loc: ["body"], msg: "Only one of geometry or iso3 should be supplied.", type: "value_error" });
  else if (geometry === undefined && iso3 === undefined) problems.push({ loc: ["body"], msg: 'Either geometry or iso3 should be supplied: an area as "geometry", or a country as "iso3"', type: "value_error" });
  else if (geometry !== undefined) {
    problems.push(...(await exportAreaProblems(geometry, ["body", "geometry"], NO_LIMIT)));
    if (!refused(["body", "dataset"]) && params.dataset?.dataset_prefix === undefined) {
      problems.push({ loc: ["body", "dataset", "dataset_prefix"], msg: 'with a geometry, "dataset": {"dataset_prefix": ...} is needed: it starts every file\'s name (with an iso3, it is hotosm_<iso3>)', type: "missing" });
    }
  } else if ((await countryArea(store, iso3!)) === undefined) problems.push(unknownCountry(iso3!, ["body", "iso3"]));
  return problems;
}

/** The checked request as the export runs it. */
async function customJob(store: FeatureStore, params: CustomSnapshotParams): Promise<CustomExportJob> {
  const categories = categoryEntries(params).map(
    ({ name, category }): CustomCategoryJob => ({ name, types: category.types, select: category.select, tags: parseWhere(category.where, WHERE_BOUNDS), formats: category.formats }),
  );
  const geometry = params.geometry === undefined ? (await countryArea(store, params.iso3!))! : await polygonalArea(params.geometry);
  const prefix = params.dataset?.dataset_prefix ?? `hotosm_${params.iso3!.toLowerCase()}`;
  return { geometry, clippingBoundary: params.geometry !== undefined, prefix, categories, request: params };
}

const schema = (summary: string, consumes: string[]) => ({
  tags: ["raw data export"],
  summary,
  description:
    `One zip per category, geometry type and format, listed in the task's result. Staff only with a users file (\`serve --users\`), as upstream. A \`where\` takes tags['key'] IS NOT NULL, = 'value' and IN ('a', 'b'), joined by AND and OR with parentheses: at most ${MAX_LIST_ITEMS} conditions, IN lists of at most ${MAX_LIST_ITEMS} values, keys and values of at most ${MAX_TAG_LENGTH} characters.`,
  consumes,
  body: { $ref: "DynamicCategoriesModel#" },
  security: [{ accessToken: [] }],
  response: {
    200: { $ref: "SnapshotAccepted#" },
    403: { $ref: "AuthFailure#", description: "With a users file: a token that is nobody's, or a caller below staff" },
    422: { $ref: "HTTPValidationError#" },
    503: { $ref: "HTTPError#", description: "The export could not be queued: the task queue is full (its disk, or its Redis), or it cannot be reached now" },
  },
});

function route(app: FastifyInstance, path: string, summary: string, consumes: string[], context: CustomContext): void {
  app.post<{ Body: CustomSnapshotParams }>(
    path,
    {
      schema: schema(summary, consumes),
      config: { checks: (body: CustomSnapshotParams, refused) => customProblems(context.store, body, refused) },
      // Before the body is read: a caller the route is not for costs the server no parsing, and learns so first.
      onRequest: async (request, reply) => {
        const refused = refusedRole(context.tokens, request, "staff");
        if (refused !== undefined) return reply.code(refused.status).send(refused.body);
        return undefined;
      },
    },
    async (request: FastifyRequest<{ Body: CustomSnapshotParams }>, reply: FastifyReply) => {
      const job = await customJob(context.store, request.body);
      return enqueueExport(context, request, reply, { custom: job }, customSummary(job, sentRequest(request)));
    },
  );
}

export const customRoutes: FastifyPluginAsync<CustomContext> = async (app, context) => {
  route(app, "/custom/snapshot/", "Queue a custom export: categories of features, each with its own columns, filter and formats", ["application/json"], context);
  // The YAML route in a context of its own, whose bodies are read as YAML.
  await app.register(async (yaml) => {
    readBodiesAsYaml(yaml);
    route(yaml, "/custom/snapshot/yaml/", "Queue a custom export written in YAML (as HOT's export configurations are)", ["application/x-yaml", "application/yaml", "text/yaml"], context);
  });
};
