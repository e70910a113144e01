/**
 * Cross-origin requests, allowed as the real services allow them (FastAPI's CORSMiddleware with
 * every origin): the pages that call them from another origin (underpass-ui, fAIr's frontend, the
 * raw-data-export page) can read every answer, errors included, and their preflights succeed.
 */
import type { FastifyReply, FastifyRequest } from "fastify";

/** "*": every origin (the default); a list: only these origins; false: no cross-origin answers at all. */
export type CorsOrigins = "*" | readonly string[] | false;

/** The methods a preflight is told of: every one the server answers. */
const METHODS = "GET, HEAD, POST, OPTIONS";
/** A preflight that names no headers is told of those the real clients send. */
const HEADERS = "Accept, Access-Token, Authorization, Content-Type, Range";
/** How long (seconds) a browser may keep a preflight's answer, as FastAPI says. */
const MAX_AGE = "600";

export interface CorsPolicy {
  /** The Access-Control-Allow-Origin of an answer to `origin` (undefined: not known), or undefined for none. */
  allowOrigin(origin: string | undefined): string | undefined;
  /** False when no cross-origin answer is given: preflights are then answered as any OPTIONS request. */
  readonly enabled: boolean;
}

export function corsPolicy(origins: CorsOrigins): CorsPolicy {
  if (origins === false) return { allowOrigin: () => undefined, enabled: false };
  if (origins === "*") return { allowOrigin: () => "*", enabled: true };
  const allowed = new Set(origins);
  return { allowOrigin: (origin) => (origin !== undefined && allowed.has(origin) ? origin : undefined), enabled: true };
}

function isPreflight(request: FastifyRequest): boolean {
  return request.method === "OPTIONS" && request.headers.origin !== undefined && request.headers["access-control-request-method"] !== undefined;
}

/** Puts the CORS headers on an answer to `request`; an answer that depends on Origin says so (Vary). */
export function addCorsHeaders(policy: CorsPolicy, request: FastifyRequest, reply: FastifyReply): void {
  if (!policy.enabled) return;
  const allowed = policy.allowOrigin(request.headers.origin);
  if (allowed !== undefined) reply.header("access-control-allow-origin", allowed);
  if (allowed !== "*") reply.header("vary", "Origin");
}

/**
 * An onRequest hook, the first: every answer carries the headers, and a preflight (OPTIONS with
 * Origin and Access-Control-Request-Method) is answered 204 on any path, as FastAPI's middleware
 * answers it before routing; an origin the server does not allow gets a 403 that says so.
 */
export function answerCors(policy: CorsPolicy) {
  return (request: FastifyRequest, reply: FastifyReply, done: () => void): void => {
    addCorsHeaders(policy, request, reply);
    if (!policy.enabled || !isPreflight(request)) return done();
    const origin = String(request.headers.origin);
    if (policy.allowOrigin(origin) === undefined) {
      void reply.code(403).send({ detail: `cross-origin requests from ${origin} are not allowed here (basemodel serve --cors names the origins that are)` });
      return;
    }
    const requested = request.headers["access-control-request-headers"];
    void reply
      .code(204)
      .headers({
        "access-control-allow-methods": METHODS,
        "access-control-allow-headers": typeof requested === "string" && requested.trim() !== "" ? requested : HEADERS,
        "access-control-max-age": MAX_AGE,
      })
      .send();
  };
}
