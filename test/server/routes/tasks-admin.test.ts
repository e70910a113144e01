/**
 * raw-data-api's task administration (/tasks/revoke/, /purge/, /inspect/, /ping/, /queue/,
 * /queue/details/) over HTTP, against a server whose one worker the test holds on a task, so
 * that tasks are running and waiting when the routes are asked.
 */
import { hostname } from "node:os";
import { beforeAll, describe, expect, it } from "vitest";
import { deferred } from "../tasks/contract/wait.js";
import { startExportServer, waitForTask, type ExportServer } from "./exports.js";
import type { AnswerBody } from "./helpers.js";

const SMALL = { type: "Polygon", coordinates: [[[7.4265, 43.7395], [7.428, 43.7395], [7.428, 43.741], [7.4265, 43.741], [7.4265, 43.7395]]] };
const ADMIN = "admin-token-0123456789";
const STAFF = "staff-token-0123456789";
const GUEST = "guest-token-0123456789";
const USERS = [
  { token: ADMIN, osmId: 1, username: "ada", role: "admin" as const, imgUrl: null },
  { token: STAFF, osmId: 2, username: "amina", role: "staff" as const, imgUrl: null },
  { token: GUEST, osmId: 3, username: "bo", role: "guest" as const, imgUrl: null },
];
const WORKER = `basemodel@${hostname()}:${process.pid}`;
const CUSTOM = {
  geometry: SMALL,
  dataset: { dataset_prefix: "hotosm_project_1" },
  categories: [{ Roads: { types: ["lines"], select: ["name"], where: "tags['highway'] IS NOT NULL", formats: ["geojson"] } }],
};

