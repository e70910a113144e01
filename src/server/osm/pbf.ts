/**
 * Streaming reader for the OSM PBF format (https://wiki.openstreetmap.org/wiki/PBF_Format).
 *
 * The file is a sequence of (4-byte big-endian length, BlobHeader, Blob) frames. We read one
 * frame at a time with positioned reads, so memory holds one blob (at most 32 MiB by the
 * format's own limit), never the file. Protobuf fields are decoded by hand on top of the
 * low-level `pbf` reader; every length is checked against the buffer first, because the
 * `pbf` reader trusts lengths and would loop over garbage instead of failing.
 */
import { open } from "node:fs/promises";
import type { FileHandle } from "node:fs/promises";
import { inflateSync } from "node:zlib";
import { PbfReader } from "pbf";
import { OsmImportError } from "./errors.js";
import { idProblem, latestPlausibleTime } from "./plausible.js";
import { formatOsmTimestamp, NO_TAGS, newTags } from "../../model/osm.js";
import type {
  OsmBlock,
  OsmEntity,
  OsmHeader,
  OsmMemberType,
  OsmMetadata,
  OsmNode,
  OsmReadOptions,
  OsmRelation,
  OsmTags,
  OsmWay,
} from "../../model/osm.js";

// Limits from the format specification: anything larger means a corrupt or foreign file.
const MAX_BLOB_HEADER_BYTES = 64 * 1024;
const MAX_BLOB_BYTES = 32 * 1024 * 1024;

/** Features a reader must understand to read a file correctly; we understand these. */
const SUPPORTED_REQUIRED_FEATURES = new Set(["OsmSchema-V0.6", "DenseNodes"]);

const WIRE_LENGTH_DELIMITED = 2;

/** Thrown by the decoding helpers; the reader turns it into an OsmImportError. */
class PbfFormatError extends Error {}

export async function* readPbf(path: string, options: OsmReadOptions = {}): AsyncGenerator<OsmBlock> {
  let file: FileHandle;
  try {
    file = await open(path, "r");
  } catch (error) {
    throw new OsmImportError(path, `cannot open file (${(error as Error).message})`, { cause: error });
  }
  const latest = latestPlausibleTime();
  try {
    let position = 0;
    let sawHeader = false;
    for (;;) {
      const frame = await readFrame(file, position, path);
      if (frame === null) break;
      position = frame.nextPosition;
      options.onBytesRead?.(position);
      let block: OsmBlock | null;
      try {
        block = decodeFrame(frame.type, frame.blob, sawHeader, options);
      } catch (error) {
        // Decoding is pure computation on bytes: whatever fails in it is bad data.
        throw new OsmImportError(path, `bad protobuf data in the block at byte ${frame.start}: ${(error as Error).message}`, { cause: error });
      }
      if (block === null) continue;
      const problem = implausible(block, latest);
      if (problem !== null) throw new OsmImportError(path, `invalid data in the block at byte ${frame.start}: ${problem}`);
      if (block.kind === "header") sawHeader = true;
      yield block;
    }
    if (!sawHeader) throw new OsmImportError(path, "not an OSM PBF file (no OSMHeader block)");
  } finally {
    await file.close();
  }
}

interface Frame {
  type: string;
  blob: Uint8Array;
  start: number;
  nextPosition: number;
}

/** Reads the frame starting at `position`; null at a clean end of file. */
/** What makes a decoded block more than bad bytes (see plausible.ts), naming the object; null when nothing does. */
function implausible(block: OsmBlock, latest: number): string | null {
  if (block.kind === "header") {
    const time = block.header.replicationTimestamp;
    return time !== null && Date.parse(time) > latest ? `the replication timestamp ${time} is later than a day from now` : null;
  }
  for (const entity of block.entities) {
    const problem = idProblem(entity.id);
    if (problem !== null) return `${entity.type} ${entity.id}: ${problem}`;
    if (entity.timestamp !== null && entity.timestamp > latest) return `${entity.type} ${entity.id} is dated later than a day from now`;
  }
  return null;
}

