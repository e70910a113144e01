import type { OsmFeature } from "../../src/store/store.js";

/** Features as a store read them, without the stored form (test/store/sqlite.test.ts checks that on its own). */
export const withoutStored = (features: readonly OsmFeature[]): OsmFeature[] => features.map(({ stored: _stored, ...feature }) => feature);