describe("task administration", () => {
  let server: ExportServer;
  /** Released, the held task goes on; each run waits for it. */
  let gate = deferred<void>();
  const started: string[] = [];
  const get = async (path: string, token?: string) => {
    const answer = await fetch(`${server.url}${path}`, { headers: token === undefined ? {} : { "access-token": token } });
    return { status: answer.status, body: (await answer.json()) as AnswerBody };
  };
  const queued = async (body: unknown, path = "/latest/snapshot/") => {
    const answer = await fetch(`${server.url}${path}`, { method: "POST", headers: { "content-type": "application/json", "access-token": ADMIN }, body: JSON.stringify(body) });
    expect(answer.status).toBe(200);
    return ((await answer.json()) as { task_id: string }).task_id;
  };
  const eventually = async (what: () => Promise<boolean>) => {
    for (let tries = 0; !(await what()); tries++) {
      if (tries > 400) throw new Error("waited 20 s");
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };

  beforeAll(async () => {
    server = await startExportServer({
      concurrency: 1,
      server: { users: USERS },
      wrap: (handler) => async (payload, context) => {
        started.push(context.id);
        await Promise.race([gate.promise, new Promise((resolve) => context.signal.addEventListener("abort", resolve))]);
        context.signal.throwIfAborted();
        return handler(payload, context);
      },
    });
  });

  it("ping and inspect show the worker, and the task it runs, as Celery's do", async () => {
    expect(await get("/v1/tasks/ping/")).toEqual({ status: 200, body: { [WORKER]: { ok: "pong" } } });
    expect(await get("/v1/tasks/inspect/")).toEqual({ status: 200, body: { active: [] } });
    expect(await get("/v1/tasks/inspect/?summary=false")).toEqual({ status: 200, body: { active: { [WORKER]: [] } } });

    const custom = await queued(CUSTOM, "/latest/custom/snapshot/");
    await eventually(async () => started.includes(custom));
    const summary = await get("/latest/tasks/inspect/?summary=true");
    expect(summary.body).toEqual({ active: [{ [WORKER]: { id: custom, task: "process_custom_request", time_start: expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/) } }] });
    const full = await get("/latest/tasks/inspect/?summary=False");
    expect(full.body).toEqual({ active: { [WORKER]: [{ id: custom, name: "process_custom_request", hostname: WORKER, time_start: expect.any(Number), worker_pid: process.pid }] } });
    expect(Math.abs(full.body.active[WORKER][0].time_start - Date.now() / 1000)).toBeLessThan(60);
    expect((await get("/latest/tasks/inspect/?summary=maybe")).status).toBe(422);

    gate.resolve();
    expect((await waitForTask(server, `/tasks/status/${custom}/`)).status).toBe("SUCCESS");
  });

  it("the queue's length and details list the waiting tasks in the order they run; args gives their requests", async () => {
    gate = deferred<void>();
    const running = await queued({ geometry: SMALL });
    await eventually(async () => started.includes(running));
    const second = await queued({ geometry: SMALL, fileName: "second" });
    const third = await queued(CUSTOM, "/latest/custom/snapshot/");
    expect(await get("/v1/tasks/queue/")).toEqual({ status: 200, body: { raw_daemon: { length: 2 }, raw_ondemand: { length: 2 } } });
    expect(await get("/v1/tasks/queue/details/raw_daemon/")).toEqual({ status: 200, body: [{ index: 0, id: second }, { index: 1, id: third }] });
    const withArgs = await get("/v1/tasks/queue/details/raw_ondemand/?args=true", STAFF);
    expect(withArgs.body.map(({ id }: { id: string }) => id)).toEqual([second, third]);
    expect(JSON.parse(withArgs.body[0].args)).toMatchObject({ params: { fileName: "second" } });
    expect(JSON.parse(withArgs.body[1].args)).toMatchObject({ custom: { prefix: "hotosm_project_1" } });
    expect(await get("/v1/tasks/queue/details/celery/")).toEqual({ status: 404, body: { detail: "Queue 'celery' not found" } });

    // A waiting task revoked never runs; the running one, revoked, stops; the last then runs.
    expect(await get(`/v1/tasks/revoke/${second}/`, STAFF)).toEqual({ status: 200, body: { id: second } });
    expect((await get(`/latest/tasks/status/${second}/`)).body).toMatchObject({ status: "REVOKED", result: { error: expect.stringMatching(/revoked/) } });
    expect((await get("/v1/tasks/queue/")).body.raw_daemon.length).toBe(1);
    expect(await get(`/v1/tasks/revoke/${running}/`, ADMIN)).toEqual({ status: 200, body: { id: running } });
    await eventually(async () => started.includes(third));
    expect((await get(`/latest/tasks/status/${running}/`)).body.status).toBe("REVOKED");
    gate.resolve();
    expect((await waitForTask(server, `/tasks/status/${third}/`)).status).toBe("SUCCESS");
    expect(started).not.toContain(second);
    // Revoking a task that has ended changes nothing.
    expect(await get(`/v1/tasks/revoke/${third}/`, STAFF)).toEqual({ status: 200, body: { id: third } });
    expect((await get(`/latest/tasks/status/${third}/`)).body.status).toBe("SUCCESS");
  });

  it("purge discards every waiting task (admin), the running one runs on", async () => {
    gate = deferred<void>();
    const running = await queued({ geometry: SMALL });
    await eventually(async () => started.includes(running));
    const waiting = [await queued({ geometry: SMALL }), await queued({ geometry: SMALL })];
    expect(await get("/latest/tasks/purge/", STAFF)).toEqual({ status: 403, body: { detail: [{ msg: "User is not an admin" }] } });
    expect(await get("/latest/tasks/purge/", ADMIN)).toEqual({ status: 200, body: { tasks_discarded: 2 } });
    for (const id of waiting) expect((await get(`/latest/tasks/status/${id}/`)).body.status).toBe("REVOKED");
    gate.resolve();
    expect((await waitForTask(server, `/tasks/status/${running}/`)).status).toBe("SUCCESS");
    expect(await get("/latest/tasks/purge/", ADMIN)).toEqual({ status: 200, body: { tasks_discarded: 0 } });
  });

  it("the queue's requests (args) are for staff and admins: they name their callers' areas and files", async () => {
    gate = deferred<void>();
    const running = await queued({ geometry: SMALL });
    await eventually(async () => started.includes(running));
    const waiting = await queued({ geometry: SMALL, fileName: "private" });
    for (const token of [STAFF, ADMIN]) expect(JSON.parse((await get("/latest/tasks/queue/details/raw_daemon/?args=true", token)).body[0].args)).toMatchObject({ params: { fileName: "private" } });
    expect(await get("/latest/tasks/queue/details/raw_daemon/?args=true", GUEST)).toEqual({ status: 403, body: { detail: [{ msg: "User is not a staff" }] } });
    expect(await get("/latest/tasks/queue/details/raw_daemon/?args=true", "nobody")).toEqual({ status: 403, body: { detail: [{ msg: "OSM Authentication failed" }] } });
    expect((await get("/latest/tasks/queue/details/raw_daemon/?args=true")).body.detail[0].loc).toEqual(["header", "access-token"]);
    // Without args, the queue's order is anyone's to see, as upstream.
    expect(await get("/latest/tasks/queue/details/raw_daemon/", GUEST)).toEqual({ status: 200, body: [{ index: 0, id: waiting }] });
    expect(await get("/latest/tasks/queue/details/raw_daemon/?args=false")).toEqual({ status: 200, body: [{ index: 0, id: waiting }] });
    gate.resolve();
    for (const id of [running, waiting]) expect((await waitForTask(server, `/tasks/status/${id}/`)).status).toBe("SUCCESS");
  });

  it("revoke is for staff and admins, of a task that exists", async () => {
    const id = "00000000-0000-4000-8000-000000000000";
    expect(await get(`/v1/tasks/revoke/${id}/`, STAFF)).toEqual({ status: 404, body: { detail: expect.stringMatching(/^no task 00000000/) } });
    expect((await get("/v1/tasks/revoke/not-a-task/", STAFF)).status).toBe(422);
    expect(await get(`/v1/tasks/revoke/${id}/`, GUEST)).toEqual({ status: 403, body: { detail: [{ msg: "User is not a staff" }] } });
    expect(await get(`/v1/tasks/revoke/${id}/`, "nobody")).toEqual({ status: 403, body: { detail: [{ msg: "OSM Authentication failed" }] } });
    expect((await get(`/v1/tasks/revoke/${id}/`)).body.detail[0].loc).toEqual(["header", "access-token"]);
  });
});

describe("task administration without workers", () => {
  it("ping answers null and inspect no task when no worker is alive", async () => {
    const server = await startExportServer({ concurrency: 0 });
    expect((await server.get("/latest/tasks/ping/")).body).toBeNull();
    expect((await server.get("/latest/tasks/inspect/?summary=false")).body).toEqual({ active: null });
    // Without a users file, every route is open: the queue's requests too.
    expect((await server.post("/latest/snapshot/", { geometry: SMALL, fileName: "open" })).status).toBe(200);
    expect(JSON.parse((await server.get("/latest/tasks/queue/details/raw_daemon/?args=true")).body[0].args)).toMatchObject({ params: { fileName: "open" } });
  });
});
