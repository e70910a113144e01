import { closeSync, constants, fstatSync, lstatSync, openSync, readFileSync, readSync, statSync } from "node:fs";
import { reasonOf } from "./files.js";

export type ReadResult = { bytes: Buffer } | { error: string };

function kindOf(stats: import("node:fs").Stats): string {
  if (stats.isDirectory()) return "a folder";
  if (stats.isSocket()) return "a socket";
  if (stats.isCharacterDevice() || stats.isBlockDevice()) return "a device";
  return "not a regular file";
}

/**
 * The bytes of an open regular file of `size` bytes, without the second fstat readFileSync would
 * make. A size of 0 may be a file whose length is not known ahead (in /proc): that one is read to
 * its end.
 */
function readAll(fd: number, size: number): Buffer {
  if (size === 0) return readFileSync(fd);
  const bytes = Buffer.allocUnsafe(size);
  let filled = 0;
  while (filled < size) {
    const read = readSync(fd, bytes, filled, size - filled, null);
    if (read === 0) break;
    filled += read;
  }
  return filled === size ? bytes : bytes.subarray(0, filled);
}

/**
 * The bytes of one file, or why they cannot be had. Anything but a regular file is refused
 * before a byte is read.
 */
export function readItemFile(path: string): ReadResult {
  let fd;
  try {
    // Non-blocking: opening a FIFO must not wait for a writer. One open and one fstat decide,
    // where stat-then-read would cost a system call more per file.
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    // A socket cannot be opened at all: say what it is, as for the other kinds.
    if (code === "ENXIO") {
      try {
        return { error: `is ${kindOf(statSync(path))}, not a file` };
      } catch {
        // Gone meanwhile: the plain reason below says so.
      }
    }
    if (code === "ENOENT") {
      try {
        if (lstatSync(path).isSymbolicLink()) return { error: "broken symbolic link: its target does not exist" };
      } catch {
        // Gone altogether: the plain reason below says so.
      }
    }
    return { error: reasonOf(error as NodeJS.ErrnoException) };
  }
  try {
    const stats = fstatSync(fd);
    if (stats.isFIFO()) return { error: "is a FIFO (named pipe), not a file; to validate what it carries, pipe it to standard input: basemodel validate - < fifo" };
    if (!stats.isFile()) return { error: `is ${kindOf(stats)}, not a file` };
    return { bytes: readAll(fd, stats.size) };
  } catch (error) {
    return { error: reasonOf(error as NodeJS.ErrnoException) };
  } finally {
    closeSync(fd);
  }
}
