/**
 * Streaming reader for OSM XML (`.osm`, and `.osm.gz` through a gunzip stream), producing
 * the same entity shapes as the PBF reader. The file is fed to the `saxes` parser chunk by
 * chunk and the entities finished in each chunk are yielded as one batch.
 *
 * The parsing machinery (root check, attribute and metadata parsing, entity building, error
 * messages with line numbers) is OsmXmlParser, shared with the change and changeset readers.
 */
import { createReadStream } from "node:fs";
import type { ReadStream } from "node:fs";
import { createGunzip } from "node:zlib";
import { SaxesParser } from "saxes";
import { OsmImportError } from "./errors.js";
import { idProblem, latestPlausibleTime } from "./plausible.js";
import { formatOsmTimestamp, NO_TAGS, newTags, toOsmPrecision } from "../../model/osm.js";
import type { OsmBlock, OsmEntity, OsmHeader, OsmMemberType, OsmMetadata, OsmReadOptions, OsmRelation, OsmTags, OsmWay } from "../../model/osm.js";

export async function* readOsmXml(path: string, options: OsmReadOptions = {}): AsyncGenerator<OsmBlock> {
  const builder = new OsmXmlBuilder(path, options);
  for await (const entities of parseXmlFile(path, builder, options.onBytesRead)) {
    yield* builder.takeHeader();
    yield { kind: "entities", entities };
  }
  yield* builder.takeHeader();
}

/**
 * Feeds a file to `parser` chunk by chunk, gunzipped when its name ends in `.gz`, and yields
 * what each chunk completed (never an empty batch). Read and gzip errors become OsmImportErrors.
 */
export async function* parseXmlFile<T>(path: string, parser: OsmXmlParser<T>, onBytesRead?: (bytes: number) => void): AsyncGenerator<T[]> {
  const gzipped = path.toLowerCase().endsWith(".gz");
  const file = createReadStream(path);
  try {
    for await (const chunk of decompressedChunks(file, gzipped, onBytesRead)) {
      parser.write(chunk);
      const done = parser.take();
      if (done.length > 0) yield done;
    }
    parser.close();
    const done = parser.take();
    if (done.length > 0) yield done;
  } catch (error) {
    if (error instanceof OsmImportError) throw error;
    throw new OsmImportError(path, describeStreamError(error, gzipped), { cause: error });
  } finally {
    file.destroy();
  }
}

/** Everything `parser` makes of a file small enough to hold in memory. */
export async function parseWholeXmlFile<T>(path: string, parser: OsmXmlParser<T>): Promise<T[]> {
  const all: T[] = [];
  for await (const batch of parseXmlFile(path, parser)) for (const item of batch) all.push(item);
  return all;
}

/** The file's bytes, gunzipped if needed, reporting compressed bytes consumed as progress. */
async function* decompressedChunks(file: ReadStream, gzipped: boolean, onBytesRead?: (bytes: number) => void): AsyncGenerator<Buffer> {
  let bytesRead = 0;
  const count = (chunk: Buffer): void => {
    bytesRead += chunk.length;
    onBytesRead?.(bytesRead);
  };
  if (!gzipped) {
    for await (const chunk of file) {
      count(chunk as Buffer);
      yield chunk as Buffer;
    }
    return;
  }
  const gunzip = createGunzip();
  // pipe() already consumes the file through "data" events, so counting there is safe;
  // it does not forward errors, so a read error must end the gunzip stream by hand.
  file.on("data", (chunk) => count(chunk as Buffer));
  file.on("error", (error) => gunzip.destroy(error));
  yield* file.pipe(gunzip) as AsyncIterable<Buffer>;
}

function describeStreamError(error: unknown, gzipped: boolean): string {
  const code = (error as NodeJS.ErrnoException).code;
  const message = (error as Error).message;
  if (code === "ENOENT" || code === "EACCES" || code === "EISDIR") return `cannot open file (${message})`;
  if (gzipped && code === "Z_BUF_ERROR") return "truncated gzip data (unexpected end of file)";
  if (gzipped && typeof code === "string" && code.startsWith("Z_")) return `corrupt gzip data (${message})`;
  return message;
}

/** What a file must be, for the root check and the error messages. */
export interface OsmXmlFormat {
  root: string;
  /** As in "not OSM XML (…)" or "not an OSM change file (…)". */
  name: string;
  /** As in "invalid OSM XML at line 3: …". */
  shortName: string;
}

type Attributes = Record<string, string>;

/**
 * Turns the text of one file into items of type T, which subclasses emit() as their elements
 * complete; one instance per file. Every error is an OsmImportError naming the line.
 */
export abstract class OsmXmlParser<T> {
  private readonly parser = new SaxesParser<{ xmlns: false }>({ xmlns: false });
  private readonly decoder = new TextDecoder("utf-8", { fatal: true });
  private done: T[] = [];
  private sawRoot = false;
  private sawText = false;
  private depth = 0;
  private readonly latestTime = latestPlausibleTime();

