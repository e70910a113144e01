/**
 * What a layer of the demo town is given to build its features with. Each layer draws from
 * its own random stream (seeded from its name), so changing or adding a layer leaves the
 * shapes and tags of every other layer as they were; ids follow the order of the layers.
 */
import type { Geometry } from "../../model/geojson.js";
import type { FeatureTable, OsmFeature } from "../../model/features.js";
import { lastEdit } from "./history.js";
import type { DemoChangeset } from "./history.js";
import { createRandom } from "./random.js";
import type { Random } from "./random.js";

export interface DemoFeature {
  table: FeatureTable;
  feature: OsmFeature;
}

export interface DemoContext {
  random: Random;
  /** A feature with the next id of its OSM type and a plausible last edit. */
  feature(table: FeatureTable, tags: Record<string, string>, geometry: Geometry): DemoFeature;
}

export interface Layer {
  name: string;
  build(context: DemoContext): DemoFeature[];
}

/** The id ranges tell the OSM type at a glance, and no real object is that young. */
const FIRST_ID = { node: 1_000_001, way: 2_000_001, relation: 3_000_001 };
const OSM_TYPE: Record<FeatureTable, keyof typeof FIRST_ID> = { nodes: "node", ways_line: "way", ways_poly: "way", relations: "relation" };

/** FNV-1a: a stable seed from a layer's name. */
export function seedOf(name: string, seed: number): number {
  let hash = 0x811c9dc5 ^ seed;
  for (let i = 0; i < name.length; i++) hash = Math.imul(hash ^ name.charCodeAt(i), 0x01000193);
  return hash >>> 0;
}

export function buildLayers(layers: readonly Layer[], changesets: readonly DemoChangeset[], seed: number): DemoFeature[] {
  const nextId = { ...FIRST_ID };
  return layers.flatMap((layer) => {
    const random = createRandom(seedOf(layer.name, seed));
    return layer.build({
      random,
      feature(table, tags, geometry) {
        const type = OSM_TYPE[table];
        const osmId = nextId[type]++;
        return { table, feature: { osmId, ...lastEdit(random, changesets), tags, geometry } };
      },
    });
  });
}
