/**
 * What the adapters (the stores, the task queues and the drivers they load) report when they
 * cannot do their work: errors with a stable code, in the manner of fastify's @fastify/error.
 * Whoever catches one tells it by its code (or class), never by its wording: the CLI maps each
 * code to an exit code (src/cli/shell.ts), the HTTP layer QUEUE_UNAVAILABLE to a 503.
 */
import { readFileSync } from "node:fs";
import { packageFile } from "../package-files.js";

export type ErrorCode =
  /** How basemodel was called or configured (the CLI's own checks). */
  | "BASEMODEL_USAGE"
  | "BASEMODEL_DRIVER_MISSING"
  | "BASEMODEL_STORE_MISSING"
  | "BASEMODEL_NOT_A_STORE"
  | "BASEMODEL_STORE_SCHEMA_VERSION"
  | "BASEMODEL_STORE_DAMAGED"
  | "BASEMODEL_STORE_UNREADABLE"
  | "BASEMODEL_STORE_UNWRITABLE"
  | "BASEMODEL_STORE_UNREACHABLE"
  | "BASEMODEL_STORE_FAILED"
  | "BASEMODEL_LOAD_FAILED"
  | "BASEMODEL_NOT_A_QUEUE"
  | "BASEMODEL_QUEUE_IN_USE"
  | "BASEMODEL_QUEUE_UNREACHABLE"
  | "BASEMODEL_QUEUE_UNAVAILABLE"
  | "BASEMODEL_STORE_UNAVAILABLE";

/** An address (a database's, a queue's) as messages show it: its password, if any, hidden. */
export function withoutPassword(address: string): string {
  const url = new URL(address);
  if (url.password !== "") url.password = "***";
  return url.toString();
}

export abstract class BasemodelError extends Error {
  abstract readonly code: ErrorCode;
}

/**
 * A class of errors with `code`, whose message `message` words from the details the thrower
 * gives: `new StoreDamaged({ location, why }, { cause })`.
 */
export function createError<Details>(code: ErrorCode, message: (details: Details) => string) {
  return class extends BasemodelError {
    readonly code = code;
    override name = code;

    constructor(
      readonly details: Details,
      options?: ErrorOptions,
    ) {
      super(message(details), options);
    }
  };
}

/** A driver package, an optional peer dependency, is not installed: `user` needs `packages`. */
export const DriverMissing = createError<{ user: string; packages: readonly string[] }>(
  "BASEMODEL_DRIVER_MISSING",
  ({ user, packages }) => `${user} needs the optional ${packages.length === 1 ? "dependency" : "dependencies"} ${packages.join(", ")}: run \`npm install ${installNames(packages)}\``,
);

/** `npm install` arguments for the packages: each at the major version package.json asks for, so the advice stays right when the range moves. */
function installNames(packages: readonly string[]): string {
  const { peerDependencies } = JSON.parse(readFileSync(packageFile("package.json"), "utf8")) as { peerDependencies?: Record<string, string> };
  return packages.map((name) => `${name}@${/\d+/.exec(peerDependencies?.[name] ?? "")?.[0] ?? "latest"}`).join(" ");
}

export const StoreMissing = createError<{ location: string }>(
  "BASEMODEL_STORE_MISSING",
  ({ location }) => `no store at ${location}; create one with basemodel import <file.osm.pbf> --db ${location}`,
);

/** Something that is no store of basemodel's; `hint` says how to make it one. */
export const NotAStore = createError<{ location: string; hint?: string }>(
  "BASEMODEL_NOT_A_STORE",
  ({ location, hint }) => `${location} is not a feature store${hint === undefined ? "" : `: ${hint}`}`,
);

export const StoreSchemaVersion = createError<{ location: string; found: string; reads: string }>(
  "BASEMODEL_STORE_SCHEMA_VERSION",
  ({ location, found, reads }) => `${location} is a feature store of schema version ${found}, and this basemodel reads version ${reads}: import the OSM file again with \`basemodel import\``,
);

/** A store file cut short or overwritten, found so when it was opened or only when a damaged page was read. */
export const StoreDamaged = createError<{ location: string; why: string }>(
  "BASEMODEL_STORE_DAMAGED",
  ({ location, why }) => `${location} is damaged (${why}): restore it from a copy, or import the OSM file again`,
);

/** The store's file cannot be opened (permissions, a vanished folder). */
export const StoreUnreadable = createError<{ location: string; why: string }>("BASEMODEL_STORE_UNREADABLE", ({ location, why }) => `cannot read ${location}: ${why}`);

/** Disk full, permission denied, a read-only folder, a lock held too long: the environment's fault, not a bug. */
export const StoreUnwritable = createError<{ location: string; why: string }>("BASEMODEL_STORE_UNWRITABLE", ({ location, why }) => `cannot write ${location}: ${why}`);

/** A database server that does not let us in: not there, unknown host, refused login, no such database. */
export const StoreUnreachable = createError<{ location: string; reason: string }>("BASEMODEL_STORE_UNREACHABLE", ({ location, reason }) => `cannot connect to ${location}: ${reason}`);

/** A database that let us in and then refused what the store asked of it. */
export const StoreFailed = createError<{ location: string; why: string }>("BASEMODEL_STORE_FAILED", ({ location, why }) => `cannot use ${location}: ${why}`);

/** A loader that is not basemodel's own (osm2pgsql, its replication tool) could not run or do its work, for a reason of the input or the environment. */
export const LoadFailed = createError<{ why: string }>("BASEMODEL_LOAD_FAILED", ({ why }) => why);

export const NotAQueue = createError<{ location: string; version: number }>("BASEMODEL_NOT_A_QUEUE", ({ location, version }) => `${location} is not a task queue of schema version ${version}`);

/** The embedded queue's file, which one process owns, is owned by another. */
export const QueueInUse = createError<{ location: string }>("BASEMODEL_QUEUE_IN_USE", ({ location }) => `task queue ${location} is in use by another process`);

/** The queue's server did not answer when the queue was opened. */
export const QueueUnreachable = createError<{ location: string; why: string }>("BASEMODEL_QUEUE_UNREACHABLE", ({ location, why }) => `cannot reach Redis at ${location}: ${why}`);

/**
 * A queue that cannot be reached now, once open, such as one owned by another process that does
 * not answer: the task was not queued or looked up, and the caller may try again later.
 */
export const QueueUnavailable = createError<{ why: string }>("BASEMODEL_QUEUE_UNAVAILABLE", ({ why }) => why);

/**
 * A store whose database cannot be reached now (its server down, restarting or failing over): the
 * caller may try again later, and the server answers 503 rather than 500, as for the queue.
 */
export const StoreUnavailable = createError<{ why: string }>("BASEMODEL_STORE_UNAVAILABLE", ({ why }) => why);
