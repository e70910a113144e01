/**
 * The options of `basemodel serve` that shape how requests are answered, the same in every
 * process that answers them. Loaded by the CLI's option parsing: no server code here.
 */
import { InvalidArgumentError } from "commander";
import type { ServerOptions } from "../server/app.js";
import type { CorsOrigins } from "../server/http/cors.js";

import { readUsersFile } from "./users-file.js";
import type { LogLevel } from "../server/http/log.js";

function isOrigin(text: string): boolean {
  try {
    return new URL(text).origin === text;
  } catch {
    return false;
  }
}

/** --cors: "*" (every origin), "none", or origins separated by commas, each as a browser sends it. */
export function corsOrigins(text: string): CorsOrigins {
  const value = text.trim();
  if (value === "*") return "*";
  if (value === "none") return false;
  const origins = value.split(",").map((origin) => origin.trim()).filter((origin) => origin !== "");
  const wrong = origins.find((origin) => !isOrigin(origin));
  if (wrong !== undefined) {
    throw new InvalidArgumentError(`${JSON.stringify(wrong)} is not an origin; write each as a browser sends it, scheme, host and port only, such as http://localhost:5000`);
  }
  if (origins.length === 0) throw new InvalidArgumentError("expected *, none, or origins separated by commas, such as http://localhost:5000,https://fair.hotosm.org");
  return origins;
}

/** Reads the --users file: a usage error for one that is missing or wrong. */
export function requestOptions(
  flags: Pick<ServeFlags, "cors" | "strictRequests" | "plainMaxArea" | "users" | "tileCache">,
): Pick<ServerOptions, "cors" | "strictRequests" | "plainMaxAreaKm2" | "users" | "tileCacheBytes"> {
  return {
    cors: flags.cors,
    strictRequests: flags.strictRequests === true,
    plainMaxAreaKm2: flags.plainMaxArea,
    tileCacheBytes: Math.round(flags.tileCache * 1024 * 1024),
    ...(flags.users !== undefined && { users: readUsersFile(flags.users) }),
  };
}

export interface ServeFlags {
  db?: string;
  port: number;
  host: string;
  exports: string;
  publicUrl?: string;
  workers: number;
  /** Processes answering HTTP requests. */
  processes: number;
  maxArea: number;
  /** km², for /snapshot/plain/ requests with a geometry. */
  plainMaxArea: number;
  /** Origins whose web pages may call the server. */
  cors: CorsOrigins;
  strictRequests?: boolean;
  /** Hours. */
  exportMaxAge: number;
  /** Lines of this level and above go to standard error. */
  logLevel: LogLevel;
  /** A Redis URL: exports go to this queue, for `basemodel worker` to run, and none run here. */
  queue?: string;
  /** A users file: who may send which access-token, with which role. */
  users?: string;
  /** MiB of vector tiles kept in memory, per process. */
  tileCache: number;
}
