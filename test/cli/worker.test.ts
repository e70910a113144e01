/**
 * `basemodel serve --queue` and `basemodel worker` as real processes on a real Redis: exports
 * requested over HTTP run in the workers, a worker SIGKILLed mid-export has its task finished
 * by another, and SIGTERM gives a running task back without using an attempt.
 */
import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { Redis } from "ioredis";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import type { ExportHistory, TaskStatus } from "../../src/server/api/index.js";
import { exportResultOf } from "../server/routes/exports.js";
import { monacoStorePath } from "../server/routes/helpers.js";
import { MONACO } from "../server/osm/helpers.js";
import { postgresTemplateUrl, redisUrl } from "../support/requirements.js";
import { freshDatabases } from "../support/services.js";
import { freePort } from "../support/free-port.js";
import { MONACO_AREA, basemodel, exportStatus as status, postExport as post, scratchDir, startServe, startWorker, untilExport as until, untilLine, withoutPackages, type ServeProcess } from "./helpers.js";

describe("basemodel worker and serve --queue: bad input is one line", () => {
  it.each([
    [["worker", "--db", "x.db", "--exports", "e"], "error: required option '--queue <url>' not specified"],
    [["worker", "--queue", "redis://127.0.0.1:6379", "--exports", "e"], "error: required option '--db <path>' not specified"],
    [["worker", "--queue", "redis://127.0.0.1:6379", "--db", "x.db"], "error: required option '--exports <dir>' not specified"],
    [["worker", "--queue", "http://127.0.0.1:6379", "--db", "x.db", "--exports", "e"], `error: option '--queue <url>' argument 'http://127.0.0.1:6379' is invalid. expected a Redis address such as redis://127.0.0.1:6379; found "http://127.0.0.1:6379"`],
    [["serve", "--queue", "127.0.0.1:6379"], `error: option '--queue <url>' argument '127.0.0.1:6379' is invalid. expected a Redis address such as redis://127.0.0.1:6379; found "127.0.0.1:6379"`],
    [["worker", "--queue", "redis://127.0.0.1:6379", "--db", "x.db", "--exports", "e", "--concurrency", "0"], "error: option '--concurrency <n>' argument '0' is invalid. expected an integer of at least 1"],
    [["worker", "--queue", "redis://127.0.0.1:6379", "--db", "x.db", "--exports", "e", "--concurrency", "two"], "error: option '--concurrency <n>' argument 'two' is invalid. expected an integer of at least 1"],
  ])("basemodel %j", async (args, message) => {
    const run = await basemodel(args);
    expect(run.code).toBe(2);
    expect(run.stderr.split("\n")[0]).toBe(message);
    expect(run.stdout).toBe("");
  });

  it("a worker on a PostGIS store without pg installed says to install it, in one line, before it reaches for anything", async () => {
    const run = await basemodel(["worker", "--queue", "redis://127.0.0.1:1", "--db", "postgres://nobody@127.0.0.1:1/none", "--exports", scratchDir()], withoutPackages(["pg"]));
    expect(run.stderr).toBe("basemodel: worker needs the optional dependency pg: run `npm install pg@8`\n");
    expect(run.code).toBe(2);
    expect(run.stdout).toBe("");
  });

  it("a Redis that cannot be reached is one line and exit code 2, for the worker and for serve", async () => {
    const url = `redis://127.0.0.1:${await freePort()}`;
    const exports = scratchDir();
    for (const args of [["worker", "--queue", url, "--db", await monacoStorePath(), "--exports", exports], ["serve", "--queue", url, "--port", "0", "--exports", exports]]) {
      const run = await basemodel(args);
      expect(run.code).toBe(2);
      expect(run.stderr).toMatch(new RegExp(`^basemodel: cannot reach Redis at ${url}: connect ECONNREFUSED 127\\.0\\.0\\.1:\\d+\\n$`));
    }
  });

  it("a Redis password never shows in what serve and the worker print", async () => {
    const port = await freePort();
    const run = await basemodel(["worker", "--queue", `redis://basemodel:s3cret@127.0.0.1:${port}`, "--db", await monacoStorePath(), "--exports", scratchDir()]);
    expect(run.stderr).toContain(`cannot reach Redis at redis://basemodel:***@127.0.0.1:${port}:`);
    expect(run.stderr + run.stdout).not.toContain("s3cret");
  });
});

const REDIS = redisUrl();