async function readFrame(file: FileHandle, position: number, path: string): Promise<Frame | null> {
  const lengthBytes = await readExactly(file, position, 4);
  if (lengthBytes.length === 0) return null;
  if (lengthBytes.length < 4) throw truncated(path, position);
  const headerLength = new DataView(lengthBytes.buffer, lengthBytes.byteOffset, 4).getUint32(0);
  if (headerLength === 0 || headerLength > MAX_BLOB_HEADER_BYTES) {
    throw new OsmImportError(
      path,
      `not an OSM PBF file (block header of ${headerLength} bytes at byte ${position}; the format allows 1 to ${MAX_BLOB_HEADER_BYTES})`,
    );
  }
  const headerBytes = await readExactly(file, position + 4, headerLength);
  if (headerBytes.length < headerLength) throw truncated(path, position);
  let header: { type: string; dataSize: number };
  try {
    header = decodeBlobHeader(headerBytes);
  } catch (error) {
    if (!(error instanceof PbfFormatError)) throw error;
    throw new OsmImportError(path, `not an OSM PBF file (bad block header at byte ${position}: ${error.message})`);
  }
  if (header.dataSize > MAX_BLOB_BYTES) {
    throw new OsmImportError(path, `block at byte ${position} claims ${header.dataSize} bytes; the format allows ${MAX_BLOB_BYTES}`);
  }
  const blobStart = position + 4 + headerLength;
  const blob = await readExactly(file, blobStart, header.dataSize);
  if (blob.length < header.dataSize) throw truncated(path, position);
  return { type: header.type, blob, start: position, nextPosition: blobStart + header.dataSize };
}

function truncated(path: string, position: number): OsmImportError {
  return new OsmImportError(path, `truncated PBF file (the block at byte ${position} is incomplete)`);
}

async function readExactly(file: FileHandle, position: number, length: number): Promise<Uint8Array> {
  const buffer = Buffer.allocUnsafe(length);
  let filled = 0;
  while (filled < length) {
    const { bytesRead } = await file.read(buffer, filled, length - filled, position + filled);
    if (bytesRead === 0) break;
    filled += bytesRead;
  }
  return buffer.subarray(0, filled);
}

function decodeFrame(type: string, blobBytes: Uint8Array, sawHeader: boolean, options: OsmReadOptions): OsmBlock | null {
  if (type === "OSMHeader") {
    if (sawHeader) throw new PbfFormatError("a second OSMHeader block");
    return { kind: "header", header: decodeHeaderBlock(inflateBlob(blobBytes)) };
  }
  if (type === "OSMData") {
    if (!sawHeader) throw new PbfFormatError("OSMData block before the OSMHeader block");
    return { kind: "entities", entities: decodePrimitiveBlock(inflateBlob(blobBytes), options) };
  }
  // The specification tells readers to skip block types they do not know.
  return null;
}

// ---------------------------------------------------------------------------------------
// Checked protobuf helpers

/** Decodes a whole buffer as one message and insists the fields end exactly at its end. */
function decodeMessage<T>(bytes: Uint8Array, readField: (tag: number, result: T, pbf: PbfReader) => void, result: T): T {
  const pbf = new PbfReader(bytes);
  pbf.readFields(readField, result);
  if (pbf.pos !== bytes.length) throw new PbfFormatError("message does not end where its data ends");
  return result;
}

/** Decodes an embedded message field, checking its length first. */
function decodeEmbedded<T>(pbf: PbfReader, readField: (tag: number, result: T, pbf: PbfReader) => void, result: T): T {
  const end = lengthDelimitedEnd(pbf);
  pbf.readVarint(); // step over the length
  pbf.readFields(readField, result, end);
  if (pbf.pos !== end) throw new PbfFormatError("embedded message overruns its length");
  return result;
}

/** End position of the length-delimited value at the cursor, without moving the cursor. */
function lengthDelimitedEnd(pbf: PbfReader): number {
  if (pbf.type !== WIRE_LENGTH_DELIMITED) throw new PbfFormatError(`wire type ${pbf.type} where a length-delimited field was expected`);
  const start = pbf.pos;
  const end = pbf.readVarint() + pbf.pos;
  pbf.pos = start;
  if (end > pbf.length) throw new PbfFormatError("field length runs past the end of the block");
  return end;
}

function readBytesChecked(pbf: PbfReader): Uint8Array {
  lengthDelimitedEnd(pbf);
  return pbf.readBytes();
}

