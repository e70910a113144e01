/**
 * POST /snapshot/ (queue an export, answer at once) and GET /tasks/status/{task_id}/ (how it
 * goes, and where to download it once done).
 */
import type { FastifyPluginAsync, FastifyRequest } from "fastify";
import { MAX_LIST_ITEMS } from "../../api/limits.js";
import { snapshotParamsAliases, UUID_PATTERN, type SnapshotAccepted, type SnapshotParams, type TaskStatus } from "../../api/snapshot.js";
import { attributeKeys } from "../../export/plan.js";
import { areaKm2 } from "../../geometry/area.js";
import { polygonProblems } from "../../geometry/validity.js";
import type { ExportsContext } from "../app.js";
import { acceptAliases } from "../aliases.js";
import { problem, RequestProblem } from "../problems.js";
import { taskStatus } from "../task-status.js";

async function checkParams(params: SnapshotParams, maxAreaKm2: number): Promise<void> {
  if (params.minZoom !== undefined && params.maxZoom !== undefined && params.minZoom > params.maxZoom) {
    throw problem(["body", "maxZoom"], `"maxZoom" must not be below "minZoom"; found minZoom ${params.minZoom}, maxZoom ${params.maxZoom}`);
  }
  for (const [geometry, attributes] of Object.entries(params.filters?.attributes ?? {})) {
    // The schema bounds the entries; an entry may name several keys ("name, addr:street"), and each is a column.
    const keys = attributeKeys(attributes).length;
    if (keys > MAX_LIST_ITEMS) {
      throw problem(["body", "filters", "attributes", geometry], `"${geometry}" must name at most ${MAX_LIST_ITEMS} tag keys; found ${keys}`, "too_long");
    }
  }
  const problems = await polygonProblems(params.geometry);
  if (problems.length > 0) {
    throw new RequestProblem(problems.map((found) => ({ loc: ["body", "geometry", ...found.path], msg: found.message, type: "value_error" })));
  }
  const area = areaKm2(params.geometry);
  if (area > maxAreaKm2) {
    throw problem(
      ["body", "geometry"],
      `the area is ${Math.round(area).toLocaleString("en-US")} km², above the limit of ${maxAreaKm2.toLocaleString("en-US")} km² for one export; split it into smaller areas`,
    );
  }
}

/** Where clients reach this server: the configured public URL, else what the request was sent to. */
function baseUrl(request: FastifyRequest, publicUrl: string | undefined): string {
  return (publicUrl ?? `${request.protocol}://${request.host}`).replace(/\/+$/, "");
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
        response: { 200: { $ref: "SnapshotAccepted#" }, 422: { $ref: "HTTPValidationError#" } },
      },
      preValidation: acceptAliases(snapshotParamsAliases),
    },
    async (request) => {
      await checkParams(request.body, context.maxAreaKm2);
      const task = await context.queue.enqueue({ params: request.body });
      const trackLink = `/tasks/status/${task.id}/`;
      const body: SnapshotAccepted = { taskId: task.id, trackLink, task_id: task.id, track_link: trackLink };
      return body;
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
      if (task === null) return reply.code(404).send({ detail: `no task ${id}: it was never queued here` });
      const body: TaskStatus = taskStatus(task, baseUrl(request, context.publicUrl));
      return body;
    },
  );
};
