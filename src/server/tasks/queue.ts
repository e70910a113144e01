/**
 * The task queue contract. The export routes enqueue and read tasks; workers run them. The
 * embedded SQLite queue implements it for one machine; a Redis (BullMQ) or PostgreSQL queue
 * must provide the same, so nothing outside src/server/tasks knows which one runs.
 *
 * States are HOT's (Celery's) task states: PENDING (queued, or waiting to be retried),
 * STARTED (a worker runs it), SUCCESS, FAILURE, REVOKED (stopped by revoke(); it never runs again).
 */
import { hostname } from "node:os";
import type { TASK_STATES } from "../api/tasks.js";

export type TaskState = (typeof TASK_STATES)[number];

/**
 * What is known of a task. Not its payload: only the handler needs that, and a queue may drop
 * it once the task has finished (a payload can be as large as a request body).
 */
export interface Task<R = unknown> {
  /** A UUID. */
  id: string;
  state: TaskState;
  /** 0-100: how far the current run has got; 100 on SUCCESS, 0 once REVOKED. */
  progress: number;
  /** Set on SUCCESS; null before. */
  result: R | null;
  /** One line on FAILURE (the last attempt's reason, never a stack trace); null otherwise. */
  error: string | null;
  /** Runs started so far, the current one included. */
  attempts: number;
  /** ISO-8601 UTC times; finishedAt is when the task ended: SUCCESS, FAILURE or REVOKED. */
  createdAt: string;
  startedAt: string | null;
  finishedAt: string | null;
}

export interface TaskContext {
  readonly id: string;
  /** Which run this is, from 1: a task may run again after a failure or a crash. */
  readonly attempt: number;
  /** Records how far the run has got (0-100); cheap to call often, the queue throttles writes. */
  progress(percent: number): void;
  /**
   * Aborted when the queue closes, the task then running again later, or when the task is
   * revoked: either way the handler should stop soon.
   */
  readonly signal: AbortSignal;
}

export type TaskHandler<P, R> = (payload: P, context: TaskContext) => Promise<R>;

/**
 * What a task's history keeps beside its state: given to enqueue(), kept until prune() forgets
 * the task, unlike its payload. The queue is the one record of a task, so its history is the
 * queue's too: it lives where the task lives (the SQLite file, Redis), is seen alike by every
 * process and machine that reaches the queue, and goes when the task goes.
 */
export interface HistoryEntry<S> {
  /** What the task is, as its history shows it: JSON. */
  summary: S;
  /** Who asked for it (a user's id); null for no one in particular. history() may list one owner's tasks alone. */
  owner: string | null;
}

/** Which part of the history to list. */
export interface HistoryQuery {
  /** At most this many tasks (at least 1). */
  limit: number;
  /** Only the tasks enqueued before this one (the last task of a page, for the next page). */
  before?: string;
  /** Only this owner's tasks. */
  owner?: string;
  /**
   * The page ends before the task whose summary would take its summaries past this many bytes
   * of JSON text, so that no page is larger than an answer should be; its first task always comes.
   */
  maxBytes: number;
}

export interface HistoryPage<R, S> {
  /** Newest first: in the order they were enqueued, the last one first. */
  tasks: Array<Task<R> & HistoryEntry<S>>;
  /** Whether older tasks are left: the next page is `before` the last of these. */
  more: boolean;
}

/** Thrown by enqueue() when the queue has no room left to record a task (a full disk); nothing was queued. */
export class QueueFull extends Error {
  override name = "QueueFull";
}

/** Thrown by a handler for a failure that running again cannot fix: no retry, FAILURE at once. */
export class PermanentTaskError extends Error {
  override name = "PermanentTaskError";
}

export interface WorkOptions {
  /** How many tasks run at the same time. */
  concurrency: number;
}

/** What a process that only submits, looks up and administers tasks needs of a queue (the HTTP routes). */
export type TaskSubmitter<P, R, S = unknown> = Pick<TaskQueue<P, R, S>, "enqueue" | "get" | "revoke" | "waiting" | "pendingCount" | "active" | "workers" | "history">;

let workingQueues = 0;

/**
 * The name of the workers of a queue on which work() is called, as workers() and active() tell
 * it: Celery's `name@host`, with the process id so that processes on one machine are told
 * apart, and a number for each further working queue of the process.
 */
export function newWorkerName(): string {
  const nth = ++workingQueues;
  return `basemodel@${hostname()}:${process.pid}${nth > 1 ? `#${nth}` : ""}`;
}

export interface TaskQueue<P, R, S = unknown> {
  /**
   * Records a PENDING task durably and returns it; a QueueFull when there is no room for it.
   * With an entry, the task is in the history (history()) until it is pruned.
   */
  enqueue(payload: P, entry?: HistoryEntry<S>): Promise<Task<R>>;
  /** The task, or null when there is none with this id (never queued, or pruned). */
  get(id: string): Promise<Task<R> | null>;
  /** Starts workers that run `handler` on pending tasks, oldest first, until close(). Once per queue. */
  work(handler: TaskHandler<P, R>, options: WorkOptions): void;
  /**
   * Ends a task that has not ended, whichever process asks: it is REVOKED at once. A PENDING one
   * never runs; a STARTED one's handler is aborted (its signal; within about a second when it
   * runs in another process) and the task is not retried. Returns the task, unchanged if it had
   * ended; null when there is none.
   */
  revoke(id: string): Promise<Task<R> | null>;
  /** The PENDING tasks, in the order they will run (oldest first), with their payloads. */
  waiting(): Promise<Array<Task<R> & { payload: P }>>;
  /** How many tasks are PENDING: waiting()'s length, without reading their payloads. */
  pendingCount(): Promise<number>;
  /** The STARTED tasks, with their payloads and the name of the worker that runs each. */
  active(): Promise<Array<Task<R> & { payload: P; worker: string }>>;
  /** The names of the workers alive now (see newWorkerName), in this process or any other. */
  workers(): Promise<string[]>;
  /**
   * The tasks enqueued with a history entry, newest first, each with its entry; null when
   * `query.before` names no task of the history (never in it, or pruned).
   */
  history(query: HistoryQuery): Promise<HistoryPage<R, S> | null>;
  /** Forgets the tasks (SUCCESS, FAILURE and REVOKED) that finished before `before`, their history entries with them; returns how many. */
  prune(before: Date): Promise<number>;
  /**
   * Stops the workers: running handlers are aborted (their signal) and awaited, and their tasks
   * go back to PENDING without using up an attempt. Then releases the queue's resources.
   */
  close(): Promise<void>;
}

/** What opening a queue is told, whichever queue it is. */
export interface QueueOpenOptions {
  /** Runs once this process owns the queue's storage, before the queue writes anything (the embedded queue; see SqliteQueueOptions). */
  onOwned?: () => Promise<void>;
  /** Told of the failures the queue survives. */
  onError?: (error: unknown) => void;
}

/**
 * What every queue's factory says of itself, so that nothing outside src/server/tasks needs to
 * know which queues there are (see open-queue.ts). open() fails with the typed errors of
 * src/server/errors.ts.
 */
export interface TaskQueueFactory {
  /** True for a location that names a queue of this kind. */
  takes(location: string): boolean;
  /** The optional packages the queue loads (its drivers): what to install before it is used. */
  drivers: readonly string[];
  open<P, R, S = unknown>(location: string, options?: QueueOpenOptions): Promise<TaskQueue<P, R, S>>;
}
