/**
 * POST /snapshot/ (queue an export, answer at once) and GET /tasks/status/{task_id}/ (how it
 * goes, and where to download it once done).
 */
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from "fastify";
import { MAX_LIST_ITEMS } from "../api/limits.js";
import { FILTER_GEOMETRIES, snapshotParamsAliases, UUID_PATTERN, type FilterGeometry, type Flag, type SnapshotAccepted, type SnapshotParams } from "../api/snapshot.js";
import { type TaskStatus } from "../api/tasks.js";
import { attributeKeys, isJoined } from "../exports/plan.js";
import { exportParams } from "../exports/request.js";
import { BARE_FORMATS, BARE_FORMATS_TEXT } from "../formats/types.js";
import type { ExportTaskPayload } from "../tasks/export-tasks.js";
import { snapshotSummary, type ExportSummary } from "../exports/summary.js";
import { QueueFull } from "../tasks/queue.js";
import type { ValidationError } from "../api/errors.js";
import { ROLE_NUMBERS, type AuthFailure } from "../api/auth.js";
import { accessToken, AUTHENTICATION_FAILED, ownerOf, type AccessTokens } from "../http/access.js";
import { sentRequest } from "../http/sent-request.js";
import type { ExportsContext } from "./context.js";
import { acceptAliases } from "../http/aliases.js";
import type { Refused } from "../http/body-checks.js";
import { exportAreaProblems, polygonalArea, type AreaLimit } from "../http/export-area.js";
import { taskStatus } from "../http/task-status.js";
import { baseUrl } from "../http/base-url.js";

/** What the schema cannot say about a request, every problem of the members it accepted. */
async function snapshotProblems(params: SnapshotParams, maxAreaKm2: number, refused: Refused): Promise<ValidationError[]> {
  const problems: ValidationError[] = [];
  const { minZoom, maxZoom } = params;
  if (!refused(["body", "minZoom"]) && !refused(["body", "maxZoom"]) && minZoom !== undefined && maxZoom !== undefined && minZoom > maxZoom) {
    problems.push({ loc: ["body", "maxZoom"], msg: `"maxZoom" must not be below "minZoom"; found minZoom ${minZoom}, maxZoom ${maxZoom}`, type: "value_error" });
  }
  problems.push(...bareFormatProblems(params, refused));
  problems.push(...(await areaAndFilterProblems(params, { km2: maxAreaKm2, advice: "for one export; split it into smaller areas" }, refused)));
  return problems;
}

/** The problems of the members /snapshot/ and the newer /snapshot/plain/ share: filters and the area. */
export async function areaAndFilterProblems(params: Pick<SnapshotParams, "geometry" | "filters">, limit: AreaLimit, refused: Refused): Promise<ValidationError[]> {
  const problems: ValidationError[] = [];
  for (const [geometry, attributes] of knownGeometries(params.filters?.attributes)) {
    const loc = ["body", "filters", "attributes", geometry];
    if (refused(loc)) continue;
    // The schema bounds the entries; an entry may name several keys ("name, addr:street"), and each is a column.
    const keys = attributeKeys(attributes).length;
    if (keys > MAX_LIST_ITEMS) problems.push({ loc, msg: `"${geometry}" must name at most ${MAX_LIST_ITEMS} tag keys; found ${keys}`, type: "too_long" });
  }
  problems.push(...mixedTagFilters(params, refused));
  if (!refused(["body", "geometry"])) problems.push(...(await exportAreaProblems(params.geometry, ["body", "geometry"], limit)));
  return problems;
}

/**
 * The entries of filters.tags or filters.attributes that the schema names and checks. Others are
 * unknown members, ignored whatever they hold (decisions: unknown members), never read.
 */
function knownGeometries<T>(byGeometry: Partial<Record<FilterGeometry, T>> | undefined): Array<[FilterGeometry, T]> {
  // Unread when the schema refused it: null or a list, say.
  if (byGeometry === null || typeof byGeometry !== "object") return [];
  return FILTER_GEOMETRIES.flatMap((geometry) => (Object.hasOwn(byGeometry, geometry) ? [[geometry, byGeometry[geometry] as T]] : []));
}

/** A filter in the joinOr/joinAnd form holds nothing else: a tag key beside them would be read by neither form. */
function mixedTagFilters(params: Pick<SnapshotParams, "filters">, refused: Refused): ValidationError[] {
  return knownGeometries(params.filters?.tags).flatMap(([geometry, entry]) => {
    const loc = ["body", "filters", "tags", geometry];
    if (refused(loc) || !isJoined(entry)) return [];
    return Object.keys(entry)
      .filter((key) => key !== "joinOr" && key !== "joinAnd")
      .map((key) => ({ loc: [...loc, key], msg: `"${key}" stands beside joinOr/joinAnd: put it in one of them (a filter is either tag keys or the two groups)`, type: "value_error" }));
  });
}

