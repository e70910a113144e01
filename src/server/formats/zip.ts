/**
 * The export's zip, written by yazl (streaming, ZIP64 when needed) to a temporary name and
 * renamed into place once complete: a client can never download a partial zip.
 */
import { createWriteStream } from "node:fs";
import { rename, rm, stat } from "node:fs/promises";
import { pipeline } from "node:stream/promises";
import { ZipFile } from "yazl";

/** Appended to the zip's name while it is written. */
export const PARTIAL_SUFFIX = ".partial";

export type ZipEntry = { name: string; path: string } | { name: string; content: string };

/** Writes `entries` (deflated) to `target` and returns the zip's size in bytes. */
export async function writeZip(target: string, entries: readonly ZipEntry[], signal?: AbortSignal): Promise<number> {
  const partial = `${target}${PARTIAL_SUFFIX}`;
  const zip = new ZipFile();
  for (const entry of entries) {
    if ("path" in entry) zip.addFile(entry.path, entry.name);
    else zip.addBuffer(Buffer.from(entry.content, "utf8"), entry.name);
  }
  zip.end();
  try {
    await pipeline(zip.outputStream, createWriteStream(partial), { signal });
    await rename(partial, target);
  } catch (error) {
    await rm(partial, { force: true });
    throw error;
  }
  return (await stat(target)).size;
}
