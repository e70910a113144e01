/** GET /exports/<zip>: finished exports, with Range requests (resumable downloads), and nothing else of the folder. */
import { realpathSync } from "node:fs";
import { join } from "node:path";
import fastifyStatic from "@fastify/static";
import type { FastifyPluginAsync } from "fastify";
import type { ExportsContext } from "../app.js";

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
    prefix: "/",
    decorateReply: false,
    index: false,
    dotfiles: "deny",
    allowedPath: (pathName) => ZIP_NAME.test(pathName) && reachedWithoutLinks(context.directory, pathName),
    cacheControl: false,
  });
  app.setNotFoundHandler((request, reply) =>
    reply.code(404).send({ detail: `no export ${request.url.split("?")[0]}: it is not finished yet, or it was deleted after its maximum age` }),
  );
};