describe.skipIf(REDIS === undefined)("basemodel serve --queue with basemodel worker", { timeout: 600_000 }, () => {
  // A database of the Redis of its own (the path of the URL): the CLI's queue name is fixed.
  const queueUrl = `${REDIS}/11`;
  const flush = async () => {
    const redis = new Redis(queueUrl);
    await redis.flushdb();
    await redis.quit();
  };
  beforeAll(flush);
  const exportsDir = scratchDir();
  // Each test's processes stop after it, even when it failed half-way, and its tasks are forgotten.
  const running: Array<{ child: { kill(signal: NodeJS.Signals): unknown }; exited: Promise<unknown> }> = [];
  afterEach(async () => {
    for (const process of running) process.child.kill("SIGKILL");
    await Promise.all(running.splice(0).map((process) => process.exited));
    await flush();
  });
  const serve = async (...args: string[]) => {
    const server = await startServe(["--queue", queueUrl, "--port", "0", "--exports", exportsDir, ...args]);
    running.push(server);
    return server;
  };
  const worker = async (db?: string) => {
    const started = await startWorker(["--queue", queueUrl, "--db", db ?? (await monacoStorePath()), "--exports", exportsDir, "--concurrency", "1"]);
    running.push(started);
    return started;
  };

  const finished = (body: TaskStatus) => body.status === "SUCCESS" || body.status === "FAILURE";

  it("the API process runs no export: a worker runs it, and the zip downloads; also through --processes 2", async () => {
    const server = await serve();
    expect(server.output().stdout).toContain(`run by basemodel worker from ${queueUrl}`);
    const id = await post(server, { geometry: MONACO_AREA, fileName: "queued" });
    // No worker yet: the task waits.
    expect(await status(server, id)).toMatchObject({ id, status: "PENDING" });
    const first = await worker();
    expect(first.output().stdout).toContain(`basemodel worker: exports from ${queueUrl}, 1 at a time`);
    const done = await until(server, id, finished);
    expect(done).toMatchObject({ id, status: "SUCCESS", progress: 100 });
    await untilLine(first, new RegExp(`export ${id} started \\(attempt 1\\)`));
    await untilLine(first, new RegExp(`export ${id} finished in [\\d.]+ s: `));
    const zip = join(scratchDir(), "queued.zip");
    const download = await fetch(exportResultOf(done).download_url);
    expect(download.status).toBe(200);
    writeFileSync(zip, Buffer.from(await download.arrayBuffer()));
    execFileSync("python3", ["-c", "import sys, zipfile; z = zipfile.ZipFile(sys.argv[1]); assert z.testzip() is None; assert 'queued.geojson' in z.namelist()", zip]);

    const cluster = await serve("--processes", "2");
    const again = await post(cluster, { geometry: MONACO_AREA, fileName: "clustered", outputType: "csv" });
    expect(await until(cluster, again, finished)).toMatchObject({ status: "SUCCESS" });
    // The answers are the same wherever asked (but for the server's own address in the URLs).
    const withoutAddress = async (asked: ServeProcess) => JSON.parse(JSON.stringify(await status(asked, again)).replaceAll(asked.url, ""));
    expect(await withoutAddress(server)).toEqual(await withoutAddress(cluster));
    // The history is the queue's: every server of it lists the same exports, newest first.
    const listed = async (asked: ServeProcess) => ((await (await fetch(`${asked.url}/history/`)).json()) as ExportHistory).exports.map(({ id, status, fileName, files }) => ({ id, status, fileName, files: files.length }));
    expect(await listed(cluster)).toEqual([
      { id: again, status: "SUCCESS", fileName: "clustered", files: 1 },
      { id, status: "SUCCESS", fileName: "queued", files: 1 },
    ]);
    expect(await listed(server)).toEqual(await listed(cluster));
    first.child.kill("SIGTERM");
    expect(await first.exited).toBe(0);
  });

  it("with a password in --queue, serve and the worker start and print it hidden", async () => {
    const redis = new Redis(REDIS as string);
    await redis.call("ACL", "SETUSER", "basemodel-test", "on", ">s3cret", "~*", "&*", "+@all");
    await redis.quit();
    const withPassword = queueUrl.replace("redis://", "redis://basemodel-test:s3cret@");
    const server = await startServe(["--queue", withPassword, "--port", "0", "--exports", exportsDir]);
    running.push(server);
    const started = await startWorker(["--queue", withPassword, "--db", await monacoStorePath(), "--exports", exportsDir]);
    running.push(started);
    const hidden = queueUrl.replace("redis://", "redis://basemodel-test:***@");
    expect(server.output().stdout).toContain(`run by basemodel worker from ${hidden}`);
    expect(started.output().stdout).toContain(`basemodel worker: exports from ${hidden}`);
    expect(server.output().stdout + started.output().stdout).not.toContain("s3cret");
  });

  it("a worker SIGKILLed mid-export: another worker finishes the job", async () => {
    const server = await serve();
    const [a, b] = [await worker(), await worker()];
    const id = await post(server, { geometry: MONACO_AREA, outputType: "kml" });
    const startedHere = new RegExp(`export ${id} started \\(attempt 1\\)`);
    await until(server, id, (body) => body.status !== "PENDING" && (body.progress >= 10 || body.status !== "STARTED"));
    const [victim, survivor] = startedHere.test(a.output().stderr) ? [a, b] : [b, a];
    expect(victim.output().stderr).toMatch(startedHere);
    expect(await status(server, id), "the export finished before it could be interrupted").toMatchObject({ status: "STARTED" });
    victim.child.kill("SIGKILL");
    expect(await victim.exited).toBe("SIGKILL");

    // The crash used an attempt: the next run is the second.
    await untilLine(survivor, new RegExp(`export ${id} started \\(attempt 2\\)`));
    expect(await until(server, id, finished)).toMatchObject({ status: "SUCCESS", progress: 100 });
    survivor.child.kill("SIGTERM");
    expect(await survivor.exited).toBe(0);
  });

  it("a task whose workers are SIGKILLed three times fails for good, saying so", async () => {
    const server = await serve();
    const id = await post(server, { geometry: MONACO_AREA, outputType: "kml" });
    for (const attempt of [1, 2, 3]) {
      const victim = await worker();
      await untilLine(victim, new RegExp(`export ${id} started \\(attempt ${attempt}\\)`));
      await until(server, id, (body) => body.status === "STARTED" && body.progress >= 5);
      victim.child.kill("SIGKILL");
      expect(await victim.exited).toBe("SIGKILL");
    }
    // The next worker finds the task's attempts used up by crashes, and fails it without running it.
    const last = await worker();
    expect(await until(server, id, finished)).toMatchObject({ status: "FAILURE", result: { error: "a worker stopped while running this task 3 times" } });
    expect(last.output().stderr).not.toMatch(new RegExp(`export ${id} started`));
  });

  it("SIGTERM puts a running job back on the queue without using an attempt", async () => {
    const server = await serve();
    const first = await worker();
    const id = await post(server, { geometry: MONACO_AREA, outputType: "kml" });
    await until(server, id, (body) => body.status !== "PENDING" && (body.progress >= 10 || body.status !== "STARTED"));
    first.child.kill("SIGTERM");
    expect(await first.exited).toBe(0);
    expect(first.output().stderr).toContain(`export ${id} stopped with this process; it is queued again`);
    expect(await status(server, id)).toMatchObject({ status: "PENDING", progress: 0 });

    const second = await worker();
    await untilLine(second, new RegExp(`export ${id} started \\(attempt 1\\)`));
    expect(await until(server, id, finished)).toMatchObject({ status: "SUCCESS" });
    second.child.kill("SIGTERM");
    expect(await second.exited).toBe(0);
  });

  const template = postgresTemplateUrl();
  it.skipIf(template === undefined)("a worker exports from the PostGIS store at its --db", async () => {
    const database = await freshDatabases(template!)();
    const imported = await basemodel(["import", MONACO, "--db", database.url]);
    expect(imported.code, imported.stderr).toBe(0);
    const server = await serve();
    const fromPostgis = await worker(database.url);
    expect(fromPostgis.output().stdout).toContain(`data: ${database.url}`);
    const id = await post(server, { geometry: MONACO_AREA, fileName: "postgis", outputType: "csv" });
    const done = await until(server, id, finished);
    expect(done).toMatchObject({ status: "SUCCESS", progress: 100 });
    const zip = join(scratchDir(), "postgis.zip");
    writeFileSync(zip, Buffer.from(await (await fetch(exportResultOf(done).download_url)).arrayBuffer()));
    const rows = execFileSync("python3", ["-c", "import sys, zipfile; print(zipfile.ZipFile(sys.argv[1]).read('postgis.csv').decode().count(chr(10)))", zip], { encoding: "utf8" });
    expect(Number(rows)).toBeGreaterThan(9_000);
  });
});
