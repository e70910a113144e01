/**
 * The request as the client sent it, which the history of exports keeps so that it can be sent
 * again unchanged: the route's path and the body before acceptAliases renamed its members.
 */
import type { FastifyRequest } from "fastify";
import type { SentRequest } from "../exports/summary.js";
import { pathOf } from "./request-line.js";

const sentBodies = new WeakMap<FastifyRequest, unknown>();

/** Keeps the body as it is now: called before anything replaces it. */
export function keepSentBody(request: FastifyRequest): void {
  if (!sentBodies.has(request)) sentBodies.set(request, request.body);
}

export function sentRequest(request: FastifyRequest): SentRequest {
  return { path: request.routeOptions.url ?? pathOf(request.url), body: sentBodies.has(request) ? sentBodies.get(request) : request.body };
}
