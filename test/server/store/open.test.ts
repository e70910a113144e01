import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { EVERYWHERE } from "../../../src/server/query/everywhere.js";
import { embeddedStoreFactory, openStore, storeFactory } from "../../../src/server/store/open.js";
import { isDatabaseUrl, shownLocation } from "../../../src/server/store/location.js";
import { connectionError } from "../../../src/server/store/postgis/connection.js";

const directory = mkdtempSync(join(tmpdir(), "basemodel-open-"));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

describe("storeFactory", () => {
  it("takes a file path for the embedded store, which it creates and opens", async () => {
    const path = join(directory, "a.db");
    expect(storeFactory(path).kind).toBe("embedded");
    const factory = embeddedStoreFactory(path, "this test");
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

describe("a postgres:// or postgresql:// URL names a PostGIS store", () => {
  it("chooses the store by the location's scheme", async () => {
    for (const url of ["postgres://u@h:5432/db", "postgresql://u@h/db", "POSTGRES://h/db"]) {
      expect(isDatabaseUrl(url)).toBe(true);
      expect(storeFactory(url).kind).toBe("osm2pgsql");
    }
    for (const path of ["a.db", "/data/postgres.db", "postgres:/not-a-url", "./postgres://x"]) expect(isDatabaseUrl(path)).toBe(false);
    expect(() => embeddedStoreFactory("postgres://u@h/db", "the demo town")).toThrow("the demo town needs a file for --db, not a database URL");
  });

  it("never shows a password", () => {
    expect(shownLocation("postgres://me:secret@db.example.org:5432/osm")).toBe("postgres://me:***@db.example.org:5432/osm");
    expect(shownLocation("postgres://me@db.example.org/osm")).toBe("postgres://me@db.example.org/osm");
    expect(shownLocation("store.db")).toBe("store.db");
  });
});

describe("what stops a PostGIS connection, in one line", () => {
  // The test server trusts every local login (scripts/test-services), so a refused password is
  // PostgreSQL's own error code here; the other reasons are met for real in test/server/store/postgis.test.ts.
  it("names a refused password and a refused user without the password", () => {
    const url = "postgres://me:secret@db.example.org/osm";
    expect(connectionError(url, Object.assign(new Error('password authentication failed for user "me"'), { code: "28P01" })).message).toBe(
      "cannot connect to postgres://me:***@db.example.org/osm: the password was refused",
    );
    expect(connectionError(url, Object.assign(new Error("no pg_hba.conf entry"), { code: "28000" })).message).toBe("cannot connect to postgres://me:***@db.example.org/osm: the server refuses this user");
    expect(connectionError(url, new Error("something else")).message).toBe("cannot use postgres://me:***@db.example.org/osm: something else");
  });
});
