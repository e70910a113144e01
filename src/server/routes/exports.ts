/** GET /exports/<zip>: finished exports, with Range requests (resumable downloads), and nothing else of the folder. */
import fastifyStatic from "@fastify/static";
import type { FastifyPluginAsync } from "fastify";
import type { ExportsContext } from "../app.js";

/** Only finished zips are served: not the work folders, partial files or the task queue beside them. */
const ZIP_NAME = /^\/[\p{L}\p{M}\p{N}_]+_[a-z]+_uid_[0-9a-f-]{36}\.zip$/u;

export const exportRoutes: FastifyPluginAsync<ExportsContext> = async (app, context) => {
  await app.register(fastifyStatic, {
    root: context.directory,
    prefix: "/",
    decorateReply: false,
    index: false,
    dotfiles: "deny",
    allowedPath: (pathName) => ZIP_NAME.test(pathName),
    cacheControl: false,
  });
  app.setNotFoundHandler((request, reply) =>
    reply.code(404).send({ detail: `no export ${request.url.split("?")[0]}: it is not finished yet, or it was deleted after its maximum age` }),
  );
};
