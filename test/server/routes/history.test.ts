/**
 * GET /history/ over real HTTP, with real exports of Monaco, on both queues: the embedded SQLite
 * queue, and BullMQ on a real Redis whose workers run on a connection and a store of their own,
 * as `basemodel worker` runs them. The history outlives a restart of the server; failures,
 * revocations, deleted files, paging, bad queries, and who may see what with a users file.
 */
import { randomUUID } from "node:crypto";
import { symlinkSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { localArtifacts } from "../../../src/server/exports/artifacts.js";
import type { UserEntry } from "../../../src/server/http/access.js";
import { openStore } from "../../../src/server/store/open.js";
import { openBullmqTaskQueue } from "../../../src/server/tasks/bullmq-queue.js";
import { deleteOldExports, exportTaskHandler, type ExportSummary, type ExportTaskPayload, type ExportTaskResult } from "../../../src/server/tasks/export-tasks.js";
import { afterFile } from "../../support/cleanup.js";
import { freshRedisPrefix } from "../../support/redis-keys.js";
import { redisUrl } from "../../support/requirements.js";
import { startExportServer, waitForTask, type ExportServer } from "./exports.js";
import { demoStorePath, monacoStorePath, startServer, wireValidator, type AnswerBody } from "./helpers.js";

/** About 160 m by 165 m of Monaco: a few dozen features, exported in a moment. */
const AREA = { type: "Polygon", coordinates: [[[7.4265, 43.7395], [7.428, 43.7395], [7.428, 43.741], [7.4265, 43.741], [7.4265, 43.7395]]] };
const isHistory = wireValidator("ExportHistory");

/** How the exports of one queue run. */
interface QueueSetup {
  /** The server on a fresh export folder, or on `directory` again (a restart); its exports run once work() is called. */
  serve(directory?: string, users?: UserEntry[]): Promise<ExportServer>;
  /** Starts the workers of a server's exports. */
  work(server: ExportServer): Promise<void>;
}

const handlerOf = (server: ExportServer) => exportTaskHandler(server.store, server.artifacts);

/** The embedded queue: one process owns its file, and runs the exports itself. */
const sqlite: QueueSetup = {
  serve: (directory, users) => startExportServer({ concurrency: 0, ...(directory && { directory }), ...(users && { server: { users } }) }),
  work: async (server) => server.queue.work(handlerOf(server), { concurrency: 2 }),
};

/** BullMQ: the server only submits; a worker with a queue connection and a store of its own runs the exports. */
function bullmq(url: string): QueueSetup {
  const prefix = freshRedisPrefix(url);
  // One queue per export folder: a restarted server finds the queue of its folder.
  const names = new Map<string, string>();
  const nameOf = (directory: string) => names.get(directory) ?? names.set(directory, `history-${names.size}`).get(directory)!;
  const open = (directory: string) => openBullmqTaskQueue<ExportTaskPayload, ExportTaskResult, ExportSummary>(url, { prefix, name: nameOf(directory), retryDelayMs: 50 });
  return {
    serve: (directory, users) => startExportServer({ concurrency: 0, openQueue: open, ...(directory && { directory }), ...(users && { server: { users } }) }),
    async work(server) {
      const [queue, store] = await Promise.all([open(server.directory), openStore(await monacoStorePath())]);
      queue.work(exportTaskHandler(store, localArtifacts(server.directory)), { concurrency: 2 });
      afterFile(async () => {
        await queue.close();
        await store.close();
      });
    },
  };
}

const REDIS = redisUrl();
const SETUPS: Array<[string, () => QueueSetup]> = [["SQLite", () => sqlite], ...(REDIS === undefined ? [] : [["BullMQ", () => bullmq(REDIS)] as [string, () => QueueSetup]])];

async function historyOf(server: ExportServer, query = "", headers?: Record<string, string>): Promise<AnswerBody> {
  const answer = await server.get(`/history/${query}`, headers);
  expect(answer.status, answer.text).toBe(200);
  isHistory(answer.body);
  return answer.body;
}

/** POSTs an export; returns its task id. */
async function queued(server: ExportServer, body: unknown, path = "/latest/snapshot/", headers: Record<string, string> = {}): Promise<string> {
  const answer = await server.post(path, body, { "content-type": "application/json", ...headers });
  expect(answer.status, answer.text).toBe(200);
  return answer.body.task_id;
}

const finished = (server: ExportServer, id: string) => waitForTask(server, `/tasks/status/${id}/`);

describe.each(SETUPS)("the history of exports on the %s queue", { timeout: 300_000 }, (_name, setup) => {
  let queue: QueueSetup;
  beforeAll(() => {
    queue = setup();
  });

  it("lists an export with its area, formats, size and download after a restart of the server; its request runs again unchanged", async () => {
    const first = await queue.serve();
    await queue.work(first);
    // snake_case members and an unknown one: the history keeps the body as it was sent.
    const body = { geometry: AREA, file_name: "kept", output_type: "geojson", geometry_type: ["polygon"], filters: { tags: { allGeometry: { building: [] } } }, bindZip: true, clientNote: "not read" };
    const id = await queued(first, body);
    const status = await finished(first, id);
    expect(status.status).toBe("SUCCESS");
    await first.close();

    const second = await queue.serve(first.directory);
    const { exports, hasMore } = await historyOf(second);
    expect(hasMore).toBe(false);
    const name = `kept_geojson_uid_${id}.zip`;
    expect(exports).toEqual([
      {
        id,
        kind: "snapshot",
        status: "SUCCESS",
        progress: 100,
        createdAt: expect.any(String),
        startedAt: expect.any(String),
        finishedAt: expect.any(String),
        area: AREA,
        iso3: null,
        formats: ["geojson"],
        geometryTypes: ["polygon"],
        categories: null,
        fileName: "kept",
        files: [{ name, format: "geojson", category: null, size: (status.result as AnswerBody).zipFileSizeBytes, features: expect.any(Number), url: `${second.url}/exports/${name}` }],
        size: (status.result as AnswerBody).zipFileSizeBytes,
        expired: false,
        error: null,
        request: { method: "POST", path: "/latest/snapshot/", body },
      },
    ]);
    const [entry] = exports;
    expect(entry.files[0].features).toBeGreaterThan(0);
    expect(entry.createdAt <= entry.startedAt && entry.startedAt <= entry.finishedAt).toBe(true);
    const download = await fetch(entry.files[0].url);
    expect(download.status).toBe(200);
    expect((await download.arrayBuffer()).byteLength).toBe(entry.size);

    await queue.work(second);
    const again = await second.post(entry.request.path, entry.request.body);
    expect(again.status, again.text).toBe(200);
    expect((await finished(second, again.body.task_id)).status).toBe("SUCCESS");
    const after = (await historyOf(second)).exports;
    expect(after.map((listed: AnswerBody) => listed.id)).toEqual([again.body.task_id, id]);
    expect(after[0]).toMatchObject({ status: "SUCCESS", request: entry.request, fileName: "kept", expired: false });
  });

  it("shows a failed export's error and a revoked one as REVOKED, newest first", async () => {
    const server = await queue.serve();
    const failing = await queued(server, { geometry: AREA, fileName: "full" });
    // Linux's /dev/full takes no byte: writing the zip fails as on a full disk, which is not retried.
    symlinkSync("/dev/full", join(server.directory, `full_geojson_uid_${failing}.zip.partial`));
    const revoked = await queued(server, { geometry: AREA, fileName: "revoked", outputType: "csv" });
    expect((await server.get(`/latest/tasks/revoke/${revoked}/`)).status).toBe(200);
    await queue.work(server);
    expect(await finished(server, failing)).toMatchObject({ status: "FAILURE", result: { error: "the exports disk is full" } });

    const { exports } = await historyOf(server);
    expect(exports.map((entry: AnswerBody) => [entry.id, entry.status])).toEqual([
      [revoked, "REVOKED"],
      [failing, "FAILURE"],
    ]);
    expect(exports[0]).toMatchObject({ progress: 0, formats: ["csv"], fileName: "revoked", files: [], size: null, expired: false, error: null });
    expect(exports[0].finishedAt).not.toBeNull();
    expect(exports[1]).toMatchObject({ error: "the exports disk is full", files: [], size: null, expired: false, area: AREA });
  });

  it("says an export whose file was deleted has expired, and forgets it with its task after the exports' maximum age", async () => {
    const server = await queue.serve();
    await queue.work(server);
    const id = await queued(server, { geometry: AREA, fileName: "gone", uuid: false });
    expect((await finished(server, id)).status).toBe("SUCCESS");
    await server.artifacts.delete(`${id}/gone_geojson.zip`);
    const [entry] = (await historyOf(server)).exports;
    expect(entry).toMatchObject({ id, status: "SUCCESS", expired: true, files: [{ name: "gone_geojson.zip", url: null }] });
    expect(entry.size).toBeGreaterThan(0);

    // The clean-up serve runs: an hour from now, this export is older than the maximum age of an hour.
    expect(await deleteOldExports(server.queue, server.artifacts, 3_600_000, new Date(Date.now() + 3_600_001))).toEqual({ files: 0, tasks: 1 });
    expect(await historyOf(server)).toEqual({ exports: [], hasMore: false });
  });
});

describe("the history of exports: pages, bad queries, custom exports", { timeout: 300_000 }, () => {
  let server: ExportServer;
  const ids: string[] = [];
  beforeAll(async () => {
    server = await sqlite.serve();
    await sqlite.work(server);
    for (const fileName of ["one", "two", "three"]) ids.unshift(await queued(server, { geometry: AREA, fileName }));
    for (const id of ids) await finished(server, id);
  });

  it("pages newest first by limit and before", async () => {
    expect((await historyOf(server)).exports.map((entry: AnswerBody) => entry.id)).toEqual(ids);
    const first = await historyOf(server, "?limit=2");
    expect([first.exports.map((entry: AnswerBody) => entry.id), first.hasMore]).toEqual([ids.slice(0, 2), true]);
    const next = await historyOf(server, `?limit=2&before=${ids[1]}`);
    expect([next.exports.map((entry: AnswerBody) => entry.id), next.hasMore]).toEqual([ids.slice(2), false]);
    expect((await historyOf(server, "?limit=500")).exports).toHaveLength(3);
    expect((await historyOf(server, "?limit=1")).exports).toHaveLength(1);
  });

  it.each([["0"], ["501"], ["fifty"], ["1.5"], ["-1"], [""], ["1e2"]])("answers limit=%j with a 422 naming it", async (limit) => {
    const answer = await server.get(`/history/?limit=${limit}`);
    expect(answer).toMatchObject({ status: 422, body: { detail: [{ loc: ["query", "limit"], msg: `"limit" must be a whole number from 1 to 500; found ${JSON.stringify(limit)}`, type: "value_error" }] } });
    wireValidator("HTTPValidationError")(answer.body);
  });

  it("answers a before that is no task id, or no export of the history, and a limit given twice, with a 422; a bad limit beside a bad before is named too", async () => {
    const unknown = randomUUID();
    expect(await server.get(`/history/?before=${unknown}`)).toMatchObject({
      status: 422,
      body: { detail: [{ loc: ["query", "before"], msg: `"before" names no export of the history: ${unknown} was never queued here, or it was forgotten with its files`, type: "value_error" }] },
    });
    const both = await server.get("/history/?before=nope&limit=0");
    expect(both.status).toBe(422);
    expect(both.body.detail.map((problem: AnswerBody) => problem.loc)).toEqual([
      ["query", "before"],
      ["query", "limit"],
    ]);
    expect(await server.get("/history/?before=")).toMatchObject({ status: 422, body: { detail: [{ loc: ["query", "before"], type: "string_pattern_mismatch" }] } });
    expect(await server.get("/history/?limit=1&limit=2")).toMatchObject({ status: 422, body: { detail: [{ loc: ["query", "limit"], msg: '"limit" must be a string; found an array of 2 items' }] } });
  });

  it("lists a custom export with its categories and zips; its YAML request runs again as JSON on the same route", async () => {
    const yaml = [
      "geometry: " + JSON.stringify(AREA),
      "dataset: {dataset_prefix: hotosm_history}",
      "categories:",
      "  - Buildings: {types: [polygons], select: [name, building], where: \"tags['building'] IS NOT NULL\", formats: [geojson, csv]}",
      "  - Roads: {types: [lines], select: [highway], where: \"tags['highway'] IS NOT NULL\", formats: [gpkg]}",
    ].join("\n");
    const id = await queued(server, yaml, "/latest/custom/snapshot/yaml/", { "content-type": "application/yaml" });
    expect((await finished(server, id)).status).toBe("SUCCESS");
    const [entry] = (await historyOf(server, "?limit=1")).exports;
    expect(entry).toMatchObject({
      id,
      kind: "custom",
      area: AREA,
      iso3: null,
      formats: ["geojson", "csv", "gpkg"],
      geometryTypes: null,
      categories: [
        { name: "Buildings", types: ["polygons"], formats: ["geojson", "csv"] },
        { name: "Roads", types: ["lines"], formats: ["gpkg"] },
      ],
      fileName: "hotosm_history",
      expired: false,
      request: { method: "POST", path: "/latest/custom/snapshot/yaml/", body: { geometry: AREA, dataset: { dataset_prefix: "hotosm_history" } } },
    });
    expect(entry.files.map((file: AnswerBody) => [file.category, file.format, file.name])).toEqual([
      ["Buildings", "geojson", "hotosm_history_buildings_polygons_geojson.zip"],
      ["Buildings", "csv", "hotosm_history_buildings_polygons_csv.zip"],
      ["Roads", "gpkg", "hotosm_history_roads_lines_gpkg.zip"],
    ]);
    expect(entry.size).toBe(entry.files.reduce((sum: number, file: AnswerBody) => sum + file.size, 0));
    for (const file of entry.files) expect((await fetch(file.url)).status).toBe(200);

    const again = await queued(server, entry.request.body, entry.request.path);
    expect((await finished(server, again)).status).toBe("SUCCESS");
    expect((await historyOf(server, "?limit=1")).exports[0]).toMatchObject({ id: again, request: entry.request, categories: entry.categories });
  });
});

describe("the history of exports with a users file", { timeout: 300_000 }, () => {
  const user = (token: string, osmId: number, role: UserEntry["role"]): UserEntry => ({ token, osmId, username: token, role, imgUrl: null });
  const USERS = [user("admin-token", 1, "admin"), user("staff-token", 2, "staff"), user("ada-token", 3, "guest"), user("bo-token", 4, "guest")];
  const as = (token: string) => ({ "access-token": token });
  let server: ExportServer;
  const by: Record<string, string> = {};
  beforeAll(async () => {
    server = await sqlite.serve(undefined, USERS);
    await sqlite.work(server);
    by.ada = await queued(server, { geometry: AREA, fileName: "ada" }, "/latest/snapshot/", as("ada-token"));
    by.bo = await queued(server, { geometry: AREA, fileName: "bo" }, "/v1/snapshot/", as("bo-token"));
    by.anyone = await queued(server, { geometry: AREA, fileName: "anyone" });
    by.staff = await queued(server, { geometry: AREA, fileName: "staff" }, "/latest/snapshot/", as("staff-token"));
    by.adaAgain = await queued(server, { geometry: AREA, fileName: "ada_again" }, "/latest/snapshot/", as("ada-token"));
    for (const id of Object.values(by)) await finished(server, id);
  });
  const listed = async (token: string, query = "") => (await historyOf(server, query, as(token))).exports.map((entry: AnswerBody) => entry.id);

  it("shows staff and admins every export, with its request", async () => {
    for (const token of ["staff-token", "admin-token"]) expect(await listed(token)).toEqual([by.adaAgain, by.staff, by.anyone, by.bo, by.ada]);
    expect((await historyOf(server, "", as("staff-token"))).exports[3].request).toEqual({ method: "POST", path: "/v1/snapshot/", body: { geometry: AREA, fileName: "bo" } });
  });

  it("shows other users their own exports only, and pages through them", async () => {
    expect(await listed("ada-token")).toEqual([by.adaAgain, by.ada]);
    expect(await listed("bo-token")).toEqual([by.bo]);
    expect(await listed("ada-token", "?limit=1")).toEqual([by.adaAgain]);
    expect(await listed("ada-token", `?before=${by.adaAgain}`)).toEqual([by.ada]);
    expect((await historyOf(server, "", as("ada-token"))).exports[1]).toMatchObject({ fileName: "ada", request: { body: { geometry: AREA, fileName: "ada" } } });
  });

  it("refuses a caller it cannot tell apart, before it reads the query: 422 without a token, 403 for a token of nobody", async () => {
    expect(await server.get("/history/?limit=0")).toMatchObject({ status: 422, body: { detail: [{ loc: ["header", "access-token"], msg: "Field required", type: "missing" }] } });
    expect(await server.get("/history/?limit=0", as("nobody"))).toEqual({ status: 403, body: { detail: [{ msg: "OSM Authentication failed" }] }, text: expect.any(String) });
  });
});

describe("GET /history/ without exports", () => {
  it("is absent, as /exports/ is", async () => {
    const server = await startServer(await demoStorePath());
    expect(await server.get("/history/")).toMatchObject({ status: 404 });
  });
});
