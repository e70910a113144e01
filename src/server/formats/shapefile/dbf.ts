/**
 * The .dbf attribute table (dBASE III). Field widths are sized to the content, which is only
 * known at the end, so values are spooled to a temporary file (one JSON array per line) and the
 * table is written from it at finish: memory holds one record at a time.
 */
import { createReadStream } from "node:fs";
import { createInterface } from "node:readline";
import { truncateUtf8 } from "../names.js";
import { FileSink } from "../file-sink.js";
import { ExportLimitError, type ExportColumn } from "../types.js";

/** dBASE character fields hold at most 254 bytes; longer values are cut on a character boundary. */
const MAX_TEXT_BYTES = 254;
const MAX_RECORD_BYTES = 65535;
const MAX_HEADER_BYTES = 65535;
/** GDAL reads an N field narrower than 10 as a 32-bit Integer: ids get the same 64-bit type in every layer. */
const MIN_INTEGER_WIDTH = 11;

export interface DbfField {
  /** At most 10 bytes, unique in the table. */
  name: string;
  type: ExportColumn["type"];
}

export class DbfSpool {
  private readonly widths: number[];
  private count = 0;

  private constructor(
    private readonly fields: readonly DbfField[],
    private readonly spool: FileSink,
  ) {
    this.widths = fields.map((field) => (field.type === "integer" ? MIN_INTEGER_WIDTH : 1));
    if (32 + 32 * fields.length + 1 > MAX_HEADER_BYTES) throw new ExportLimitError(`a shapefile holds at most 2046 attributes, not ${fields.length}`);
  }

  static async create(fields: readonly DbfField[], spoolPath: string): Promise<DbfSpool> {
    return new DbfSpool(fields, await FileSink.create(spoolPath));
  }

  get spoolPath(): string {
    return this.spool.path;
  }

  /** The .dbf size so far: widths only grow, so the final size is never smaller. */
  get projectedBytes(): number {
    return 32 + 32 * this.fields.length + 1 + this.recordBytes * this.count + 1;
  }

  private get recordBytes(): number {
    return 1 + this.widths.reduce((sum, width) => sum + width, 0);
  }

  async add(values: readonly (string | number | null | undefined)[]): Promise<void> {
    const texts = values.map((value, i) => {
      if (value === null || value === undefined) return null;
      const text = this.fields[i]!.type === "integer" ? String(value) : truncateUtf8(String(value), MAX_TEXT_BYTES).toString("utf8");
      this.widths[i] = Math.max(this.widths[i]!, Buffer.byteLength(text, "utf8"));
      return text;
    });
    if (this.recordBytes > MAX_RECORD_BYTES) throw new ExportLimitError(`a shapefile record holds at most ${MAX_RECORD_BYTES} bytes of attributes`);
    this.count++;
    await this.spool.append(JSON.stringify(texts) + "\n");
  }

  /** Writes the complete .dbf from the spool. */
  async writeTo(path: string): Promise<void> {
    await this.spool.close();
    const out = await FileSink.create(path);
    try {
      await out.append(this.header());
      const lines = createInterface({ input: createReadStream(this.spool.path, "utf8"), crlfDelay: Infinity });
      for await (const line of lines) await out.append(this.record(JSON.parse(line) as (string | null)[]));
      await out.append(Buffer.from([0x1a]));
    } finally {
      await out.close();
    }
  }

  async discard(): Promise<void> {
    await this.spool.discard();
  }

  private header(): Buffer {
    const headerBytes = 32 + 32 * this.fields.length + 1;
    const header = Buffer.alloc(headerBytes);
    const now = new Date();
    header.writeUInt8(0x03, 0);
    header.writeUInt8(now.getUTCFullYear() - 1900, 1);
    header.writeUInt8(now.getUTCMonth() + 1, 2);
    header.writeUInt8(now.getUTCDate(), 3);
    header.writeUInt32LE(this.count, 4);
    header.writeUInt16LE(headerBytes, 8);
    header.writeUInt16LE(this.recordBytes, 10);
    this.fields.forEach((field, i) => {
      const offset = 32 + 32 * i;
      header.write(field.name, offset, 10, "utf8");
      header.write(field.type === "integer" ? "N" : "C", offset + 11, "latin1");
      header.writeUInt8(this.widths[i]!, offset + 16);
    });
    header.writeUInt8(0x0d, headerBytes - 1);
    return header;
  }

  private record(values: readonly (string | null)[]): Buffer {
    const record = Buffer.alloc(this.recordBytes, 0x20);
    let offset = 1;
    values.forEach((value, i) => {
      const width = this.widths[i]!;
      if (value !== null) {
        const bytes = Buffer.from(value, "utf8");
        // Numbers are right-aligned, text left-aligned; both padded with spaces.
        bytes.copy(record, this.fields[i]!.type === "integer" ? offset + width - bytes.length : offset);
      }
      offset += width;
    });
    return record;
  }
}
