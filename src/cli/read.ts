import { constants as bufferConstants } from "node:buffer";
import { closeSync, constants, fstatSync, lstatSync, openSync, readSync, statSync } from "node:fs";
import { reasonOf } from "./files.js";

export type ReadResult = { bytes: Buffer } | { error: string };

/**
 * The most bytes read from one file or from standard input. Its text becomes one JavaScript
 * string, and V8 makes none longer than this (24 bytes short of 512 MiB on 64-bit Node).
 */
export const MAX_INPUT_BYTES = bufferConstants.MAX_STRING_LENGTH;

const TOO_LARGE: ReadResult = { error: `is larger than ${Math.round(MAX_INPUT_BYTES / 2 ** 20)} MiB, the most basemodel reads from one input` };

/** Chunks of an input of unknown length, kept until they pass MAX_INPUT_BYTES. */
class BoundedBytes {
  private readonly chunks: Buffer[] = [];
  private length = 0;

  /** False once the input is too large: the caller stops reading, and what was kept is dropped. */
  add(chunk: Buffer): boolean {
    this.length += chunk.length;
    if (this.length > MAX_INPUT_BYTES) {
      this.chunks.length = 0;
      return false;
    }
    this.chunks.push(chunk);
    return true;
  }

  result(): ReadResult {
    return this.length > MAX_INPUT_BYTES ? TOO_LARGE : { bytes: Buffer.concat(this.chunks, this.length) };
  }
}

const CHUNK_BYTES = 64 * 1024;

/** An open file of unknown length (in /proc) read to its end, or until it is too large. */
function readToEnd(fd: number): ReadResult {
  const bytes = new BoundedBytes();
  for (;;) {
    const chunk = Buffer.allocUnsafe(CHUNK_BYTES);
    const read = readSync(fd, chunk, 0, CHUNK_BYTES, null);
    if (read === 0 || !bytes.add(chunk.subarray(0, read))) return bytes.result();
  }
}

/** Standard input to its end, or until it is too large: then reading stops, and the stream is closed. */
export async function readStandardInput(stdin: AsyncIterable<Buffer | string>): Promise<ReadResult> {
  const bytes = new BoundedBytes();
  for await (const chunk of stdin) {
    if (!bytes.add(typeof chunk === "string" ? Buffer.from(chunk) : chunk)) break;
  }
  return bytes.result();
}

function kindOf(stats: import("node:fs").Stats): string {
  if (stats.isDirectory()) return "a folder";
  if (stats.isSocket()) return "a socket";
  if (stats.isCharacterDevice() || stats.isBlockDevice()) return "a device";
  return "not a regular file";
}

/**
 * The bytes of an open regular file of `size` bytes, without the second fstat readFileSync would
 * make. A size of 0 may be a file whose length is not known ahead (in /proc): that one is read to
 * its end. A file too large is refused before a byte is read.
 */
function readAll(fd: number, size: number): ReadResult {
  if (size > MAX_INPUT_BYTES) return TOO_LARGE;
  if (size === 0) return readToEnd(fd);
  const bytes = Buffer.allocUnsafe(size);
  let filled = 0;
  while (filled < size) {
    const read = readSync(fd, bytes, filled, size - filled, null);
    if (read === 0) break;
    filled += read;
  }
  return { bytes: filled === size ? bytes : bytes.subarray(0, filled) };
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
    return readAll(fd, stats.size);
  } catch (error) {
    return { error: reasonOf(error as NodeJS.ErrnoException) };
  } finally {
    closeSync(fd);
  }
}