function readStringChecked(pbf: PbfReader): string {
  lengthDelimitedEnd(pbf);
  return pbf.readString();
}

/** Packed repeated fields; single unpacked values are accepted too, as protobuf requires. */
function readPacked(pbf: PbfReader, read: (pbf: PbfReader, into: number[]) => number[], into: number[]): void {
  if (pbf.type === WIRE_LENGTH_DELIMITED) lengthDelimitedEnd(pbf);
  read(pbf, into);
}
const packedVarint = (pbf: PbfReader, into: number[]): number[] => pbf.readPackedVarint(into);
const packedSVarint = (pbf: PbfReader, into: number[]): number[] => pbf.readPackedSVarint(into);

/** Undoes delta coding in place. */
function undelta(values: number[]): number[] {
  for (let i = 1; i < values.length; i++) values[i] = values[i]! + values[i - 1]!;
  return values;
}

// ---------------------------------------------------------------------------------------
// Blob framing

function decodeBlobHeader(bytes: Uint8Array): { type: string; dataSize: number } {
  const header = decodeMessage(
    bytes,
    (tag, result: { type: string | null; dataSize: number | null }, pbf) => {
      if (tag === 1) result.type = readStringChecked(pbf);
      else if (tag === 3) result.dataSize = pbf.readVarint();
    },
    { type: null, dataSize: null },
  );
  if (header.type === null || header.dataSize === null) throw new PbfFormatError("block header without type or size");
  return { type: header.type, dataSize: header.dataSize };
}

interface BlobFields {
  raw: Uint8Array | null;
  rawSize: number | null;
  zlib: Uint8Array | null;
  unsupported: string | null;
}

const UNSUPPORTED_COMPRESSION: Record<number, string> = { 4: "lzma", 5: "bzip2", 6: "lz4", 7: "zstd" };

function inflateBlob(bytes: Uint8Array): Uint8Array {
  const blob = decodeMessage(
    bytes,
    (tag, result: BlobFields, pbf) => {
      if (tag === 1) result.raw = readBytesChecked(pbf);
      else if (tag === 2) result.rawSize = pbf.readVarint();
      else if (tag === 3) result.zlib = readBytesChecked(pbf);
      else if (UNSUPPORTED_COMPRESSION[tag] !== undefined) result.unsupported = UNSUPPORTED_COMPRESSION[tag]!;
    },
    { raw: null, rawSize: null, zlib: null, unsupported: null },
  );
  if (blob.raw) return blob.raw;
  if (blob.zlib) {
    let inflated: Uint8Array;
    try {
      inflated = inflateSync(blob.zlib, { maxOutputLength: MAX_BLOB_BYTES });
    } catch (error) {
      throw new PbfFormatError(`zlib data cannot be inflated (${(error as Error).message})`);
    }
    if (blob.rawSize !== null && inflated.length !== blob.rawSize) {
      throw new PbfFormatError(`zlib data inflates to ${inflated.length} bytes, the block says ${blob.rawSize}`);
    }
    return inflated;
  }
  if (blob.unsupported) throw new PbfFormatError(`${blob.unsupported} compression is not supported (only zlib and raw blocks)`);
  throw new PbfFormatError("block without data");
}

// ---------------------------------------------------------------------------------------
// HeaderBlock

function decodeHeaderBlock(bytes: Uint8Array): OsmHeader {
  const fields = decodeMessage(
    bytes,
    (tag, result: { bbox: [number, number, number, number] | null; required: string[]; replication: number | null }, pbf) => {
      if (tag === 1) result.bbox = decodeHeaderBBox(pbf);
      else if (tag === 4) result.required.push(readStringChecked(pbf));
      else if (tag === 32) result.replication = pbf.readVarint(true);
    },
    { bbox: null, required: [], replication: null },
  );
  const unsupported = fields.required.filter((feature) => !SUPPORTED_REQUIRED_FEATURES.has(feature));
  if (unsupported.length > 0) throw new PbfFormatError(`the file requires unsupported features: ${unsupported.join(", ")}`);
  return {
    bbox: fields.bbox,
    // osmosis_replication_timestamp is in seconds since the epoch.
    replicationTimestamp: fields.replication !== null ? formatOsmTimestamp(fields.replication * 1000) : null,
  };
}