/** Without the zip, the export is served as its one file: only the formats that are one file a client reads as it comes. */
function bareFormatProblems(params: SnapshotParams, refused: Refused): ValidationError[] {
  const outputType = params.outputType ?? "geojson";
  if (refused(["body", "bindZip"]) || refused(["body", "outputType"]) || !isFalse(params.bindZip) || BARE_FORMATS.includes(outputType)) return [];
  const msg = `"bindZip" false serves the export as one bare file, which only ${BARE_FORMATS_TEXT} exports are (raw-data-api streams those alone); a ${outputType} export comes zipped: leave bindZip true`;
  return [{ loc: ["body", "bindZip"], msg, type: "value_error" }];
}

const isFalse = (flag: Flag | undefined): boolean => flag === false || flag === "false";

/**
 * With a users file, what upstream refuses an export request: a token that is nobody's, and
 * `uuid` false (files named without the task id) from anyone below staff. Undefined: allowed.
 */
function refusedAccess(tokens: AccessTokens | undefined, request: FastifyRequest<{ Body: SnapshotParams }>): AuthFailure | undefined {
  if (tokens === undefined) return undefined;
  const token = accessToken(request);
  const user = token === undefined ? undefined : tokens.user(token);
  if (token !== undefined && user === undefined) return AUTHENTICATION_FAILED;
  const staff = user !== undefined && user.role <= ROLE_NUMBERS.staff;
  return !staff && isFalse(request.body.uuid) ? { detail: [{ msg: "Insufficient Permission for uuid = False" }] } : undefined;
}

/**
 * Queues an export, in the history with its summary and as its caller's, and answers with the
 * task to poll, or a 503 that says what is full.
 */
export async function enqueueExport(
  context: ExportsContext,
  request: FastifyRequest,
  reply: FastifyReply,
  payload: ExportTaskPayload,
  summary: ExportSummary,
): Promise<SnapshotAccepted | FastifyReply> {
  let task;
  try {
    task = await context.queue.enqueue(payload, { summary, owner: ownerOf(context.tokens, request) });
  } catch (error) {
    if (!(error instanceof QueueFull)) throw error;
    // The queue says what is full: the embedded queue's disk, or the memory of a Redis.
    return reply.code(503).send({ detail: `${error.message}: the export could not be queued; try again once old exports are deleted` });
  }
  const trackLink = `/tasks/status/${task.id}/`;
  return { taskId: task.id, trackLink, task_id: task.id, track_link: trackLink };
}

export const snapshotRoutes: FastifyPluginAsync<ExportsContext> = async (app, context) => {
  app.post<{ Body: SnapshotParams }>(
    "/snapshot/",
    {
      schema: {
        tags: ["raw data export"],
        summary: "Queue an export of the features in an area to a zip file",
        description: `Answers at once with the task to poll. Areas above ${context.maxAreaKm2.toLocaleString("en-US")} km² are a 422.`,
        body: { $ref: "RawDataCurrentParams#" },
        response: {
          200: { $ref: "SnapshotAccepted#" },
          403: { $ref: "AuthFailure#", description: "With a users file: an access-token that is nobody's, or uuid false from below staff" },
          422: { $ref: "HTTPValidationError#" },
          503: { $ref: "HTTPError#", description: "The export could not be queued: the task queue is full (its disk, or its Redis), or it cannot be reached now" },
        },
      },
      preValidation: acceptAliases(snapshotParamsAliases),
      config: { checks: (body: SnapshotParams, refused) => snapshotProblems(body, context.maxAreaKm2, refused) },
    },
    async (request, reply) => {
      const refused = refusedAccess(context.tokens, request);
      if (refused !== undefined) return reply.code(403).send(refused);
      const params = exportParams(request.body, await polygonalArea(request.body.geometry));
      return enqueueExport(context, request, reply, { params }, snapshotSummary(params, sentRequest(request)));
    },
  );

  app.get<{ Params: { task_id: string } }>(
    "/tasks/status/:task_id/",
    {
      schema: {
        tags: ["raw data export"],
        summary: "The state of an export task, and its download once done",
        params: { type: "object", properties: { task_id: { type: "string", pattern: UUID_PATTERN, description: "The task id POST /snapshot/ answered with" } } },
        response: { 200: { $ref: "TaskStatus#" }, 404: { $ref: "HTTPError#" }, 422: { $ref: "HTTPValidationError#" } },
      },
    },
    async (request, reply) => {
      const id = request.params.task_id;
      const task = await context.queue.get(id);
      if (task === null) {
        return reply.code(404).send({ detail: `no task ${id}: it was never queued here, or it finished longer ago than exports are kept and was forgotten` });
      }
      const body: TaskStatus = taskStatus(task, baseUrl(request, context.publicUrl));
      return body;
    },
  );
};