  constructor(
    private readonly path: string,
    private readonly format: OsmXmlFormat,
  ) {
    this.parser.on("opentag", (tag) => {
      this.depth++;
      if (this.sawRoot) this.openElement(tag.name, tag.attributes, this.depth);
      else this.openRootElement(tag.name, tag.attributes);
    });
    this.parser.on("closetag", () => this.closeElement(this.depth--));
    this.parser.on("error", (error) => {
      throw new OsmImportError(this.path, `malformed XML (${error.message})`);
    });
  }

  write(bytes: Uint8Array): void {
    this.writeText(this.decode(bytes, true));
  }

  close(): void {
    this.writeText(this.decode(new Uint8Array(0), false));
    // saxes would call an empty file malformed, which sends people looking for a syntax error.
    if (!this.sawText) throw new OsmImportError(this.path, `not ${this.format.name} (empty document)`);
    this.parser.close();
  }

  private writeText(text: string): void {
    this.sawText ||= /\S/.test(text);
    this.parser.write(text);
  }

  /** Hands over the items completed so far. */
  take(): T[] {
    const done = this.done;
    this.done = [];
    return done;
  }

  protected emit(item: T): void {
    this.done.push(item);
  }

  /** Called with the root element's attributes, once its name is checked. */
  protected openRoot(_attributes: Attributes): void {}

  /** Called for every element below the root; the root's children are at depth 2. */
  protected abstract openElement(name: string, attributes: Attributes, depth: number): void;

  /** Called as the element at `depth` closes. */
  protected abstract closeElement(depth: number): void;

  private openRootElement(name: string, attributes: Attributes): void {
    if (name !== this.format.root) {
      throw new OsmImportError(this.path, `not ${this.format.name} (the root element is <${name}>, not <${this.format.root}>)`);
    }
    this.sawRoot = true;
    this.openRoot(attributes);
  }

  private decode(bytes: Uint8Array, stream: boolean): string {
    try {
      return this.decoder.decode(bytes, { stream });
    } catch (error) {
      throw new OsmImportError(this.path, `not UTF-8 text, so not ${this.format.name}`, { cause: error });
    }
  }

  /** A node, way or relation without its tags, nodes and members (see addEntityChild). */
  protected readEntity(type: OsmEntity["type"], attributes: Attributes): OsmEntity {
    const id = this.osmId(attributes, "id", `<${type}>`);
    const owner = `${type} ${id}`;
    const meta = this.readMetadata(attributes, owner);
    if (type === "node") {
      return {
        type,
        id,
        lon: toOsmPrecision(this.coordinate(attributes, "lon", owner)),
        lat: toOsmPrecision(this.coordinate(attributes, "lat", owner)),
        tags: NO_TAGS,
        ...meta,
      };
    }
    if (type === "way") return { type, id, refs: [], tags: NO_TAGS, ...meta };
    return { type, id, members: [], tags: NO_TAGS, ...meta };
  }

  /** Adds a <tag>, <nd> or <member> child element to its entity; other children are ignored. */
  protected addEntityChild(entity: OsmEntity, name: string, attributes: Attributes): void {
    // Children are the bulk of a file: their errors name the element and line, not the owner.
    if (name === "tag") {
      if (entity.tags === NO_TAGS) entity.tags = newTags();
      this.addTag(entity.tags, attributes);
    } else if (name === "nd" && entity.type === "way") {
      (entity as OsmWay).refs.push(this.osmId(attributes, "ref", "<nd>"));
    } else if (name === "member" && entity.type === "relation") {
      const type = attributes["type"];
      if (type !== "node" && type !== "way" && type !== "relation") {
        throw this.invalid(`member of relation ${entity.id} with type "${type ?? ""}"`);
      }
      const ref = this.osmId(attributes, "ref", "<member>");
      (entity as OsmRelation).members.push({ type: type as OsmMemberType, ref, role: attributes["role"] ?? "" });
    }
  }

  protected addTag(tags: OsmTags, attributes: Attributes): void {
    const key = attributes["k"];
    if (key === undefined) throw this.invalid("<tag> without k");
    tags[key] = attributes["v"] ?? "";
  }

  protected readMetadata(attributes: Attributes, owner: string): OsmMetadata {
    const changeset = this.optionalInteger(attributes, "changeset", owner);
    const user = attributes["user"] || null;
    const uid = this.optionalInteger(attributes, "uid", owner);
    return {
      version: this.optionalInteger(attributes, "version", owner),
      timestamp: this.optionalTime(attributes, "timestamp", owner),
      // Same normalisation as the PBF reader: stripped metadata is written as zeros.
      changeset: changeset === 0 ? null : changeset,
      uid: uid === 0 && user === null ? null : uid,
      user,
    };
  }

  protected integer(attributes: Attributes, name: string, owner: string): number {
    const text = attributes[name];
    const value = Number(text);
    if (text === undefined || !INTEGER.test(text) || !Number.isSafeInteger(value)) throw this.badAttribute(owner, name, text, "an integer");
    return value;
  }

