/**
 * Node locations and member way positions for rebuilding features, read from the store inside
 * the update's transaction (so they include the change's own objects). Loaded up front, since
 * the store is asynchronous and the assembler is not.
 */
import type { LocationSource } from "../osm/assemble.js";
import type { OsmEntity } from "../../model/osm.js";
import type { Position } from "../../model/geojson.js";
import type { StoreUpdate } from "../store/store.js";

export class StoreLocations implements LocationSource {
  private constructor(
    private readonly nodes: ReadonlyMap<number, Position | null>,
    private readonly ways: ReadonlyMap<number, number[] | null>,
  ) {}

  static async load(update: StoreUpdate, entities: readonly OsmEntity[]): Promise<StoreLocations> {
    const memberWays = [...new Set(entities.flatMap((entity) => (entity.type === "relation" ? entity.members.filter((member) => member.type === "way").map((member) => member.ref) : [])))];
    const wayRaws = await update.getRaws("way", memberWays);
    const ways = new Map<number, number[] | null>(memberWays.map((id) => [id, wayRaws.get(id)?.refs ?? null]));
    const wanted = [...new Set([...entities.flatMap((entity) => (entity.type === "way" ? entity.refs : [])), ...[...ways.values()].flatMap((refs) => refs ?? [])])];
    const nodeRaws = await update.getRaws("node", wanted);
    const nodes = new Map<number, Position | null>();
    for (const id of wanted) {
      const node = nodeRaws.get(id);
      nodes.set(id, node === undefined ? null : [node.lon, node.lat]);
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
