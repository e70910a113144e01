/**
 * The PostGIS store while its PostgreSQL stops as in a restart or a failover (`pg_ctl stop -m
 * fast`: every session ends with 57P01 "terminating connection due to administrator command")
 * and starts again. A PostgreSQL of this file's own (own-services.ts), never the shared one.
 * A read under way fails with StoreUnavailable instead of ending the process; the routes answer
 * 503 saying the database cannot be reached; once it is back the pool connects again.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { importOsm } from "../../../src/server/fill/import.js";
import { EVERYWHERE } from "../../../src/server/query/everywhere.js";
import type { FeatureSnapshot } from "../../../src/server/store/store.js";
import { StoreUnavailable } from "../../../src/server/errors.js";
import { MONACO } from "../osm/helpers.js";
import { startServer, type RunningServer } from "../routes/helpers.js";
import { ownPostgres, type OwnService } from "../../support/own-services.js";
import { canStartServices } from "../../support/requirements.js";
import { createDatabase } from "../../support/services.js";
import { STORE_GETS, STORE_POSTS } from "./contract/requests.js";

/** The 503's detail: what failed, in one line, and that it passes. */
const UNREACHABLE = /^the database cannot be reached now \(PostgreSQL: [^\n]+\); try again in a moment$/;

describe.runIf(canStartServices())("the PostGIS store while PostgreSQL restarts", { timeout: 300_000 }, () => {
  let postgres: OwnService;
  let server: RunningServer;

  beforeAll(async () => {
    postgres = await ownPostgres();
    const { url } = await createDatabase(postgres.url);
    await importOsm(MONACO, url);
    server = await startServer(url);
  });

  /** Reads the first feature of a stream through a cursor, stops PostgreSQL, then reads on as an export writes: with pauses. */
  async function streamAcrossStop(reader: FeatureSnapshot): Promise<unknown> {
    // No limit: the rows come through a cursor, 1,000 at a time, the next batch asked for early.
    const features = reader.candidates("nodes", EVERYWHERE)[Symbol.asyncIterator]();
    await features.next();
    await postgres.stop();
    try {
      // The batch asked for early fails during a pause, while nobody awaits it.
      for (let read = 1; !(await features.next()).done; read++) if (read % 100 === 0) await new Promise((resolve) => setTimeout(resolve, 20));
      return "the stream ended without an error";
    } catch (error) {
      return error;
    } finally {
      await postgres.start();
    }
  }

  it("a stream from a snapshot (an export's) fails with StoreUnavailable; the next snapshot reads again", async () => {
    const snapshot = await server.store.snapshot();
    const failure = await streamAcrossStop(snapshot);
    await snapshot.close();
    expect(failure).toBeInstanceOf(StoreUnavailable);
    expect((failure as Error).message).toMatch(/^PostgreSQL: /);
    const again = await server.store.snapshot();
    expect(await again.countCandidates("nodes", EVERYWHERE)).toBeGreaterThan(3000);
    await again.close();
  });

  it("a stream from the pool fails with StoreUnavailable; the pool connects again", async () => {
    const failure = await streamAcrossStop(server.store);
    expect(failure).toBeInstanceOf(StoreUnavailable);
    expect(await server.store.countCandidates("nodes", EVERYWHERE)).toBeGreaterThan(3000);
  });

  it("every route that reads the store answers 503 while PostgreSQL is away, and 200 once it is back", async () => {
    const ask = () => Promise.all([...STORE_GETS.map((path) => server.get(path)), ...STORE_POSTS.map(([path, body]) => server.post(path, body))]);
    const names = [...STORE_GETS.map((path) => `GET ${path}`), ...STORE_POSTS.map(([path]) => `POST ${path}`)];
    // The places routes answer from a file of the package: they do not need the store.
    const fromTheStore = (name: string) => !name.includes("/countries/");
    await postgres.stop();
    try {
      const answers = await ask();
      for (const [index, answer] of answers.entries()) {
        const name = names[index]!;
        if (!fromTheStore(name)) continue;
        expect(answer.status, `${name}: ${answer.text.slice(0, 300)}`).toBe(503);
        expect(answer.body.detail, name).toMatch(UNREACHABLE);
      }
    } finally {
      await postgres.start();
    }
    for (const [index, answer] of (await ask()).entries()) expect(answer.status, `${names[index]}: ${answer.text.slice(0, 300)}`).toBe(200);
  });
});
