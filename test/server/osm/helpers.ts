import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { afterFile } from "../../support/cleanup.js";
import { sqliteStoreFactory } from "../../../src/server/store/sqlite/store.js";
import { FEATURE_TABLES } from "../../../src/model/features.js";
import type { FeatureTable, OsmFeature } from "../../../src/model/features.js";

const here = dirname(fileURLToPath(import.meta.url));

export const fixture = (name: string): string => resolve(here, "../../../fixtures/osm", name);

/** The real extracts (ODbL, see fixtures/osm/ATTRIBUTION.md). */
export const MONACO = fixture("monaco-2025-01-01.osm.pbf");
export const ANDORRA = fixture("andorra-2021-04-14.osm.pbf");

/** A fresh temporary directory, removed after the test file. */
export function temporaryDirectory(): string {
  const directory = mkdtempSync(join(tmpdir(), "basemodel-osm-"));
  afterFile(() => rmSync(directory, { recursive: true, force: true }));
  return directory;
}

const WORLD = { minX: -180, minY: -90, maxX: 180, maxY: 90 };

/** Every feature of a store, per table, keyed by OSM id. */
export async function readAllFeatures(dbPath: string): Promise<Record<FeatureTable, Map<number, OsmFeature>>> {
  const store = await sqliteStoreFactory.open(dbPath);
  try {
    const entries = await Promise.all(
      FEATURE_TABLES.map(async (table) => {
        const rows = await store.queryBBox(table, WORLD);
        return [table, new Map(rows.map((row) => [row.osmId, row]))] as const;
      }),
    );
    return Object.fromEntries(entries) as Record<FeatureTable, Map<number, OsmFeature>>;
  } finally {
    await store.close();
  }
}
