import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sqliteStoreFactory } from "../../../src/server/store/sqlite/store.js";
import { monacoStorePath, startServer, wireValidator, type RunningServer } from "./helpers.js";

describe("GET /latest/status/ and /v1/status/", () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer(await monacoStorePath());
  });

  it("answers exactly {lastUpdated} with the replication timestamp of the import", async () => {
    const meta = await server.store.readMeta();
    for (const prefix of ["/latest", "/v1"]) {
      const { status, body } = await server.get(`${prefix}/status/`);
      expect(status).toBe(200);
      expect(Object.keys(body)).toEqual(["lastUpdated"]);
      expect(body.lastUpdated).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\+00:00$/);
      expect(new Date(body.lastUpdated.replace(" ", "T")).toISOString()).toBe(new Date(meta!.replicationTimestamp!).toISOString());
      expect(wireValidator("StatusResponse")(body)).toBe(true);
    }
  });

  it("answers 404 with a detail for a route that does not exist", async () => {
    const { status, body } = await server.get("/latest/nothing/");
    expect(status).toBe(404);
    expect(body.detail).toContain("/latest/nothing/");
  });
});

describe("GET /latest/status/ on a store with no data", () => {
  const directory = mkdtempSync(join(tmpdir(), "basemodel-empty-"));
  afterAll(() => rmSync(directory, { recursive: true, force: true }));
  it("is a 503 that says no data was imported", async () => {
    const path = join(directory, "empty.db");
    await (await sqliteStoreFactory.create(path)).close();
    const server = await startServer(path);
    const { status, body } = await server.get("/latest/status/");
    expect(status).toBe(503);
    expect(body.detail).toMatch(/no data/);
  });
});
