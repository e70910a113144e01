/**
 * raw-data-api's task administration, answered from the export queue as upstream answers it from
 * Celery: revoke a task (staff), purge the waiting ones (admin), and look at the workers and the
 * queue. Upstream has two queues; both of their names are this server's one queue.
 */
import type { FastifyPluginAsync } from "fastify";
import { QUEUE_NAMES } from "../api/custom.js";
import { UUID_PATTERN } from "../api/snapshot.js";
import { isTrue, type ActiveTask, type InspectQuery, type QueueDetails, type QueueDetailsQuery, type QueueLengths, type TaskRevoked, type TasksPurged, type WorkersInspect, type WorkersPing } from "../api/tasks.js";
import type { ExportTaskPayload } from "../tasks/export-tasks.js";
import { refusedRole } from "../http/access.js";
import type { ExportsContext } from "./context.js";

/** Upstream's Celery task names. */
const taskName = (payload: ExportTaskPayload): string => ("custom" in payload ? "process_custom_request" : "process_raw_data");

/** The process id in a worker's name (basemodel@host:pid), as Celery reports its worker_pid. */
const pidOf = (worker: string): number | null => {
  const match = /:(\d+)(?:#\d+)?$/.exec(worker);
  return match ? Number(match[1]) : null;
};

/** Celery's summary time: "%Y-%m-%d %H:%M:%S" (here UTC). */
const summaryTime = (iso: string | null): string | null => (iso === null ? null : iso.slice(0, 19).replace("T", " "));

const FAILURES = { 403: { $ref: "AuthFailure#", description: "With a users file: a token that is nobody's, or a role too low" }, 422: { $ref: "HTTPValidationError#" } } as const;
const TAGS = ["raw data export"];

export const taskRoutes: FastifyPluginAsync<ExportsContext> = async (app, { queue, tokens }) => {
  app.get<{ Params: { task_id: string } }>(
    "/tasks/revoke/:task_id/",
    {
      schema: {
        tags: TAGS,
        summary: "Revoke a task: a waiting one never runs, a running one is stopped (staff)",
        params: { type: "object", properties: { task_id: { type: "string", pattern: UUID_PATTERN, description: "The task to revoke" } } },
        security: [{ accessToken: [] }],
        response: { 200: { $ref: "TaskRevoked#" }, 404: { $ref: "HTTPError#" }, ...FAILURES },
      },
    },
    async (request, reply) => {
      const refused = refusedRole(tokens, request, "staff");
      if (refused !== undefined) return reply.code(refused.status).send(refused.body);
      const id = request.params.task_id;
      if ((await queue.revoke(id)) === null) return reply.code(404).send({ detail: `no task ${id}: it was never queued here, or it was forgotten` });
      const body: TaskRevoked = { id };
      return body;
    },
  );

  app.get(
    "/tasks/purge/",
    {
      schema: { tags: TAGS, summary: "Discard every waiting task (admin)", security: [{ accessToken: [] }], response: { 200: { $ref: "TasksPurged#" }, ...FAILURES } },
    },
    async (request, reply) => {
      const refused = refusedRole(tokens, request, "admin");
      if (refused !== undefined) return reply.code(refused.status).send(refused.body);
      let discarded = 0;
      // What waited when asked; one that a worker took in the meantime is stopped with the rest.
      for (const task of await queue.waiting()) if ((await queue.revoke(task.id))?.state === "REVOKED") discarded++;
      const body: TasksPurged = { tasks_discarded: discarded };
      return body;
    },
  );

  app.get<{ Querystring: InspectQuery }>(
    "/tasks/inspect/",
    { schema: { tags: TAGS, summary: "The tasks the workers run now", querystring: { $ref: "InspectQuery#" }, response: { 200: { $ref: "WorkersInspect#" }, 422: { $ref: "HTTPValidationError#" } } } },
    async (request): Promise<WorkersInspect> => {
      const active = await queue.active();
      if (isTrue(request.query.summary, true)) {
        // Upstream's summary keeps one task per worker: the last one listed.
        const byWorker = new Map(active.map((task) => [task.worker, { id: task.id, task: taskName(task.payload), time_start: summaryTime(task.startedAt) }]));
        return { active: [...byWorker].map(([worker, task]) => ({ [worker]: task })) };
      }
      const workers = await queue.workers();
      const full: Record<string, ActiveTask[]> = Object.fromEntries(workers.map((worker) => [worker, []]));
      for (const task of active) {
        (full[task.worker] ??= []).push({
          id: task.id,
          name: taskName(task.payload),
          hostname: task.worker,
          time_start: task.startedAt === null ? null : Date.parse(task.startedAt) / 1000,
          worker_pid: pidOf(task.worker),
        });
      }
      return { active: Object.keys(full).length === 0 ? null : full };
    },
  );

  app.get(
    "/tasks/ping/",
    { schema: { tags: TAGS, summary: "The workers alive now", response: { 200: { $ref: "WorkersPing#" } } } },
    async (): Promise<WorkersPing> => {
      const workers = await queue.workers();
      return workers.length === 0 ? null : Object.fromEntries(workers.map((worker) => [worker, { ok: "pong" as const }]));
    },
  );

  app.get(
    "/tasks/queue/",
    { schema: { tags: TAGS, summary: "How many tasks wait in each queue", response: { 200: { $ref: "QueueLengths#" } } } },
    async (): Promise<QueueLengths> => {
      const length = await queue.pendingCount();
      return Object.fromEntries(QUEUE_NAMES.map((name) => [name, { length }]));
    },
  );

  app.get<{ Params: { queue_name: string }; Querystring: QueueDetailsQuery }>(
    "/tasks/queue/details/:queue_name/",
    {
      schema: {
        tags: TAGS,
        summary: "The tasks waiting in a queue, in the order they will run; with args, their requests (staff, with a users file)",
        params: { type: "object", properties: { queue_name: { type: "string", maxLength: 255, description: `${QUEUE_NAMES.join(" or ")}` } } },
        querystring: { $ref: "QueueDetailsQuery#" },
        security: [{ accessToken: [] }],
        response: { 200: { $ref: "QueueDetails#" }, 404: { $ref: "HTTPError#" }, ...FAILURES },
      },
    },
    async (request, reply) => {
      const name = request.params.queue_name;
      if (!(QUEUE_NAMES as readonly string[]).includes(name)) return reply.code(404).send({ detail: `Queue '${name}' not found` });
      const withArgs = isTrue(request.query.args, false);
      // The requests name their callers' areas, dataset prefixes and file names: with a users file, only staff see them (upstream shows anyone).
      const refused = withArgs ? refusedRole(tokens, request, "staff") : undefined;
      if (refused !== undefined) return reply.code(refused.status).send(refused.body);
      const body: QueueDetails = (await queue.waiting()).map((task, index) => ({ index, id: task.id, ...(withArgs && { args: JSON.stringify(task.payload) }) }));
      return body;
    },
  );
};
