/**
 * Every request the server cannot serve gets JSON `{"detail": ...}` with the status that says
 * why: a string, except in the 422s (problems.ts), whose detail lists each problem. That holds
 * for the answers fastify, its plugins and Node would otherwise write in their own shapes (or
 * with no body): a URL whose % escapes are broken, a method the path does not take, bytes that
 * are not HTTP, headers too large, a request that takes too long to arrive.
 */
import { STATUS_CODES, maxHeaderSize } from "node:http";
import type { Socket } from "node:net";
import type { FastifyError, FastifyReply, FastifyRequest } from "fastify";
import { QueueUnavailable, StoreUnavailable } from "../errors.js";
import { addCorsHeaders, type CorsPolicy } from "./cors.js";
import type { Log } from "./log.js";
import { RequestProblem, validationDetails } from "./problems.js";
import { pathOf, requestLine } from "./request-line.js";

/** Raised by the body parser: the body is not JSON. */
export class BodyNotJson extends Error {}
/** A body the YAML route could not read as YAML. */
export class BodyNotYaml extends Error {}

/** Which methods each route answers, to tell a wrong method (405) from a wrong path (404). */
export class RouteMethods {
  readonly #routes: Array<{ pattern: RegExp; methods: Set<string> }> = [];

  /** A route as fastify's onRoute hook sees it: `:name` matches one path segment, `*` the rest. */
  add(url: string, method: string | string[]): void {
    const source = url
      .split(/(:\w+|\*)/)
      .map((part) => (part === "*" ? ".*" : part.startsWith(":") ? "[^/]+" : part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")))
      .join("");
    const pattern = new RegExp(`^${source}$`);
    const known = this.#routes.find((route) => route.pattern.source === pattern.source);
    const methods = known?.methods ?? new Set<string>();
    for (const one of [method].flat()) methods.add(one);
    if (!known) this.#routes.push({ pattern, methods });
  }

  allowedFor(path: string): string[] {
    const allowed = new Set<string>();
    for (const { pattern, methods } of this.#routes) if (pattern.test(path)) for (const method of methods) allowed.add(method);
    return [...allowed].sort();
  }
}

export function wrongMethod(reply: FastifyReply, method: string, path: string, allowed: readonly string[]): FastifyReply {
  return reply
    .code(405)
    .header("allow", allowed.join(", "))
    .send({ detail: `${path} does not take ${method} requests; it takes ${allowed.join(", ")}` });
}

/** The same path with a trailing slash, or without the one it has. */
function slashTwin(path: string): string | undefined {
  if (path === "/") return undefined;
  return path.endsWith("/") ? path.slice(0, -1) : `${path}/`;
}

/**
 * As FastAPI answers a path that is a route's but for its trailing slash (`/v1/status`,
 * `/v1/tasks/status/<id>`): 307 to the route's path, query kept, so that the client sends the same
 * method and body there. Otherwise 405 for a path that takes other methods (with or without its
 * slash), 404 for a path that is no route at all, or that a route of files (`/assets/*`) has no file for.
 */
export function answerNoRoute(routes: RouteMethods) {
  return (request: FastifyRequest, reply: FastifyReply): FastifyReply => {
    const path = pathOf(request.url);
    const allowed = routes.allowedFor(path);
    // Its route was found, and found nothing: its twin would be the same route, and the same 404.
    if (allowed.includes(request.method)) return reply.code(404).send({ detail: `nothing at ${path}` });
    const twin = slashTwin(path);
    const twinAllows = twin === undefined ? [] : routes.allowedFor(twin);
    if (twin !== undefined && twinAllows.includes(request.method)) return reply.redirect(twin + request.url.slice(path.length), 307);
    if (allowed.length > 0) return wrongMethod(reply, request.method, path, allowed);
    if (twinAllows.length > 0) return wrongMethod(reply, request.method, path, twinAllows);
    return reply.code(404).send({ detail: `no route ${request.method} ${path}` });
  };
}

/**
 * Errors found before fastify has a route for the request (fastify's `frameworkErrors`); the
 * request hooks do not run for these, so the request's log line is written here.
 */
export function answerUnroutable(log: Log, cors: CorsPolicy) {
  return (error: FastifyError, request: FastifyRequest, reply: FastifyReply): void => {
    if (log.enabled("info")) reply.raw.once("finish", () => log.info(requestLine(request, reply)));
    addCorsHeaders(cors, request, reply);
    const path = pathOf(request.url);
    if (error.code === "FST_ERR_BAD_URL") {
      void reply.code(400).send({ detail: `the path ${path} is not a valid URL path: each % must begin an escape of two hexadecimal digits, such as %20` });
    } else if (error.code === "FST_ERR_MAX_PARAM_LENGTH") {
      void reply.code(414).send({ detail: `a part of the path ${path.slice(0, 200)} is too long` });
    } else {
      log.error(`${request.method} ${path}: ${error.message}`);
      void reply.code(500).send({ detail: "internal server error" });
    }
  };
}

/** Where request and headers timeouts are described to the client that ran into one. */
export interface Timeouts {
  requestTimeoutMs: number;
  headersTimeoutMs: number;
}

/**
 * Answers what Node's HTTP parser rejects before fastify sees a request (fastify's
 * `clientErrorHandler`), then closes the connection, as Node does.
 */
export function answerClientError(log: Log, { requestTimeoutMs, headersTimeoutMs }: Timeouts, cors: CorsPolicy) {
  return (error: Error & { code?: string; reason?: string }, socket: Socket): void => {
    if (error.code === "ECONNRESET" || socket.destroyed) return;
    const client = socket.remoteAddress;
    const [status, detail] =
      error.code === "ERR_HTTP_REQUEST_TIMEOUT"
        ? [408, `the request did not arrive in time: its headers must arrive within ${seconds(headersTimeoutMs)}, all of it within ${seconds(requestTimeoutMs)}`]
        : error.code === "HPE_HEADER_OVERFLOW"
          ? [431, `the request's headers are larger than ${maxHeaderSize} bytes`]
          : [400, `not a valid HTTP/1.1 request: ${error.reason ?? error.message}`];
    // As Node does: no answer over one under way, which the client would take for the end of it.
    const underWay = (socket as Socket & { _httpMessage?: { headersSent: boolean } })._httpMessage;
    if (socket.writable && !underWay?.headersSent) {
      const body = JSON.stringify({ detail });
      // The request was never read, so its Origin is not known: only a server open to every origin says so.
      const allowOrigin = cors.allowOrigin(undefined);
      socket.write(
        `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
          (allowOrigin === undefined ? "" : `Access-Control-Allow-Origin: ${allowOrigin}\r\n`) +
          `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
      );
    }
    socket.destroy(error);
    log.info(`client ${client} ${status}: ${detail}`);
  };
}

function seconds(ms: number): string {
  return `${ms / 1000} s`;
}

/** Sends HTTP/1.1 requests without a Host header away with a 400, as RFC 9112 requires (Node's own 400 has no body). */
export function requireHost(request: FastifyRequest, reply: FastifyReply, done: () => void): void {
  if (request.headers.host === undefined && request.raw.httpVersion === "1.1") {
    void reply.code(400).send({ detail: "an HTTP/1.1 request must have a Host header" });
    return;
  }
  done();
}

/** The error handler: every error a route, a hook or a plugin raises, as an answer. */
export function answerError(log: Log, bodyLimit: number) {
  return (error: FastifyError, request: FastifyRequest, reply: FastifyReply): FastifyReply | undefined => {
    const path = pathOf(request.url);
    if (reply.raw.headersSent) {
      // A download cut short: the answer has begun, nothing can be said any more.
      log.debug(`${request.method} ${path}: the answer was cut short: ${error.message}`);
      reply.raw.destroy();
      return undefined;
    }
    const [status, detail] = describe(error, request, bodyLimit);
    if (status >= 500) {
      log.error(`${request.method} ${path} ${status}: ${error.message}`);
      if (error.stack) log.debug(error.stack);
    } else if (log.enabled("debug")) {
      log.debug(`${request.method} ${path} ${status}: ${typeof detail === "string" ? detail : JSON.stringify(detail)}`);
    }
    // Headers a plugin's error carries, such as Content-Range on a 416.
    const headers = (error as { headers?: Record<string, string> }).headers;
    if (status < 500 && headers) reply.headers(headers);
    return reply.code(status).send({ detail });
  };
}

function describe(error: FastifyError, request: FastifyRequest, bodyLimit: number): [number, unknown] {
  if (error instanceof RequestProblem) return [422, error.detail];
  if (error.validation) return [422, validationDetails(error)];
  if (error instanceof BodyNotJson) return [422, [{ loc: ["body"], msg: `the body is not valid JSON: ${error.message}`, type: "json_invalid" }]];
  if (error instanceof BodyNotYaml) return [422, [{ loc: ["body"], msg: `the body is not valid YAML: ${error.message}`, type: "yaml_invalid" }]];
  if (error instanceof QueueUnavailable) return [503, `the export queue cannot be reached now (${error.message}); try again in a moment`];
  if (error instanceof StoreUnavailable) return [503, `the database cannot be reached now (${error.message}); try again in a moment`];
  switch (error.code) {
    case "FST_ERR_CTP_BODY_TOO_LARGE":
      return [413, `the body is larger than the limit of ${bodyLimit} bytes`];
    case "FST_ERR_CTP_INVALID_MEDIA_TYPE":
      return [415, `the Content-Type header ${JSON.stringify(request.headers["content-type"] ?? "")} is not a media type; send the body as application/json`];
  }
  if (error.statusCode === 416) {
    const size = /\*\/(\d+)/.exec(String((error as { headers?: Record<string, string> }).headers?.["Content-Range"] ?? ""))?.[1];
    return [416, `the range ${JSON.stringify(request.headers.range ?? "")} is not within the file${size === undefined ? "" : ` of ${size} bytes`}`];
  }
  if (error.statusCode !== undefined && error.statusCode < 500) return [error.statusCode, error.message];
  return [500, "internal server error"];
}
