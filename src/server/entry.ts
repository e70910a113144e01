/**
 * `basemodel/server` as import() finds it: the reference server (./index.ts) once its optional
 * dependencies are found. When one is missing, the import fails with one line saying what to
 * install (a DriverMissing, as the CLI's commands say it), rather than with the first package
 * Node could not find.
 */
import { SERVER_PACKAGES, withOptionalDependencies } from "./optional.js";

const server = await withOptionalDependencies("basemodel/server", SERVER_PACKAGES, () => import("./index.js"));

export const { createServer, DEFAULT_BODY_LIMIT, DEFAULT_PLAIN_FEATURE_LIMIT, RequestProblem } = server;
export type { ServerOptions } from "./index.js";
