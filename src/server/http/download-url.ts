/** Where clients download a published export: an absolute URL, as raw-data-api's downloadUrl is. */

/** The URL of a published file (a download path of src/server/exports/published.ts) under /exports/, below `base` (see base-url.ts). */
export function downloadUrl(base: string, download: string): string {
  return `${base}/exports/${download.split("/").map(encodeURIComponent).join("/")}`;
}
