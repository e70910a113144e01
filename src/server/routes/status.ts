/** GET /status/: when the data was last brought up to date. */
import type { FastifyPluginAsync } from "fastify";
import type { StatusResponse } from "../api/status.js";
import type { RouteContext } from "./context.js";

/** "2025-01-01T21:21:00Z" -> "2025-01-01 21:21:00+00:00", the shape the real service answers with. */
export function statusTimestamp(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) throw new Error(`the store's replication timestamp "${iso}" is not a date`);
  return `${date.toISOString().slice(0, 19).replace("T", " ")}+00:00`;
}

export const statusRoutes: FastifyPluginAsync<RouteContext> = async (app, { store }) => {
  app.get(
    "/status/",
    {
      schema: {
        tags: ["raw data export"],
        summary: "Time of the data's last complete update",
        response: { 200: { $ref: "StatusResponse#" }, 503: { $ref: "HTTPError#" } },
      },
    },
    async (_request, reply) => {
      const meta = await store.readMeta();
      if (meta?.replicationTimestamp == null) return reply.code(503).send({ detail: "no data has been imported into this store" });
      const body: StatusResponse = { lastUpdated: statusTimestamp(meta.replicationTimestamp) };
      return body;
    },
  );
};
