/** How the log names a request and its answer. */
import type { FastifyReply, FastifyRequest } from "fastify";

/** The URL's path, without its query. */
export function pathOf(url: string): string {
  const query = url.indexOf("?");
  return query === -1 ? url : url.slice(0, query);
}

/** Method, path, status, time taken and size of the answer. */
export function requestLine(request: FastifyRequest, reply: FastifyReply): string {
  return `${request.method} ${pathOf(request.url)} ${reply.statusCode} ${reply.elapsedTime.toFixed(1)} ms ${reply.getHeader("content-length") ?? "-"} B`;
}
