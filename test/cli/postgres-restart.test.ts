/**
 * PostgreSQL stopped mid-export as in a restart or a failover (`pg_ctl stop -m fast`: its
 * sessions end with 57P01), then started again, under each process that runs exports: `serve
 * --db postgres://` with its embedded queue, and `basemodel worker --queue redis://`. The process
 * lives on (it once died of an unhandled error event), the attempt fails and the task runs again
 * once the database is back, and no work folder stays behind. On a PostgreSQL and a Redis of
 * this file's own (own-services.ts): the shared ones serve other tests meanwhile.
 */
import { readdirSync } from "node:fs";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { MONACO } from "../server/osm/helpers.js";
import { ownPostgres, ownRedis, type OwnService } from "../support/own-services.js";
import { canStartServices } from "../support/requirements.js";
import { createDatabase } from "../support/services.js";
import { MONACO_AREA, basemodel, exportStatus as status, postExport as post, scratchDir, startServe, startWorker, untilExport as until, untilLine, type ServeProcess } from "./helpers.js";

type Running = Omit<ServeProcess, "url">;

describe.runIf(canStartServices())("an export while PostgreSQL restarts", { timeout: 600_000 }, () => {
  let postgres: OwnService;
  let redis: OwnService;
  let database: string;
  const running: Running[] = [];
  afterEach(async () => {
    for (const process of running) process.child.kill("SIGKILL");
    await Promise.all(running.splice(0).map((process) => process.exited));
  });

  beforeAll(async () => {
    [postgres, redis] = await Promise.all([ownPostgres(), ownRedis()]);
    database = (await createDatabase(postgres.url)).url;
    const imported = await basemodel(["import", MONACO, "--db", database]);
    expect(imported.code, imported.stderr).toBe(0);
  });

  /**
   * Stops PostgreSQL while `runner` exports all of Monaco for `server`, checks that the runner
   * lives on and says why the attempt failed, runs `whileAway`, and starts PostgreSQL again:
   * the task succeeds.
   */
  async function exportAcrossRestart(server: ServeProcess, runner: Running, exportsDir: string, whileAway = async () => {}): Promise<void> {
    const id = await post(server, { geometry: MONACO_AREA, outputType: "kml" });
    const caught = await until(server, id, (body) => body.status !== "PENDING" && (body.progress >= 5 || body.status !== "STARTED"));
    expect(caught, "the export finished before PostgreSQL could be stopped").toMatchObject({ status: "STARTED" });
    await postgres.stop();
    try {
      await untilLine(runner, new RegExp(`export ${id} failed \\(attempt 1\\): PostgreSQL: `));
      expect(runner.child.exitCode, runner.output().stderr).toBeNull();
      expect(await status(server, id)).toMatchObject({ status: expect.stringMatching(/^(PENDING|STARTED)$/) });
      await whileAway();
    } finally {
      await postgres.start();
    }
    expect(await until(server, id, (body) => body.status === "SUCCESS" || body.status === "FAILURE")).toMatchObject({ status: "SUCCESS", progress: 100 });
    expect(runner.output().stderr).toMatch(new RegExp(`export ${id} started \\(attempt [23]\\)`));
    expect(runner.output().stderr).toMatch(new RegExp(`export ${id} finished in `));
    expect(readdirSync(exportsDir).filter((name) => name.endsWith(".work"))).toEqual([]);
    expect(runner.child.exitCode).toBeNull();
  }

  it("serve --db postgres:// with its embedded queue: the process lives on, answers 503 meanwhile, and the export runs again", async () => {
    const exportsDir = scratchDir();
    const server = await startServe(["--db", database, "--port", "0", "--exports", exportsDir]);
    running.push(server);
    await exportAcrossRestart(server, server, exportsDir, async () => {
      const answer = await fetch(`${server.url}/v1/status/`);
      expect(answer.status).toBe(503);
      expect(((await answer.json()) as { detail: string }).detail).toMatch(/^the database cannot be reached now \(PostgreSQL: /);
    });
    // The pool connects again: the routes read the store as before.
    expect((await fetch(`${server.url}/v1/status/`)).status).toBe(200);
  });

  it("basemodel worker --queue redis://: the worker lives on and runs the export again", async () => {
    const exportsDir = scratchDir();
    const server = await startServe(["--queue", redis.url, "--port", "0", "--exports", exportsDir]);
    running.push(server);
    const worker = await startWorker(["--queue", redis.url, "--db", database, "--exports", exportsDir, "--concurrency", "1"]);
    running.push(worker);
    await exportAcrossRestart(server, worker, exportsDir);
    worker.child.kill("SIGTERM");
    expect(await worker.exited).toBe(0);
  });
});