function decodeHeaderBBox(pbf: PbfReader): [number, number, number, number] {
  // left, right, top, bottom in nanodegrees.
  const edges = decodeEmbedded(
    pbf,
    (tag, result: number[], reader) => {
      if (tag >= 1 && tag <= 4) result[tag - 1] = reader.readSVarint() / 1e9;
    },
    [0, 0, 0, 0],
  );
  const [left, right, top, bottom] = edges as [number, number, number, number];
  return [left, bottom, right, top];
}

// ---------------------------------------------------------------------------------------
// PrimitiveBlock

/** Block-wide parameters every entity in the block is decoded with. */
interface BlockContext {
  strings: string[];
  granularity: number;
  latOffset: number;
  lonOffset: number;
  dateGranularity: number;
}

function decodePrimitiveBlock(bytes: Uint8Array, options: OsmReadOptions): OsmEntity[] {
  // Groups refer to the string table and to granularity fields that may come after them
  // in the message, so the first scan collects those and remembers where groups are.
  const context: BlockContext = { strings: [], granularity: 100, latOffset: 0, lonOffset: 0, dateGranularity: 1000 };
  const groups: Array<{ start: number; end: number }> = [];
  decodeMessage(
    bytes,
    (tag, ctx: BlockContext, pbf) => {
      if (tag === 1) ctx.strings = decodeStringTable(pbf);
      else if (tag === 2) {
        const end = lengthDelimitedEnd(pbf);
        pbf.readVarint(); // step over the length
        groups.push({ start: pbf.pos, end });
        pbf.pos = end;
      } else if (tag === 17) ctx.granularity = pbf.readVarint(true);
      else if (tag === 18) ctx.dateGranularity = pbf.readVarint(true);
      else if (tag === 19) ctx.latOffset = pbf.readVarint(true);
      else if (tag === 20) ctx.lonOffset = pbf.readVarint(true);
    },
    context,
  );
  const entities: OsmEntity[] = [];
  const pbf = new PbfReader(bytes);
  for (const group of groups) {
    pbf.pos = group.start;
    pbf.readFields(
      (tag, out: OsmEntity[], reader) => {
        if (tag === 1 && !options.skipNodes) pushIfPresent(out, decodeNode(reader, context));
        else if (tag === 2 && !options.skipNodes) decodeDenseNodes(reader, context, out);
        else if (tag === 3) pushIfPresent(out, decodeWay(reader, context));
        else if (tag === 4) pushIfPresent(out, decodeRelation(reader, context));
      },
      entities,
      group.end,
    );
    if (pbf.pos !== group.end) throw new PbfFormatError("primitive group overruns its length");
  }
  return entities;
}

function decodeStringTable(pbf: PbfReader): string[] {
  const decoder = new TextDecoder();
  return decodeEmbedded(
    pbf,
    (tag, strings: string[], reader) => {
      if (tag === 1) strings.push(decoder.decode(readBytesChecked(reader)));
    },
    [],
  );
}

function stringAt(context: BlockContext, index: number): string {
  const value = context.strings[index];
  if (value === undefined) throw new PbfFormatError(`string index ${index} outside the string table`);
  return value;
}

function tagsFrom(context: BlockContext, keys: number[], values: number[]): OsmTags {
  if (keys.length !== values.length) throw new PbfFormatError("keys and values of different lengths");
  if (keys.length === 0) return NO_TAGS;
  const tags = newTags();
  for (let i = 0; i < keys.length; i++) tags[stringAt(context, keys[i]!)] = stringAt(context, values[i]!);
  return tags;
}

/** Converts a stored coordinate to degrees on OSM's 1e-7 grid (granularity is 100 nanodegrees in practice). */
function coordinate(offset: number, granularity: number, value: number): number {
  return Math.round((offset + granularity * value) / 100) / 1e7;
}

function pushIfPresent(out: OsmEntity[], entity: OsmEntity | null): void {
  if (entity !== null) out.push(entity);
}

function emptyMetadata(): OsmMetadata {
  return { version: null, timestamp: null, changeset: null, uid: null, user: null };
}

/**
 * Extracts stripped of personal data write zeros and empty names instead of leaving the
 * fields out; both mean "unknown", so both become null.
 */
