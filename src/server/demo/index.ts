/**
 * The demo dataset: a small made-up town the project generates itself, so that the server
 * works with no download. Deterministic: every run gives the same features, byte for byte.
 * See docs/import.md for what is in it and where it lies.
 */
import { rm } from "node:fs/promises";
import { embeddedStoreFactory } from "../store/open.js";
import { FEATURE_TABLES } from "../../model/features.js";
import type { Changeset, FeatureTable } from "../../model/features.js";
import type { FeatureWriter } from "../store/store.js";
import { buildLayers } from "./context.js";
import type { DemoFeature, Layer } from "./context.js";
import { changesetRecords, createChangesets, DEMO_REPLICATION_TIMESTAMP } from "./history.js";
import { civic } from "./layers/civic.js";
import { houses } from "./layers/houses.js";
import { pois } from "./layers/pois.js";
import { problems } from "./layers/problems.js";
import { busRoute, roads } from "./layers/roads.js";
import { demoFindings } from "./quality.js";
import { createRandom } from "./random.js";
import { TOWN_NAME } from "./town.js";

export type { DemoFeature } from "./context.js";
export { DEMO_REPLICATION_TIMESTAMP } from "./history.js";
export { DEMO_BBOX, DEMO_CENTRE, DEMO_TEST_AREA, TOWN_NAME } from "./town.js";

const SEED = 2025;
const CHANGESETS = 60;

/** New layers go at the end: the ids of the features already there stay the same. */
const LAYERS: readonly Layer[] = [roads, houses, civic, pois, busRoute, problems];

export interface DemoTown {
  /** In insertion order. */
  features: DemoFeature[];
  /** As the store keeps them; every feature's is among them. */
  changesets: Changeset[];
}

/** Every feature of the demo town, and the changesets of their last edits. */
export function demoTown(): DemoTown {
  const changesets = createChangesets(createRandom(SEED), CHANGESETS);
  const features = buildLayers(LAYERS, changesets, SEED);
  return { features, changesets: changesetRecords(changesets, features.map(({ feature }) => feature)) };
}

/** Loads the demo town, its changesets and its data quality findings through a writer and finishes it (or aborts it on failure). */
export async function writeDemo(writer: FeatureWriter): Promise<void> {
  const counts = Object.fromEntries(FEATURE_TABLES.map((table) => [table, 0])) as Record<FeatureTable, number>;
  try {
    const { features, changesets } = demoTown();
    for (const { table, feature } of features) {
      await writer.insert(table, feature);
      counts[table]++;
    }
    for (const changeset of changesets) await writer.insertChangeset(changeset);
    for (const { found, findings } of await demoFindings(features)) await writer.setFindings(found, findings);
    // No import time or duration here: they would make every demo store different.
    await writer.finish({ replicationTimestamp: DEMO_REPLICATION_TIMESTAMP, statistics: { source: `${TOWN_NAME} (generated demo data)`, seed: SEED, counts } });
  } catch (error) {
    await writer.abort();
    throw error;
  }
}

/** Creates the feature store of the demo town in the file `path`, which must not exist yet. */
export async function createDemoStore(path: string): Promise<void> {
  const store = await embeddedStoreFactory(path, "the demo town").create(path);
  try {
    await writeDemo(store.writer());
    await store.close();
  } catch (error) {
    await store.close().catch(() => undefined);
    await rm(path, { force: true });
    throw error;
  }
}
