/**
 * A server being closed (SIGTERM, the end of `serve`) refuses what still reaches it in our shape,
 * 503 with a `detail`, and `Connection: close` so that the client opens no further request on
 * the connection; requests under way finish. Fastify's own refusal (return503OnClosing) has
 * another body, and skips the hooks that add CORS headers and the log line.
 */
import type { FastifyInstance, RouteOptions } from "fastify";

export function refuseWhileClosing(app: FastifyInstance): void {
  let closing = false;
  app.addHook("preClose", (done) => {
    closing = true;
    done();
  });
  app.addHook("onRequest", (_request, reply, done) => {
    if (!closing) return done();
    void reply.code(503).header("connection", "close").send({ detail: "the server is stopping; try again in a moment" });
  });
}

const UNAVAILABLE = "Not now: the server is stopping, or its database or task queue cannot be reached; try again in a moment";

/**
 * An onRoute hook: every route may answer 503 (above, and for StoreUnavailable and
 * QueueUnavailable, src/server/errors.ts), so every route that documents its answers lists it.
 */
export function documentUnavailable(route: RouteOptions): void {
  const response = route.schema?.response as Record<string, unknown> | undefined;
  if (response === undefined || "503" in response) return;
  response["503"] = { $ref: "HTTPError#", description: UNAVAILABLE };
}
