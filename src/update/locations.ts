/**
 * Node locations and member way positions for rebuilding features, read from the store inside
 * the update's transaction (so they include the change's own objects). Loaded up front, since
 * the store is asynchronous and the assembler is not.
 */
import type { LocationSource } from "../osm/assemble.js";
import type { OsmEntity } from "../osm/types.js";
import type { Position } from "../store/geojson.js";
import type { StoreUpdate } from "../store/store.js";

export class StoreLocations implements LocationSource {
  private constructor(
    private readonly nodes: ReadonlyMap<number, Position | null>,
    private readonly ways: ReadonlyMap<number, number[] | null>,
  ) {}

  static async load(update: StoreUpdate, entities: readonly OsmEntity[]): Promise<StoreLocations> {
    const ways = new Map<number, number[] | null>();
    for (const entity of entities) {
      if (entity.type !== "relation") continue;
      for (const member of entity.members) {
        if (member.type !== "way" || ways.has(member.ref)) continue;
        ways.set(member.ref, (await update.getRaw("way", member.ref))?.refs ?? null);
      }
    }
    const nodes = new Map<number, Position | null>();
    const wanted = [...entities.flatMap((entity) => (entity.type === "way" ? entity.refs : [])), ...[...ways.values()].flatMap((refs) => refs ?? [])];
    for (const id of wanted) {
      if (nodes.has(id)) continue;
      const node = await update.getRaw("node", id);
      nodes.set(id, node === null ? null : [node.lon, node.lat]);
    }
    return new StoreLocations(nodes, ways);
  }

  node(id: number): Position | null {
    return this.nodes.get(id) ?? null;
  }

  memberWay(id: number): Position[] | null {
    const refs = this.ways.get(id);
    if (refs === undefined || refs === null) return null;
    return refs.flatMap((ref) => {
      const position = this.node(ref);
      return position === null ? [] : [position];
    });
  }
}