function normalizeMetadata(meta: OsmMetadata): OsmMetadata {
  if (meta.changeset === 0) meta.changeset = null;
  if (meta.user === "") meta.user = null;
  if (meta.uid === 0 && meta.user === null) meta.uid = null;
  if (meta.version === 0) meta.version = null;
  if (meta.timestamp === 0) meta.timestamp = null;
  return meta;
}

/** Fields common to nodes, ways and relations. */
interface EntityFields {
  id: number;
  keys: number[];
  values: number[];
  meta: OsmMetadata;
  /** False only in history files, where it marks a deletion: such objects are not data. */
  visible: boolean;
}

function newEntityFields(): EntityFields {
  return { id: 0, keys: [], values: [], meta: emptyMetadata(), visible: true };
}

function readCommonField(tag: number, fields: EntityFields, pbf: PbfReader, context: BlockContext): void {
  if (tag === 1) fields.id = pbf.readVarint(true);
  else if (tag === 2) readPacked(pbf, packedVarint, fields.keys);
  else if (tag === 3) readPacked(pbf, packedVarint, fields.values);
  else if (tag === 4) decodeInfo(pbf, context, fields);
}

function decodeInfo(pbf: PbfReader, context: BlockContext, fields: EntityFields): void {
  decodeEmbedded(
    pbf,
    (tag, f: EntityFields, reader) => {
      if (tag === 1) f.meta.version = reader.readVarint(true);
      else if (tag === 2) f.meta.timestamp = reader.readVarint(true) * context.dateGranularity;
      else if (tag === 3) f.meta.changeset = reader.readVarint(true);
      else if (tag === 4) f.meta.uid = reader.readVarint(true);
      else if (tag === 5) f.meta.user = stringAt(context, reader.readVarint());
      else if (tag === 6) f.visible = reader.readBoolean();
    },
    fields,
  );
  normalizeMetadata(fields.meta);
}

function decodeNode(pbf: PbfReader, context: BlockContext): OsmNode | null {
  const fields = { ...newEntityFields(), lat: 0, lon: 0 };
  decodeEmbedded(
    pbf,
    (tag, f: typeof fields, reader) => {
      // Node ids are sint64 (zigzag), unlike way and relation ids.
      if (tag === 1) f.id = reader.readSVarint();
      else if (tag === 8) f.lat = reader.readSVarint();
      else if (tag === 9) f.lon = reader.readSVarint();
      else readCommonField(tag, f, reader, context);
    },
    fields,
  );
  if (!fields.visible) return null;
  return {
    type: "node",
    id: fields.id,
    lon: coordinate(context.lonOffset, context.granularity, fields.lon),
    lat: coordinate(context.latOffset, context.granularity, fields.lat),
    tags: tagsFrom(context, fields.keys, fields.values),
    ...fields.meta,
  };
}

interface DenseInfo {
  version: number[];
  timestamp: number[];
  changeset: number[];
  uid: number[];
  userSid: number[];
  visible: number[];
}

