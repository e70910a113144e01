/**
 * `basemodel replicate`: a PostGIS store imported from Monaco follows a replication server
 * through osm2pgsql-replication. The server is a folder of state files and gzipped diffs (the
 * mapathon fixtures, then one more) served over HTTP on loopback, as OSM's are.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { join, normalize } from "node:path";
import { gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { importOsm } from "../../src/server/fill/import.js";
import { EVERYWHERE } from "../../src/server/query/everywhere.js";
import { openStore } from "../../src/server/store/open.js";
import type { FeatureStore } from "../../src/server/store/store.js";
import { basemodel } from "./helpers.js";
import { freePort } from "../support/free-port.js";
import { MONACO, temporaryDirectory } from "../server/osm/helpers.js";
import { hasTool, postgresTemplateUrl } from "../support/requirements.js";
import { createDatabase, type TestDatabase } from "../support/services.js";

const template = postgresTemplateUrl();
const FIXTURES = join(import.meta.dirname, "../../fixtures/updates");

/** A replication folder's files for sequence `n`: NNN/NNN/NNN.state.txt and, after 0, its .osc.gz. */
function publish(root: string, sequence: number, timestamp: string, change?: string): void {
  const digits = String(sequence).padStart(9, "0");
  const folder = join(root, digits.slice(0, 3), digits.slice(3, 6));
  mkdirSync(folder, { recursive: true });
  const state = `sequenceNumber=${sequence}\ntimestamp=${timestamp.replace(/:/g, "\\:")}\n`;
  writeFileSync(join(folder, `${digits.slice(6)}.state.txt`), state);
  if (change !== undefined) writeFileSync(join(folder, `${digits.slice(6)}.osc.gz`), gzipSync(change));
  writeFileSync(join(root, "state.txt"), state);
}

/** Serves `root` read-only over HTTP on loopback. */
async function serveFolder(root: string): Promise<{ server: Server; url: string }> {
  const server = createServer((request, response) => {
    // The request's path as sent ("//state.txt" from a client that joins "/" and "/state.txt").
    const path = normalize(decodeURIComponent(request.url!.split("?")[0]!));
    try {
      response.end(readFileSync(join(root, path)));
    } catch {
      response.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as { port: number }).port}/` };
}

// Not spawnSync: the test's own HTTP server must go on answering while the CLI runs.
const replicate = (...args: string[]) => basemodel(["replicate", ...args]);

async function featureIds(store: FeatureStore): Promise<Set<number>> {
  const ids = new Set<number>();
  for (const table of ["nodes", "ways_poly"] as const) for await (const feature of store.candidates(table, EVERYWHERE)) ids.add(feature.osmId);
  return ids;
}

describe.runIf(template && hasTool(["osm2pgsql-replication"], "osm2pgsql"))("basemodel replicate (osm2pgsql-replication)", { timeout: 240_000 }, () => {
  let database: TestDatabase;
  let root: string;
  let served: { server: Server; url: string };

  beforeAll(async () => {
    database = await createDatabase(template!);
    await importOsm(MONACO, database.url);
    root = temporaryDirectory();
    // Sequence 0 is the extract's own time; then the two mapathon diffs.
    publish(root, 0, "2025-01-01T21:21:00Z");
    publish(root, 1, "2025-01-10T12:00:00Z", readFileSync(join(FIXTURES, "monaco-mapathon-1.osc"), "utf8"));
    publish(root, 2, "2025-01-12T10:00:00Z", readFileSync(join(FIXTURES, "monaco-mapathon-2.osc"), "utf8"));
    served = await serveFolder(root);
  });
  afterAll(async () => {
    served?.server.close();
    await database?.drop();
  });

  it("starts at the server's state for the store's replication timestamp and applies every diff since, with their quality checks", async () => {
    const run = await replicate("--db", database.url, "--server", served.url);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain(`Replicated ${database.url} from ${served.url}: sequence 0 to 2\n`);
    expect(run.stdout).toMatch(/^ {2}quality {5}\d+ checked, \d+ with findings/m);
    const store = await openStore(database.url);
    try {
      const ids = await featureIds(store);
      // The mapathon's buildings (ways 1200000001-5, some edited or deleted by the second diff) are in.
      expect([1_200_000_001, 1_200_000_002, 1_200_000_003].filter((id) => ids.has(id)).length).toBeGreaterThan(0);
      expect((await store.readMeta())?.replicationTimestamp).toBe("2025-01-12T09:05:00Z");
    } finally {
      await store.close();
    }
  });

  it("says so when the store is up to date; a new diff on the server is applied by the next run, from the server set up before", async () => {
    const current = await replicate("--db", database.url);
    expect(current.code, current.stderr).toBe(0);
    expect(current.stdout).toBe(`${database.url} is up to date with ${served.url} (sequence 2)\n`);

    publish(
      root,
      3,
      "2025-01-13T10:00:00Z",
      `<osmChange version="0.6"><create><node id="13000000777" version="1" timestamp="2025-01-13T09:59:00Z" changeset="160000009" uid="42" user="mapper" lat="43.7350" lon="7.4200"><tag k="amenity" v="bench"/></node></create></osmChange>`,
    );
    const next = await replicate("--db", database.url, "--once");
    expect(next.code, next.stderr).toBe(0);
    expect(next.stdout).toContain("sequence 2 to 3\n");
    const store = await openStore(database.url);
    try {
      expect((await featureIds(store)).has(13_000_000_777)).toBe(true);
      expect((await store.readMeta())?.replicationTimestamp).toBe("2025-01-13T09:59:00Z");
    } finally {
      await store.close();
    }
  });

  it("a server that cannot be reached, or is no replication server, is one line (exit 1)", async () => {
    const fresh = await createDatabase(template!);
    try {
      await importOsm(MONACO, fresh.url);
      const closed = `http://127.0.0.1:${await freePort()}/`;
      const unreachable = await replicate("--db", fresh.url, "--server", closed);
      expect(unreachable.code).toBe(1);
      expect(unreachable.stderr).toMatch(new RegExp(`^basemodel: cannot reach the replication server ${closed}: .*ECONNREFUSED.*\\n$`));
      const empty = await serveFolder(temporaryDirectory());
      try {
        const none = await replicate("--db", fresh.url, "--server", empty.url);
        expect(none.code).toBe(1);
        expect(none.stderr).toBe(`basemodel: ${empty.url} has no state.txt: is it a replication server?\n`);
      } finally {
        empty.server.close();
      }
    } finally {
      await fresh.drop();
    }
  });

  it("without osm2pgsql-replication on PATH, one line names the Debian package (exit 1)", async () => {
    const run = await basemodel(["replicate", "--db", database.url], { env: { PATH: "/nonexistent" } });
    expect(run.code).toBe(1);
    expect(run.stderr).toBe("basemodel: osm2pgsql-replication not found: install the Debian package osm2pgsql\n");
  });

  it("--db a SQLite file, or a database basemodel import did not fill, is a usage error (exit 2) saying what works", async () => {
    const file = await replicate("--db", join(temporaryDirectory(), "monaco.db"), "--server", served.url);
    expect(file.code).toBe(2);
    expect(file.stderr).toContain("replicate keeps a PostGIS store current (--db postgres://...); bring the SQLite file");
    expect(file.stderr).toContain("up to date with `basemodel update <change> --db");
    const empty = await createDatabase(template!);
    try {
      const other = await replicate("--db", empty.url, "--server", served.url);
      expect(other.code).toBe(2);
      expect(other.stderr).toContain("is not a feature store: load an OSM file into it with `basemodel import <file> --db");
    } finally {
      await empty.drop();
    }
  });
});