  /** The id of an object or changeset, or a reference to one (see plausible.ts). */
  protected osmId(attributes: Attributes, name: string, owner: string): number {
    const text = attributes[name];
    if (text === undefined || !INTEGER.test(text)) throw this.badAttribute(owner, name, text, "an integer");
    const problem = idProblem(Number(text));
    if (problem !== null) throw this.invalid(`${owner} with ${name}="${text}" (${problem})`);
    return Number(text);
  }

  /** Absent and empty attributes are both null: extracts strip metadata either way. */
  protected optionalInteger(attributes: Attributes, name: string, owner: string): number | null {
    const text = attributes[name];
    return text === undefined || text === "" ? null : this.integer(attributes, name, owner);
  }

  protected coordinate(attributes: Attributes, name: "lon" | "lat" | "min_lon" | "min_lat" | "max_lon" | "max_lat", owner: string): number {
    const text = attributes[name];
    const value = Number(text);
    const longitude = name.endsWith("lon");
    const limit = longitude ? 180 : 90;
    if (text === undefined || text === "" || !Number.isFinite(value) || Math.abs(value) > limit) {
      throw this.badAttribute(owner, name, text, `a ${longitude ? "longitude" : "latitude"} between -${limit} and ${limit}`);
    }
    return value;
  }

  /** Epoch milliseconds of an ISO-8601 date and time with a zone, or null when absent or empty. */
  protected optionalTime(attributes: Attributes, name: string, owner: string): number | null {
    const text = attributes[name];
    if (text === undefined || text === "") return null;
    // Date.parse alone also takes "1" or "May 5" and reads zoneless times as local time.
    const ms = ISO_DATE_TIME.test(text) ? Date.parse(text) : Number.NaN;
    if (Number.isNaN(ms)) throw this.badAttribute(owner, name, text, "an ISO-8601 date and time such as 2025-01-02T03:04:05Z");
    if (ms > this.latestTime) throw this.badAttribute(owner, name, text, "a time no later than a day from now");
    return ms;
  }

  private badAttribute(owner: string, name: string, text: string | undefined, required: string): OsmImportError {
    const found = text === undefined ? `without ${name}` : `with ${name}="${text}"`;
    return this.invalid(`${owner} ${found} (${required} is required)`);
  }

  protected invalid(problem: string): OsmImportError {
    return new OsmImportError(this.path, `invalid ${this.format.shortName} at line ${this.parser.line}: ${problem}`);
  }
}

/** Decimal digits only: Number() would also take "1e3", "0x10" and " 7 ". */
const INTEGER = /^-?\d+$/;
const ISO_DATE_TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d(?::\d\d(?:\.\d+)?)?(?:Z|[+-]\d\d:?\d\d)$/;

const OSM_XML: OsmXmlFormat = { root: "osm", name: "OSM XML", shortName: "OSM XML" };

/** Entities are children of <osm>; their own children are tag, nd and member. */
class OsmXmlBuilder extends OsmXmlParser<OsmEntity> {
  private header: OsmHeader | null = null;
  private headerTaken = false;
  private current: OsmEntity | null = null;

  constructor(
    path: string,
    private readonly options: OsmReadOptions,
  ) {
    super(path, OSM_XML);
  }

  /** The header block, the first time it is asked for after the root element was read. */
  takeHeader(): OsmBlock[] {
    if (this.header === null || this.headerTaken) return [];
    this.headerTaken = true;
    return [{ kind: "header", header: this.header }];
  }

  protected override openRoot(attributes: Attributes): void {
    // The <osm timestamp> attribute is what osmium and Overpass write as the data's time.
    const timestamp = this.optionalTime(attributes, "timestamp", "<osm>");
    this.header = { replicationTimestamp: timestamp === null ? null : formatOsmTimestamp(timestamp), bbox: null };
  }

  protected openElement(name: string, attributes: Attributes, depth: number): void {
    if (depth === 3 && this.current) this.addEntityChild(this.current, name, attributes);
    if (depth !== 2) return;
    if (name === "bounds") this.setBounds(attributes);
    if (name !== "node" && name !== "way" && name !== "relation") return;
    // visible="false" only occurs in history files, where it marks a deletion.
    if (attributes["visible"] === "false") return;
    if (name === "node" && this.options.skipNodes) return;
    this.current = this.readEntity(name, attributes);
  }

  protected closeElement(depth: number): void {
    if (depth !== 2 || this.current === null) return;
    this.emit(this.current);
    this.current = null;
  }

  /** <bounds> carries the extract's box; it follows the root, before the header is handed over. */
  private setBounds(attributes: Attributes): void {
    const edges = ["minlon", "minlat", "maxlon", "maxlat"].map((name) => Number(attributes[name]));
    if (this.header && !this.headerTaken && edges.every(Number.isFinite)) this.header.bbox = edges as [number, number, number, number];
  }
}
