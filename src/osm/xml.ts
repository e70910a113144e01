/**
 * Streaming reader for OSM XML (`.osm`, and `.osm.gz` through a gunzip stream), producing
 * the same entity shapes as the PBF reader. The file is fed to the `saxes` parser chunk by
 * chunk and the entities finished in each chunk are yielded as one batch.
 */
import { createReadStream } from "node:fs";
import type { ReadStream } from "node:fs";
import { createGunzip } from "node:zlib";
import { SaxesParser } from "saxes";
import type { SaxesTagPlain } from "saxes";
import { OsmImportError } from "./errors.js";
import { formatOsmTimestamp, NO_TAGS, newTags, toOsmPrecision } from "./types.js";
import type { OsmBlock, OsmEntity, OsmMemberType, OsmMetadata, OsmReadOptions, OsmRelation, OsmWay } from "./types.js";

export async function* readOsmXml(path: string, options: OsmReadOptions = {}): AsyncGenerator<OsmBlock> {
  const gzipped = path.toLowerCase().endsWith(".gz");
  const file = createReadStream(path);
  const builder = new OsmXmlBuilder(path, options);
  const decoder = new TextDecoder("utf-8", { fatal: true });
  try {
    for await (const chunk of decompressedChunks(file, gzipped, options)) {
      builder.write(decoder.decode(chunk, { stream: true }));
      yield* builder.takeBlocks();
    }
    builder.write(decoder.decode());
    builder.close();
    yield* builder.takeBlocks();
  } catch (error) {
    if (error instanceof OsmImportError) throw error;
    throw new OsmImportError(path, describeStreamError(error, gzipped), { cause: error });
  } finally {
    file.destroy();
  }
}

