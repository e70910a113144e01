/** Where clients download a published export: an absolute URL, as raw-data-api's downloadUrl is. */
import type { FastifyRequest } from "fastify";

/** Where clients reach this server: the configured public URL, else what the request was sent to. */
export function baseUrl(request: FastifyRequest, publicUrl: string | undefined): string {
  return (publicUrl ?? `${request.protocol}://${request.host}`).replace(/\/+$/, "");
}

/** The URL of a published file (a download path of src/server/exports/published.ts) under /exports/. */
export function downloadUrl(base: string, download: string): string {
  return `${base}/exports/${download.split("/").map(encodeURIComponent).join("/")}`;
}
