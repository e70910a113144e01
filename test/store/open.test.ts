import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { EVERYWHERE } from "../../src/query/everywhere.js";
import { openStore, storeFactory } from "../../src/store/open.js";

const directory = mkdtempSync(join(tmpdir(), "basemodel-open-"));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

describe("storeFactory", () => {
  it("takes a file path for the embedded store, which it creates and opens", async () => {
    const path = join(directory, "a.db");
    const factory = await storeFactory(path);
    expect(factory.kind).toBe("embedded");
    const created = await factory.create(path);
    const writer = created.writer();
    await writer.insert("nodes", { osmId: 1, version: 1, changeset: null, timestamp: null, uid: null, user: null, tags: { amenity: "bench" }, geometry: { type: "Point", coordinates: [1, 2] } });
    await writer.finish({ replicationTimestamp: "2025-01-01T00:00:00Z", statistics: {} });
    await created.close();
    const store = await openStore(path);
    try {
      const ids: number[] = [];
      for await (const feature of store.candidates("nodes", EVERYWHERE)) ids.push(feature.osmId);
      expect(ids).toEqual([1]);
      expect((await store.readMeta())?.replicationTimestamp).toBe("2025-01-01T00:00:00Z");
    } finally {
      await store.close();
    }
  });
});
