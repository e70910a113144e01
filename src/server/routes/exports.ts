/** GET /exports/<zip>: finished exports, with Range requests (resumable downloads), and nothing else of the folder. */
import { realpathSync } from "node:fs";
import { join } from "node:path";
import fastifyStatic from "@fastify/static";
import type { FastifyPluginAsync } from "fastify";
import type { ExportsContext } from "../app.js";
import { wrongMethod } from "../error-answers.js";
import { pathOf } from "../request-line.js";

/** Only finished zips are served: not the work folders, partial files or the task queue beside them. */
const ZIP_NAME = /^\/[\p{L}\p{M}\p{N}_]+_[a-z]+_uid_[0-9a-f-]{36}\.zip$/u;

/**
 * True when `pathName` under `root` is a file of the folder itself, with no symbolic link on the
 * way (the file, or a folder it would be read through). The workers write zips, never links: a
 * link was put there by someone else and may lead anywhere on the machine.
 */
function reachedWithoutLinks(root: string, pathName: string): boolean {
  try {
    return realpathSync(join(root, pathName)) === join(realpathSync(root), pathName);
  } catch {
    // Missing or unreadable: not served, and the not-found answer says so.
    return false;
  }
}

export const exportRoutes: FastifyPluginAsync<ExportsContext> = async (app, context) => {
  await app.register(fastifyStatic, {
    root: context.directory,
    // Served by the route below, which documents it.
    serve: false,
    index: false,
    dotfiles: "deny",
    allowedPath: (pathName) => ZIP_NAME.test(pathName) && reachedWithoutLinks(context.directory, pathName),
    cacheControl: false,
  });
  app.get<{ Params: { file: string } }>(
    "/:file",
    {
      schema: {
        tags: ["raw data export"],
        summary: "Download a finished export",
        description: "The zip a finished task's downloadUrl names. Range requests resume a download.",
        params: {
          type: "object",
          properties: { file: { type: "string", description: "`<fileName>_<outputType>_uid_<task_id>.zip`, as downloadUrl names it" } },
        },
        response: {
          200: { description: "The zip", content: { "application/zip": { schema: { $ref: "ZipFile#" } } } },
          206: { description: "The part of the zip a Range header asked for", content: { "application/zip": { schema: { $ref: "ZipFile#" } } } },
          404: { $ref: "HTTPError#", description: "No such export: not finished yet, or deleted after its maximum age" },
          416: { $ref: "HTTPError#", description: "The Range header asks for bytes beyond the end of the zip" },
        },
      },
    },
    (request, reply) => {
      const pathName = `/${request.params.file}`;
      // A name that is no export's (one with a %2F in it, say) is never looked up as a path.
      return ZIP_NAME.test(pathName) ? reply.sendFile(pathName) : reply.callNotFound();
    },
  );
  app.setNotFoundHandler((request, reply) => {
    const path = pathOf(request.url);
    if (request.method !== "GET" && request.method !== "HEAD") return wrongMethod(reply, request.method, path, ["GET", "HEAD"]);
    return reply.code(404).send({ detail: `no export ${path}: it is not finished yet, or it was deleted after its maximum age` });
  });
};