/** The file's bytes, gunzipped if needed, reporting compressed bytes consumed as progress. */
async function* decompressedChunks(file: ReadStream, gzipped: boolean, options: OsmReadOptions): AsyncGenerator<Buffer> {
  let bytesRead = 0;
  const count = (chunk: Buffer): void => {
    bytesRead += chunk.length;
    options.onBytesRead?.(bytesRead);
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
  if (error instanceof TypeError && /encoded data was not valid/i.test(message)) return "not UTF-8 text, so not OSM XML";
  return message;
}

/** Turns parser events into entities; one instance per file. */
class OsmXmlBuilder {
  private readonly parser = new SaxesParser<{ xmlns: false }>({ xmlns: false });
  private readonly blocks: OsmBlock[] = [];
  private entities: OsmEntity[] = [];
  private current: OsmEntity | null = null;
  private sawRoot = false;
  private depth = 0;

  constructor(
    private readonly path: string,
    private readonly options: OsmReadOptions,
  ) {
    this.parser.on("opentag", (tag) => this.openElement(tag));
    this.parser.on("closetag", () => this.closeElement());
    this.parser.on("error", (error) => {
      throw new OsmImportError(this.path, `malformed XML (${error.message})`);
    });
  }

  write(text: string): void {
    this.parser.write(text);
  }

  close(): void {
    this.parser.close();
    if (!this.sawRoot) throw new OsmImportError(this.path, "not OSM XML (empty document)");
    this.flush();
  }

  /** Hands over the blocks completed so far. */
  takeBlocks(): OsmBlock[] {
    this.flush();
    return this.blocks.splice(0);
  }

  private flush(): void {
    if (this.entities.length === 0) return;
    this.blocks.push({ kind: "entities", entities: this.entities });
    this.entities = [];
  }

  private openElement(tag: SaxesTagPlain): void {
    this.depth++;
    const attributes = tag.attributes;
    if (!this.sawRoot) {
      if (tag.name !== "osm") throw new OsmImportError(this.path, `not OSM XML (the root element is <${tag.name}>, not <osm>)`);
      this.sawRoot = true;
      // The <osm timestamp> attribute is what osmium and Overpass write as the data's time.
      const timestamp = attributes["timestamp"];
      this.blocks.push({
        kind: "header",
        header: { replicationTimestamp: timestamp ? formatOsmTimestamp(this.parseTime(timestamp)) : null, bbox: null },
      });
      return;
    }
    // Entities are children of <osm>; their own children are tag, nd and member.
    if (this.depth === 2) this.current = this.openEntity(tag.name, attributes);
    else if (this.depth === 3 && this.current) this.addChild(this.current, tag.name, attributes);
  }

  private closeElement(): void {
    this.depth--;
    // Back at <osm>'s level: the entity element just closed is complete.
    if (this.depth !== 1 || this.current === null) return;
    this.entities.push(this.current);
    this.current = null;
  }

  private openEntity(name: string, attributes: Record<string, string>): OsmEntity | null {
    if (name === "bounds") {
      this.setBounds(attributes);
      return null;
    }
    if (name !== "node" && name !== "way" && name !== "relation") return null;
    // visible="false" only occurs in history files, where it marks a deletion.
    if (attributes["visible"] === "false") return null;
    if (name === "node" && this.options.skipNodes) return null;
    const id = this.integer(attributes, "id", name);
    const meta = this.metadata(attributes);
    if (name === "node") {
      return {
        type: "node",
        id,
        lon: toOsmPrecision(this.coordinate(attributes, "lon", id)),
        lat: toOsmPrecision(this.coordinate(attributes, "lat", id)),
        tags: NO_TAGS,
        ...meta,
      };
    }
    if (name === "way") return { type: "way", id, refs: [], tags: NO_TAGS, ...meta };
    return { type: "relation", id, members: [], tags: NO_TAGS, ...meta };
  }

  private addChild(entity: OsmEntity, name: string, attributes: Record<string, string>): void {
    if (name === "tag") {
      const key = attributes["k"];
      if (key === undefined) throw this.invalid(`<tag> without k in ${entity.type} ${entity.id}`);
      if (entity.tags === NO_TAGS) entity.tags = newTags();
      entity.tags[key] = attributes["v"] ?? "";
    } else if (name === "nd" && entity.type === "way") {
      (entity as OsmWay).refs.push(this.integer(attributes, "ref", "nd"));
    } else if (name === "member" && entity.type === "relation") {
      const type = attributes["type"];
      if (type !== "node" && type !== "way" && type !== "relation") {
        throw this.invalid(`member of relation ${entity.id} with type "${type ?? ""}"`);
      }
      (entity as OsmRelation).members.push({ type: type as OsmMemberType, ref: this.integer(attributes, "ref", "member"), role: attributes["role"] ?? "" });
    }
  }

  /** <bounds> carries the extract's box; a header was already emitted, so amend it. */
  private setBounds(attributes: Record<string, string>): void {
    const header = this.blocks.find((block) => block.kind === "header");
    const edges = ["minlon", "minlat", "maxlon", "maxlat"].map((name) => Number(attributes[name]));
    if (header?.kind === "header" && edges.every(Number.isFinite)) header.header.bbox = edges as [number, number, number, number];
  }

  private metadata(attributes: Record<string, string>): OsmMetadata {
    const optionalInteger = (name: string): number | null => {
      const text = attributes[name];
      if (text === undefined || text === "") return null;
      return this.integer(attributes, name, name);
    };
    const timestamp = attributes["timestamp"];
    const changeset = optionalInteger("changeset");
    const user = attributes["user"] || null;
    const uid = optionalInteger("uid");
    return {
      version: optionalInteger("version"),
      timestamp: timestamp ? this.parseTime(timestamp) : null,
      // Same normalisation as the PBF reader: stripped metadata is written as zeros.
      changeset: changeset === 0 ? null : changeset,
      uid: uid === 0 && user === null ? null : uid,
      user,
    };
  }

  private integer(attributes: Record<string, string>, name: string, element: string): number {
    const text = attributes[name];
    const value = Number(text);
    if (text === undefined || text === "" || !Number.isSafeInteger(value)) {
      throw this.invalid(`<${element}> with ${name}="${text ?? ""}" (an integer is required)`);
    }
    return value;
  }

  private coordinate(attributes: Record<string, string>, name: "lon" | "lat", id: number): number {
    const value = Number(attributes[name]);
    const limit = name === "lon" ? 180 : 90;
    if (attributes[name] === undefined || !Number.isFinite(value) || Math.abs(value) > limit) {
      throw this.invalid(`node ${id} with ${name}="${attributes[name] ?? ""}"`);
    }
    return value;
  }

  private parseTime(text: string): number {
    const ms = Date.parse(text);
    if (Number.isNaN(ms)) throw this.invalid(`timestamp "${text}" is not an ISO-8601 date`);
    return ms;
  }

  private invalid(problem: string): OsmImportError {
    return new OsmImportError(this.path, `invalid OSM XML at line ${this.parser.line}: ${problem}`);
  }
}
