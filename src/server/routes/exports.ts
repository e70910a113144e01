/**
 * GET /exports/<file>: finished exports, read through the artifact store, with Range requests
 * (resumable downloads) and HTTP's validators (ETag, Last-Modified), and nothing else of where
 * they are kept.
 */
import { Readable } from "node:stream";
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from "fastify";
import type { PublishedFile } from "../exports/artifacts.js";
import type { ExportsContext } from "./context.js";
import { wrongMethod } from "../http/error-answers.js";
import { pathOf } from "../http/request-line.js";

const CONTENT_TYPES: Record<string, string> = { zip: "application/zip", geojson: "application/geo+json" };

/** An error the error handler answers with its status and headers (as a 416 carries Content-Range). */
function httpError(statusCode: number, message: string, headers?: Record<string, string>): Error {
  return Object.assign(new Error(message), { statusCode, ...(headers && { headers }) });
}

const etagOf = (file: PublishedFile) => `W/"${file.size.toString(16)}-${file.modified.getTime().toString(16)}"`;
/** Weak comparison, as for downloads: the validator's opaque part alone. */
const opaque = (tag: string) => tag.trim().replace(/^W\//, "");
const matches = (header: string, etag: string) => header.split(",").some((tag) => opaque(tag) === opaque(etag));
/** HTTP dates have whole seconds. */
const notModifiedSince = (file: PublishedFile, header: string) => Math.floor(file.modified.getTime() / 1000) * 1000 <= Date.parse(header);

/** The one range of a Range header, or "whole" (none, several, or an If-Range that no longer holds), or "unsatisfiable". */
function rangeOf(request: FastifyRequest, file: PublishedFile, etag: string): { start: number; end: number } | "whole" | "unsatisfiable" {
  const header = request.headers.range;
  if (header === undefined) return "whole";
  const ifRange = request.headers["if-range"] as string | undefined;
  if (ifRange !== undefined && !(ifRange.includes('"') ? ifRange === etag : notModifiedSince(file, ifRange))) return "whole";
  const match = /^bytes=(.*)$/.exec(header.trim());
  if (!match) return "unsatisfiable";
  const ranges = match[1]!.split(",");
  if (ranges.length > 1) return "whole";
  const [first = "", last = ""] = ranges[0]!.trim().split("-");
  const isNumber = (text: string) => /^\d+$/.test(text);
  let start: number;
  let end: number;
  if (first === "" && isNumber(last)) [start, end] = [Math.max(0, file.size - Number(last)), file.size - 1];
  else if (isNumber(first) && (last === "" || isNumber(last))) [start, end] = [Number(first), last === "" ? file.size - 1 : Math.min(Number(last), file.size - 1)];
  else return "unsatisfiable";
  return start > end || start >= file.size ? "unsatisfiable" : { start, end };
}

export const exportRoutes: FastifyPluginAsync<ExportsContext> = async (app, context) => {
  const { artifacts } = context;
  const download = async (path: string, request: FastifyRequest, reply: FastifyReply) => {
    const file = await artifacts.stat(path);
    // A name that is no export's (one with a %2F in it, say) is never looked up.
    if (file === null) return reply.callNotFound();
    const etag = etagOf(file);
    const ifMatch = request.headers["if-match"];
    const ifUnmodifiedSince = request.headers["if-unmodified-since"];
    if ((ifMatch !== undefined && ifMatch.trim() !== "*" && !matches(ifMatch, etag)) || (ifUnmodifiedSince !== undefined && !notModifiedSince(file, ifUnmodifiedSince))) {
      throw httpError(412, "Precondition Failed");
    }
    reply.header("accept-ranges", "bytes").header("etag", etag).header("last-modified", file.modified.toUTCString());
    reply.type(CONTENT_TYPES[path.slice(path.lastIndexOf(".") + 1)] ?? "application/octet-stream");
    const ifNoneMatch = request.headers["if-none-match"];
    const ifModifiedSince = request.headers["if-modified-since"];
    if ((ifNoneMatch !== undefined && (ifNoneMatch.trim() === "*" || matches(ifNoneMatch, etag))) || (ifNoneMatch === undefined && ifModifiedSince !== undefined && notModifiedSince(file, ifModifiedSince))) {
      return reply.code(304).send();
    }
    const range = rangeOf(request, file, etag);
    if (range === "unsatisfiable") throw httpError(416, "Range Not Satisfiable", { "Content-Range": `bytes */${file.size}` });
    const length = range === "whole" ? file.size : range.end - range.start + 1;
    if (range !== "whole") reply.code(206).header("content-range", `bytes ${range.start}-${range.end}/${file.size}`);
    reply.header("content-length", length);
    // HEAD: an empty stream, which fastify drains and answers with the Content-Length set here
    // (a payload of none would be answered with Content-Length 0); the export is not read.
    if (request.method === "HEAD") return reply.send(Readable.from([]));
    return reply.send(artifacts.read(path, range === "whole" ? undefined : range));
  };
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
    (request, reply) => download(request.params.file, request, reply),
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
    (request, reply) => download(`${request.params.task}/${request.params.file}`, request, reply),
  );
  app.setNotFoundHandler((request, reply) => {
    const path = pathOf(request.url);
    if (request.method !== "GET" && request.method !== "HEAD") return wrongMethod(reply, request.method, path, ["GET", "HEAD"]);
    return reply.code(404).send({ detail: `no export ${path}: it is not finished yet, or it was deleted after its maximum age` });
  });
};
