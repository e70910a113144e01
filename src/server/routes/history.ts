/**
 * GET /history/: the exports this server's queue remembers, newest first (this server's own
 * route, outside /latest and /v1: raw-data-api has none). The history is the queue's (see
 * HistoryEntry in src/server/tasks/queue.ts): it survives restarts, every process and machine of
 * one queue lists the same, and an export leaves it when its task is forgotten, after
 * --export-max-age, with its files.
 */
import type { FastifyPluginAsync } from "fastify";
import type { ValidationError } from "../api/errors.js";
import { DEFAULT_HISTORY_LIMIT, MAX_HISTORY_LIMIT, type ExportHistory, type HistoryQuery } from "../api/history.js";
import { whoseExports } from "../http/access.js";
import type { Refused } from "../http/body-checks.js";
import { baseUrl } from "../http/base-url.js";
import { historyEntries } from "../http/export-history.js";
import { problem } from "../http/problems.js";
import type { ExportsContext } from "./context.js";

/**
 * The summaries of one answer hold at most this many bytes of JSON (each holds its request,
 * which may be as large as a request body): past it, the page ends early and says there is more.
 */
const HISTORY_PAGE_BYTES = 8 * 1024 * 1024;

const limitOf = (query: HistoryQuery): number => Number(query.limit ?? DEFAULT_HISTORY_LIMIT);

async function queryProblems(query: HistoryQuery, refused: Refused): Promise<ValidationError[]> {
  if (query.limit === undefined || refused(["query", "limit"])) return [];
  const limit = limitOf(query);
  if (/^\d+$/.test(query.limit) && limit >= 1 && limit <= MAX_HISTORY_LIMIT) return [];
  return [{ loc: ["query", "limit"], msg: `"limit" must be a whole number from 1 to ${MAX_HISTORY_LIMIT}; found ${JSON.stringify(query.limit)}`, type: "value_error" }];
}

export const historyRoutes: FastifyPluginAsync<ExportsContext> = async (app, context) => {
  app.get<{ Querystring: HistoryQuery }>(
    "/history/",
    {
      schema: {
        tags: ["exports history"],
        summary: "The exports this server remembers, newest first: state, area, formats, files and the request to run again",
        description:
          `This server's own route (raw-data-api keeps no history). An export stays listed until its task is forgotten, with its files, --export-max-age hours after it ended; a file deleted before that leaves its export \`expired\`. ` +
          `With a users file (serve --users), staff and admins see every export and other users their own (the access-token they sent it with); without a token the answer is a 422. ` +
          `A page holds at most ${HISTORY_PAGE_BYTES / 1024 / 1024} MiB of requests: past that it ends early, with hasMore.`,
        querystring: { $ref: "HistoryQuery#" },
        security: [{ accessToken: [] }],
        response: {
          200: { $ref: "ExportHistory#" },
          403: { $ref: "AuthFailure#", description: "With a users file: a token that is nobody's" },
          422: { $ref: "HTTPValidationError#", description: `A limit that is no whole number from 1 to ${MAX_HISTORY_LIMIT}, a before that is no export of the history; with a users file, no access-token` },
        },
      },
      config: { queryChecks: queryProblems },
      // Before the query is read: a caller the route is not for learns so first.
      onRequest: async (request, reply) => {
        const whose = whoseExports(context.tokens, request);
        return "status" in whose ? reply.code(whose.status).send(whose.body) : undefined;
      },
    },
    async (request): Promise<ExportHistory> => {
      const { before } = request.query;
      // onRequest answered the callers it refuses.
      const whose = whoseExports(context.tokens, request) as { owner: string | undefined };
      const page = await context.queue.history({ limit: limitOf(request.query), maxBytes: HISTORY_PAGE_BYTES, ...(before !== undefined && { before }), ...(whose.owner !== undefined && { owner: whose.owner }) });
      if (page === null) {
        throw problem(["query", "before"], `"before" names no export of the history: ${before} was never queued here, or it was forgotten with its files`);
      }
      return { exports: await historyEntries(page.tasks, context.artifacts, baseUrl(request, context.publicUrl)), hasMore: page.more };
    },
  );
};
