/** Where clients reach this server, for the absolute URLs of answers (downloads, tiles). */
import type { FastifyRequest } from "fastify";

/** The configured public URL, else what the request was sent to (its scheme and Host). */
export function baseUrl(request: FastifyRequest, publicUrl: string | undefined): string {
  return (publicUrl ?? `${request.protocol}://${request.host}`).replace(/\/+$/, "");
}
