/**
 * The demo dataset: a small made-up town the project generates itself, so that the server
 * works with no download. Deterministic: every run gives the same features, byte for byte.
 * See docs/import.md for what is in it and where it lies.
 */
import { rm } from "node:fs/promises";
import { sqliteStoreFactory } from "../store/sqlite.js";
import { FEATURE_TABLES } from "../store/store.js";
import type { FeatureTable, FeatureWriter } from "../store/store.js";
import { buildLayers } from "./context.js";
import type { DemoFeature, Layer } from "./context.js";
import { createChangesets, DEMO_REPLICATION_TIMESTAMP } from "./history.js";
import { civic } from "./layers/civic.js";
import { houses } from "./layers/houses.js";
import { pois } from "./layers/pois.js";
import { busRoute, roads } from "./layers/roads.js";
import { createRandom } from "./random.js";
import { TOWN_NAME } from "./town.js";

export type { DemoFeature } from "./context.js";
export { DEMO_REPLICATION_TIMESTAMP } from "./history.js";
export { DEMO_BBOX, DEMO_CENTRE, DEMO_TEST_AREA, TOWN_NAME } from "./town.js";

const SEED = 2025;
const CHANGESETS = 60;

/** New layers go at the end: the ids of the features already there stay the same. */
const LAYERS: readonly Layer[] = [roads, houses, civic, pois, busRoute];

/** Every feature of the demo town, in insertion order. */
export function demoFeatures(): DemoFeature[] {
  const changesets = createChangesets(createRandom(SEED), CHANGESETS);
  return buildLayers(LAYERS, changesets, SEED);
}

/** Loads the demo town through a writer and finishes it (or aborts it on failure). */
export async function writeDemo(writer: FeatureWriter): Promise<void> {
  const counts = Object.fromEntries(FEATURE_TABLES.map((table) => [table, 0])) as Record<FeatureTable, number>;
  try {
    for (const { table, feature } of demoFeatures()) {
      await writer.insert(table, feature);
      counts[table]++;
    }
    // No import time or duration here: they would make every demo store different.
    await writer.finish({ replicationTimestamp: DEMO_REPLICATION_TIMESTAMP, statistics: { source: `${TOWN_NAME} (generated demo data)`, seed: SEED, counts } });
  } catch (error) {
    await writer.abort();
    throw error;
  }
}

/** Creates the SQLite feature store of the demo town at `path`, which must not exist yet. */
export async function createDemoStore(path: string): Promise<void> {
  const store = await sqliteStoreFactory.create(path);
  try {
    await writeDemo(store.writer());
    await store.close();
  } catch (error) {
    await store.close().catch(() => undefined);
    await rm(path, { force: true });
    throw error;
  }
}
