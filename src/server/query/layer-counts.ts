/** How many features of each tile layer an area holds: what the map's page shows before an export. */
import { KIND_TABLES, type AreaFilter } from "../../model/query.js";
import { layerTags, TILE_LAYERS, type TileLayerName } from "../../model/tile-layers.js";
import type { FeatureStore } from "../store/store.js";
import { countFeatures } from "./count.js";

/** Per layer, the features that meet its rule (at any zoom) and intersect the area exactly. */
export async function countLayers(store: Pick<FeatureStore, "candidates">, area: AreaFilter): Promise<Record<TileLayerName, number>> {
  const counts = {} as Record<TileLayerName, number>;
  for (const layer of TILE_LAYERS) {
    const tags = layerTags(layer);
    let count = 0;
    // A feature has one kind of geometry: the kinds' counts add up without counting one twice.
    for (const kind of layer.geometry) count += await countFeatures(store, { tables: KIND_TABLES[kind], area, tags, geometry: kind });
    counts[layer.name] = count;
  }
  return counts;
}
