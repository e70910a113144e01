import { open, type FileHandle } from "node:fs/promises";

/** Large enough that a feature rarely costs a system call, small enough to keep memory flat. */
const FLUSH_BYTES = 1 << 20;

/** An append-only file with its own buffer, plus patching of bytes already written (file headers). */
export class FileSink {
  private chunks: Buffer[] = [];
  private buffered = 0;
  /** Bytes appended so far, buffered ones included. */
  position = 0;

  private constructor(
    readonly path: string,
    private readonly handle: FileHandle,
  ) {}

  static async create(path: string): Promise<FileSink> {
    return new FileSink(path, await open(path, "w"));
  }

  async append(data: string | Uint8Array): Promise<void> {
    const chunk = typeof data === "string" ? Buffer.from(data, "utf8") : Buffer.from(data.buffer, data.byteOffset, data.byteLength);
    this.chunks.push(chunk);
    this.buffered += chunk.length;
    this.position += chunk.length;
    if (this.buffered >= FLUSH_BYTES) await this.flush();
  }

  async patch(position: number, data: Uint8Array): Promise<void> {
    await this.flush();
    await this.handle.write(data, 0, data.length, position);
  }

  async close(): Promise<void> {
    await this.flush();
    await this.handle.close();
  }

  /** Closes without writing what is still buffered: for abort(). */
  async discard(): Promise<void> {
    this.chunks = [];
    await this.handle.close().catch(() => undefined);
  }

  private async flush(): Promise<void> {
    if (this.buffered === 0) return;
    const data = Buffer.concat(this.chunks, this.buffered);
    this.chunks = [];
    this.buffered = 0;
    await this.handle.write(data);
  }
}
