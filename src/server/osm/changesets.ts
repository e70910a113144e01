/**
 * Reader for changeset files as the OSM API, the planet changeset dumps and the changeset
 * replication write them: `<osm>` holding `<changeset>` elements with `<tag>` children
 * (`<discussion>` children are skipped). `.bz2` files are bunzipped, `.gz` files gunzipped,
 * anything else is read as XML text. All changesets are returned at once, so a planet dump
 * should be cut down first (e.g. `osmium changeset-filter`).
 */
import { bunzip2File } from "./bzip2.js";
import { changesetHashtags } from "./hashtags.js";
import { formatOsmTimestamp, newTags } from "../../model/osm.js";
import type { OsmTags } from "../../model/osm.js";
import { OsmXmlParser, parseWholeXmlFile } from "./xml.js";
import type { Changeset } from "../../model/features.js";

/** A changeset as the store keeps it (hashtags by the rules of hashtags.ts), with its comment and every tag. */
export interface ChangesetRecord extends Changeset {
  comment: string | null;
  tags: OsmTags;
}

export async function readChangesets(path: string): Promise<ChangesetRecord[]> {
  const parser = new ChangesetParser(path);
  if (!path.toLowerCase().endsWith(".bz2")) return parseWholeXmlFile(path, parser);
  await bunzip2File(path, (chunk) => parser.write(chunk));
  parser.close();
  return parser.take();
}

type Attributes = Record<string, string>;

const BBOX_ATTRIBUTES = ["min_lon", "min_lat", "max_lon", "max_lat"] as const;

class ChangesetParser extends OsmXmlParser<ChangesetRecord> {
  private current: ChangesetRecord | null = null;

  constructor(path: string) {
    super(path, { root: "osm", name: "an OSM changeset file", shortName: "OSM changeset file" });
  }

  protected openElement(name: string, attributes: Attributes, depth: number): void {
    if (depth === 3 && name === "tag" && this.current) this.addTag(this.current.tags, attributes);
    if (depth !== 2) return;
    if (name === "node" || name === "way" || name === "relation") {
      throw this.invalid(`<${name}> where a <changeset> belongs (this looks like a file of OSM data)`);
    }
    if (name === "changeset") this.current = this.readChangeset(attributes);
  }

  protected closeElement(depth: number): void {
    const changeset = this.current;
    if (depth !== 2 || changeset === null) return;
    changeset.editor = changeset.tags["created_by"] ?? null;
    changeset.comment = changeset.tags["comment"] ?? null;
    changeset.hashtags = changesetHashtags(changeset.tags);
    this.emit(changeset);
    this.current = null;
  }

  /** The changeset without what its tags say, which closeElement() adds. */
  private readChangeset(attributes: Attributes): ChangesetRecord {
    const id = this.osmId(attributes, "id", "<changeset>");
    const owner = `changeset ${id}`;
    const hasBBox = BBOX_ATTRIBUTES.some((name) => attributes[name] !== undefined);
    return {
      id,
      createdAt: this.timestamp(attributes, "created_at", owner),
      closedAt: this.timestamp(attributes, "closed_at", owner),
      uid: this.optionalInteger(attributes, "uid", owner),
      user: attributes["user"] || null,
      editor: null,
      hashtags: [],
      comment: null,
      bbox: hasBBox ? (BBOX_ATTRIBUTES.map((name) => this.coordinate(attributes, name, owner)) as [number, number, number, number]) : null,
      tags: newTags(),
    };
  }

  private timestamp(attributes: Attributes, name: string, owner: string): string | null {
    const ms = this.optionalTime(attributes, name, owner);
    return ms === null ? null : formatOsmTimestamp(ms);
  }
}
