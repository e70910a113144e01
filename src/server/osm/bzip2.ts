/**
 * bzip2 decompression through the optional, pure-JavaScript `seek-bzip`. It decodes
 * synchronously and has no incremental input, so the compressed file is read whole (bzip2
 * shrinks OSM XML many times over); the output is handed on in chunks as it is decoded,
 * never held whole. Concatenated streams (pbzip2, lbzip2) are decoded one after the other.
 */
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { OsmImportError } from "./errors.js";

interface ByteSource {
  /** Fills `buffer` from `offset`, returning how many bytes it got (at most `length`). */
  read(buffer: Uint8Array, offset: number, length: number): number;
  readByte(): number;
  eof(): boolean;
}

interface ByteSink {
  writeByte(byte: number): void;
}

interface SeekBzip {
  decode(input: ByteSource, output: ByteSink, multistream: boolean): void;
}

const OUTPUT_CHUNK = 1 << 16;

/** Decompresses the file, calling `write` with each chunk of output (the buffer is reused after it returns). */
export async function bunzip2File(path: string, write: (chunk: Uint8Array) => void): Promise<void> {
  const bunzip = loadSeekBzip();
  let input: Uint8Array;
  try {
    input = await readFile(path);
  } catch (error) {
    throw new OsmImportError(path, `cannot open file (${(error as Error).message})`, { cause: error });
  }
  if (!BZIP2_HEADER.test(String.fromCharCode(...input.subarray(0, 4)))) {
    throw new OsmImportError(path, "not bzip2 data (the file does not start with a bzip2 header)");
  }
  const output = new ChunkedSink(write);
  try {
    bunzip.decode(new TruncationCheckingSource(input), output, true);
  } catch (error) {
    if (error instanceof UnexpectedEnd) throw new OsmImportError(path, "truncated bzip2 data (unexpected end of file)");
    // Errors without a seek-bzip code come from `write`, so they are not about the compressed data.
    if (typeof (error as { errorCode?: unknown }).errorCode !== "number") throw error;
    throw new OsmImportError(path, `corrupt bzip2 data (${(error as Error).message})`, { cause: error });
  }
  output.flush();
}

/** "BZh" and the block size in hundreds of kB, "1" to "9". */
const BZIP2_HEADER = /^BZh[1-9]$/;

function loadSeekBzip(): SeekBzip {
  try {
    return createRequire(import.meta.url)("seek-bzip") as SeekBzip;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "MODULE_NOT_FOUND") throw error;
    throw new Error("Reading .bz2 files needs the optional dependency seek-bzip: run `npm install seek-bzip@2`", { cause: error });
  }
}

class UnexpectedEnd extends Error {}

/**
 * seek-bzip reads past the end of its input as zero bits and then reports a "Data error";
 * failing on the first byte too many tells a truncated file apart from a corrupt one.
 */
class TruncationCheckingSource implements ByteSource {
  private position = 0;

  constructor(private readonly bytes: Uint8Array) {}

  read(buffer: Uint8Array, offset: number, length: number): number {
    const available = this.bytes.subarray(this.position, this.position + length);
    buffer.set(available, offset);
    this.position += available.length;
    return available.length;
  }

  readByte(): number {
    if (this.position >= this.bytes.length) throw new UnexpectedEnd();
    return this.bytes[this.position++] as number;
  }

  eof(): boolean {
    return this.position >= this.bytes.length;
  }
}

class ChunkedSink implements ByteSink {
  private readonly buffer = new Uint8Array(OUTPUT_CHUNK);
  private filled = 0;

  constructor(private readonly write: (chunk: Uint8Array) => void) {}

  writeByte(byte: number): void {
    this.buffer[this.filled++] = byte;
    if (this.filled === OUTPUT_CHUNK) this.flush();
  }

  flush(): void {
    this.write(this.buffer.subarray(0, this.filled));
    this.filled = 0;
  }
}
