/**
 * raw-data-api's task administration (GET /tasks/revoke/{id}/, /tasks/inspect/, /tasks/ping/,
 * /tasks/purge/, /tasks/queue/, /tasks/queue/details/{queue}/): Celery's answers, from this
 * server's one queue, which both of upstream's queue names (raw_daemon, raw_ondemand) name.
 */
import type { customExportResultSchema } from "./custom.js";
import { UUID_PATTERN, type areaStatsSchema, type exportResultSchema } from "./snapshot.js";
import type { Answer, Request } from "./wire.js";

/** FastAPI's booleans in a query string. */
export const QUERY_BOOLEANS = ["true", "false", "True", "False", "TRUE", "FALSE", "1", "0", "yes", "no", "on", "off"] as const;
export const isTrue = (value: string | undefined, fallback: boolean): boolean => (value === undefined ? fallback : ["true", "1", "yes", "on"].includes(value.toLowerCase()));

export const inspectQuerySchema = {
  $id: "InspectQuery",
  type: "object",
  properties: { summary: { enum: QUERY_BOOLEANS, default: "true", description: "Each worker's task in brief (true), or every running task in full (false)" } },
} as const;

export type InspectQuery = Request<typeof inspectQuerySchema>;

export const queueDetailsQuerySchema = {
  $id: "QueueDetailsQuery",
  type: "object",
  properties: { args: { enum: QUERY_BOOLEANS, default: "false", description: "With each task's request (args)" } },
} as const;

export type QueueDetailsQuery = Request<typeof queueDetailsQuerySchema>;

export const taskRevokedSchema = {
  $id: "TaskRevoked",
  description: "The task is revoked: it will not run, or its run was stopped",
  type: "object",
  required: ["id"],
  additionalProperties: false,
  properties: { id: { type: "string" } },
} as const;

export type TaskRevoked = Answer<typeof taskRevokedSchema>;

export const tasksPurgedSchema = {
  $id: "TasksPurged",
  description: "How many waiting tasks were discarded",
  type: "object",
  required: ["tasks_discarded"],
  additionalProperties: false,
  properties: { tasks_discarded: { type: "integer", minimum: 0 } },
} as const;

export type TasksPurged = Answer<typeof tasksPurgedSchema>;

/** A running task as Celery's inspect().active() lists it (the members a client may read). */
const activeTaskSchema = {
  type: "object",
  required: ["id", "name", "hostname", "time_start", "worker_pid"],
  additionalProperties: false,
  properties: {
    id: { type: "string" },
    name: { type: "string", description: "process_raw_data (a snapshot export) or process_custom_request (a custom export)" },
    hostname: { type: "string", description: "The worker's name" },
    time_start: { type: ["number", "null"], description: "When the run started, in seconds since 1970" },
    worker_pid: { type: ["integer", "null"], description: "The worker's process id, when its name says it" },
  },
} as const;

export type ActiveTask = Answer<typeof activeTaskSchema>;

export const workersInspectSchema = {
  $id: "WorkersInspect",
  description: "The tasks running now: with summary, each worker's task as {worker: {id, task, time_start}}; without, every task by worker",
  type: "object",
  required: ["active"],
  additionalProperties: false,
  properties: {
    active: {
      anyOf: [
        {
          type: "array",
          items: {
            type: "object",
            additionalProperties: {
              type: "object",
              required: ["id", "task", "time_start"],
              additionalProperties: false,
              properties: { id: { type: "string" }, task: { type: "string" }, time_start: { type: ["string", "null"], description: "%Y-%m-%d %H:%M:%S, UTC" } },
            },
          },
        },
        { type: "object", additionalProperties: { type: "array", items: activeTaskSchema } },
        { type: "null" },
      ],
    },
  },
} as const;

export type WorkersInspect = Answer<typeof workersInspectSchema>;

export const workersPingSchema = {
  $id: "WorkersPing",
  description: 'Every worker alive, answering {"ok": "pong"}; null when none is',
  type: ["object", "null"],
  additionalProperties: { type: "object", required: ["ok"], additionalProperties: false, properties: { ok: { const: "pong" } } },
} as const;

export type WorkersPing = Answer<typeof workersPingSchema>;

export const queueLengthsSchema = {
  $id: "QueueLengths",
  description: "Tasks waiting in each queue (both names are this server's one queue)",
  type: "object",
  additionalProperties: { type: "object", required: ["length"], additionalProperties: false, properties: { length: { type: "integer", minimum: 0 } } },
} as const;

export type QueueLengths = Answer<typeof queueLengthsSchema>;

export const queueDetailsSchema = {
  $id: "QueueDetails",
  description: "The waiting tasks in the order they will run",
  type: "array",
  items: {
    type: "object",
    required: ["index", "id"],
    additionalProperties: false,
    properties: {
      index: { type: "integer", minimum: 0 },
      id: { type: "string" },
      args: { type: "string", description: "With args=true: the task's request, as JSON text" },
    },
  },
} as const;

export type QueueDetails = Answer<typeof queueDetailsSchema>;

/** HOT's (Celery's) task states; REVOKED is Celery's for a task stopped by revoke. */
export const TASK_STATES = ["PENDING", "STARTED", "SUCCESS", "FAILURE", "REVOKED"] as const;

export const taskStatusSchema = {
  $id: "TaskStatus",
  description: "The task's state; once SUCCESS, where to download the export",
  type: "object",
  required: ["id", "status", "result", "progress"],
  additionalProperties: false,
  properties: {
    id: { type: "string", pattern: UUID_PATTERN },
    status: { enum: TASK_STATES, description: "REVOKED: stopped by GET /tasks/revoke/{task_id}/ or /tasks/purge/" },
    result: {
      description: "null until SUCCESS; {error} on FAILURE",
      anyOf: [
        { type: "null" },
        { $ref: "ExportResult#" },
        { $ref: "CustomExportResult#" },
        { type: "object", required: ["error"], additionalProperties: false, properties: { error: { type: "string", description: "One line: why the export failed" } } },
      ],
    },
    progress: { type: "integer", minimum: 0, maximum: 100 },
  },
} as const;

export type TaskStatus = Answer<typeof taskStatusSchema, [typeof exportResultSchema, typeof areaStatsSchema, typeof customExportResultSchema]>;
export type TaskStatusName = TaskStatus["status"];
