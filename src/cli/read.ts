import { lstatSync, readFileSync, statSync } from "node:fs";
import { reasonOf } from "./files.js";

export type ReadResult = { bytes: Buffer } | { error: string };

function kindOf(stats: import("node:fs").Stats): string {
  if (stats.isDirectory()) return "a folder";
  if (stats.isSocket()) return "a socket";
  if (stats.isCharacterDevice() || stats.isBlockDevice()) return "a device";
  return "not a regular file";
}

/**
 * The bytes of one file, or why they cannot be had. Anything but a regular file is refused
 * before it is opened: opening a FIFO would block the whole run.
 */
export function readItemFile(path: string): ReadResult {
  let stats;
  try {
    stats = statSync(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT") {
      try {
        if (lstatSync(path).isSymbolicLink()) return { error: "broken symbolic link: its target does not exist" };
      } catch {
        // Gone altogether: the plain reason below says so.
      }
    }
    return { error: reasonOf(error as NodeJS.ErrnoException) };
  }
  if (stats.isFIFO()) return { error: "is a FIFO (named pipe), not a file; to validate what it carries, pipe it to standard input: basemodel validate - < fifo" };
  if (!stats.isFile()) return { error: `is ${kindOf(stats)}, not a file` };
  try {
    return { bytes: readFileSync(path) };
  } catch (error) {
    return { error: reasonOf(error as NodeJS.ErrnoException) };
  }
}