function decodeDenseNodes(pbf: PbfReader, context: BlockContext, out: OsmEntity[]): void {
  const dense = { ids: [] as number[], lats: [] as number[], lons: [] as number[], keysVals: [] as number[], info: null as DenseInfo | null };
  decodeEmbedded(
    pbf,
    (tag, d: typeof dense, reader) => {
      if (tag === 1) readPacked(reader, packedSVarint, d.ids);
      else if (tag === 5) d.info = decodeDenseInfo(reader);
      else if (tag === 8) readPacked(reader, packedSVarint, d.lats);
      else if (tag === 9) readPacked(reader, packedSVarint, d.lons);
      else if (tag === 10) readPacked(reader, packedVarint, d.keysVals);
    },
    dense,
  );
  const count = dense.ids.length;
  if (dense.lats.length !== count || dense.lons.length !== count) throw new PbfFormatError("dense nodes with mismatched id/lat/lon arrays");
  undelta(dense.ids);
  undelta(dense.lats);
  undelta(dense.lons);
  const info = dense.info;
  if (info) {
    undelta(info.timestamp);
    undelta(info.changeset);
    undelta(info.uid);
    undelta(info.userSid);
  }
  // keys_vals holds, per node, key/value string indexes followed by a 0 terminator; it is
  // empty altogether when no node in the block has tags.
  let kv = 0;
  for (let i = 0; i < count; i++) {
    const tagged = kv < dense.keysVals.length && dense.keysVals[kv] !== 0;
    const tags = tagged ? newTags() : NO_TAGS;
    while (kv < dense.keysVals.length) {
      const key = dense.keysVals[kv++]!;
      if (key === 0) break;
      const value = dense.keysVals[kv++];
      if (value === undefined) throw new PbfFormatError("dense node key without a value");
      tags[stringAt(context, key)] = stringAt(context, value);
    }
    const meta = emptyMetadata();
    let visible = true;
    if (info) {
      meta.version = info.version[i] ?? null;
      meta.timestamp = info.timestamp[i] !== undefined ? info.timestamp[i]! * context.dateGranularity : null;
      meta.changeset = info.changeset[i] ?? null;
      meta.uid = info.uid[i] ?? null;
      meta.user = info.userSid[i] !== undefined ? stringAt(context, info.userSid[i]!) : null;
      visible = info.visible[i] !== 0;
    }
    if (!visible) continue;
    out.push({
      type: "node",
      id: dense.ids[i]!,
      lon: coordinate(context.lonOffset, context.granularity, dense.lons[i]!),
      lat: coordinate(context.latOffset, context.granularity, dense.lats[i]!),
      tags,
      ...normalizeMetadata(meta),
    });
  }
}

function decodeDenseInfo(pbf: PbfReader): DenseInfo {
  return decodeEmbedded(
    pbf,
    (tag, info: DenseInfo, reader) => {
      if (tag === 1) readPacked(reader, packedVarint, info.version);
      else if (tag === 2) readPacked(reader, packedSVarint, info.timestamp);
      else if (tag === 3) readPacked(reader, packedSVarint, info.changeset);
      else if (tag === 4) readPacked(reader, packedSVarint, info.uid);
      else if (tag === 5) readPacked(reader, packedSVarint, info.userSid);
      else if (tag === 6) readPacked(reader, packedVarint, info.visible);
    },
    { version: [], timestamp: [], changeset: [], uid: [], userSid: [], visible: [] },
  );
}

function decodeWay(pbf: PbfReader, context: BlockContext): OsmWay | null {
  const fields = { ...newEntityFields(), refs: [] as number[] };
  decodeEmbedded(
    pbf,
    (tag, f: typeof fields, reader) => {
      if (tag === 8) readPacked(reader, packedSVarint, f.refs);
      else readCommonField(tag, f, reader, context);
    },
    fields,
  );
  if (!fields.visible) return null;
  return { type: "way", id: fields.id, refs: undelta(fields.refs), tags: tagsFrom(context, fields.keys, fields.values), ...fields.meta };
}

const MEMBER_TYPES: readonly OsmMemberType[] = ["node", "way", "relation"];

function decodeRelation(pbf: PbfReader, context: BlockContext): OsmRelation | null {
  const fields = { ...newEntityFields(), roles: [] as number[], memberIds: [] as number[], memberTypes: [] as number[] };
  decodeEmbedded(
    pbf,
    (tag, f: typeof fields, reader) => {
      if (tag === 8) readPacked(reader, packedVarint, f.roles);
      else if (tag === 9) readPacked(reader, packedSVarint, f.memberIds);
      else if (tag === 10) readPacked(reader, packedVarint, f.memberTypes);
      else readCommonField(tag, f, reader, context);
    },
    fields,
  );
  if (!fields.visible) return null;
  const ids = undelta(fields.memberIds);
  if (fields.roles.length !== ids.length || fields.memberTypes.length !== ids.length) {
    throw new PbfFormatError(`relation ${fields.id} has member arrays of different lengths`);
  }
  const members = ids.map((ref, i) => {
    const type = MEMBER_TYPES[fields.memberTypes[i]!];
    if (type === undefined) throw new PbfFormatError(`relation ${fields.id} has a member of unknown type ${fields.memberTypes[i]}`);
    return { type, ref, role: stringAt(context, fields.roles[i]!) };
  });
  return { type: "relation", id: fields.id, members, tags: tagsFrom(context, fields.keys, fields.values), ...fields.meta };
}
