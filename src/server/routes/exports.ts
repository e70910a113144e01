/** GET /exports/<file>: finished exports, with Range requests (resumable downloads), and nothing else of the folder. */
import { realpathSync } from "node:fs";
import { join } from "node:path";
import fastifyStatic from "@fastify/static";
import type { FastifyPluginAsync, FastifyReply } from "fastify";
import { isDownloadPath } from "../../export/published.js";
import type { ExportsContext } from "../app.js";
import { wrongMethod } from "../error-answers.js";
import { pathOf } from "../request-line.js";

/** Only finished exports are served: not the work folders, partial files or the task queue beside them. */
const isExport = (pathName: string): boolean => isDownloadPath(pathName.slice(1));

/**
 * True when `pathName` under `root` is a file of the folder itself, with no symbolic link on the
 * way (the file, or a folder it would be read through). The workers write files, never links: a
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
    allowedPath: (pathName) => isExport(pathName) && reachedWithoutLinks(context.directory, pathName),
    cacheControl: false,
  });
  const download = (pathName: string, reply: FastifyReply) =>
    // A name that is no export's (one with a %2F in it, say) is never looked up as a path.
    isExport(pathName) ? reply.sendFile(pathName) : reply.callNotFound();
  const answers = {
    200: {
      description: "The export",
      content: { "application/zip": { schema: { $ref: "ZipFile#" } }, "application/geo+json": { schema: { $ref: "ExportFile#" } }, "application/octet-stream": { schema: { $ref: "ExportFile#" } } },
    },
    206: { description: "The part of the export a Range header asked for", content: { "application/zip": { schema: { $ref: "ZipFile#" } } } },
    404: { $ref: "HTTPError#", description: "No such export: not finished yet, or deleted after its maximum age" },
    416: { $ref: "HTTPError#", description: "The Range header asks for bytes beyond the end of the file" },
  };
  app.get<{ Params: { file: string } }>(
    "/:file",
    {
      schema: {
        tags: ["raw data export"],
        summary: "Download a finished export",
        description: "The file a finished task's downloadUrl names: the zip, or the bare GeoJSON, FlatGeobuf or GeoParquet file of an export with bindZip false. Range requests resume a download.",
        params: {
          type: "object",
          properties: { file: { type: "string", description: "`<fileName>_<outputType>_uid_<task_id>.<zip|geojson|fgb|parquet>`, as downloadUrl names it" } },
        },
        response: answers,
      },
    },
    (request, reply) => download(`/${request.params.file}`, reply),
  );
  app.get<{ Params: { task: string; file: string } }>(
    "/:task/:file",
    {
      schema: {
        tags: ["raw data export"],
        summary: "Download a finished export named without its task id",
        description: "The file of an export with uuid false, in a folder of its own task, as downloadUrl names it. Range requests resume a download.",
        params: {
          type: "object",
          properties: {
            task: { type: "string", description: "The task id" },
            file: { type: "string", description: "`<fileName>_<outputType>.<zip|geojson|fgb|parquet>`" },
          },
        },
        response: answers,
      },
    },
    (request, reply) => download(`/${request.params.task}/${request.params.file}`, reply),
  );
  app.setNotFoundHandler((request, reply) => {
    const path = pathOf(request.url);
    if (request.method !== "GET" && request.method !== "HEAD") return wrongMethod(reply, request.method, path, ["GET", "HEAD"]);
    return reply.code(404).send({ detail: `no export ${path}: it is not finished yet, or it was deleted after its maximum age` });
  });
};
