/**
 * Reader for OSM change files (osmChange XML: replication diffs, API diff uploads), plain or
 * gzipped. Whether to gunzip is decided by the name, as for OSM XML: `.osc.gz` (any name
 * ending in `.gz`) is gunzipped, anything else (`.osc`, `.osm`, `.xml`) is read as XML text,
 * and the root element must be <osmChange>. A change file is at most a few tens of MB, so
 * the actions are returned all at once; the file is still decompressed as a stream.
 */
import { OsmXmlParser, parseWholeXmlFile } from "./xml.js";
import type { OsmEntity, OsmMetadata } from "../../model/osm.js";

/** A deleted object: the file gives its identity and metadata, never its geometry or tags. */
export interface OsmDeletion extends OsmMetadata {
  type: OsmEntity["type"];
  id: number;
}

export type ChangeAction =
  | { action: "create" | "modify"; entity: OsmEntity }
  | { action: "delete"; entity: OsmDeletion };

export interface OsmChange {
  /** In document order. */
  actions: ChangeAction[];
  /** The <osmChange generator> attribute, or null when absent. */
  generator: string | null;
}

export async function readOsmChange(path: string): Promise<OsmChange> {
  const parser = new OsmChangeParser(path);
  const actions = await parseWholeXmlFile(path, parser);
  return { actions, generator: parser.generator };
}

type ActionName = ChangeAction["action"];

const ACTIONS: ReadonlySet<string> = new Set<ActionName>(["create", "modify", "delete"]);
const ENTITY_TYPES: ReadonlySet<string> = new Set<OsmEntity["type"]>(["node", "way", "relation"]);

/** <osmChange> holds <create>, <modify> and <delete> blocks (any number, in any order) of entities. */
class OsmChangeParser extends OsmXmlParser<ChangeAction> {
  generator: string | null = null;
  private block: ActionName | null = null;
  private current: ChangeAction | null = null;

  constructor(path: string) {
    super(path, { root: "osmChange", name: "an OSM change file", shortName: "OSM change" });
  }

  protected override openRoot(attributes: Record<string, string>): void {
    this.generator = attributes["generator"] || null;
  }

  protected openElement(name: string, attributes: Record<string, string>, depth: number): void {
    if (depth === 2) {
      if (ENTITY_TYPES.has(name)) throw this.invalid(`<${name}> outside <create>, <modify> or <delete>`);
      this.block = ACTIONS.has(name) ? (name as ActionName) : null;
    } else if (depth === 3 && this.block !== null && ENTITY_TYPES.has(name)) {
      this.current = this.readAction(this.block, name as OsmEntity["type"], attributes);
    } else if (depth === 4 && this.current !== null && this.current.action !== "delete") {
      // A deletion's children, if a writer includes any, describe what is gone: not kept.
      this.addEntityChild(this.current.entity, name, attributes);
    }
  }

  protected closeElement(depth: number): void {
    if (depth === 2) this.block = null;
    if (depth !== 3 || this.current === null) return;
    this.emit(this.current);
    this.current = null;
  }

  private readAction(action: ActionName, type: OsmEntity["type"], attributes: Record<string, string>): ChangeAction {
    if (action !== "delete") return { action, entity: this.readEntity(type, attributes) };
    const id = this.osmId(attributes, "id", `<${type}>`);
    return { action, entity: { type, id, ...this.readMetadata(attributes, `${type} ${id}`) } };
  }
}
