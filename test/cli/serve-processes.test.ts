/**
 * `basemodel serve --processes N` as real processes: N HTTP processes on one port, exports
 * submitted through any of them run in the main process, a crashed one is replaced, and every
 * process goes away on SIGTERM.
 */
import { copyFileSync, existsSync, readFileSync, rmSync } from "node:fs";
import { request } from "node:http";
import { join } from "node:path";
import { createServer, type AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import type { ExportHistory, RawFeatureCollection, SnapshotAccepted, TaskStatus } from "../../src/server/api/index.js";
import { exportResultOf } from "../server/routes/exports.js";
import { monacoStorePath } from "../support/monaco.js";
import { basemodel, scratchDir, startServe, type ServeProcess } from "./helpers.js";

/** The pids of a process's children, from /proc. */
function childrenOf(pid: number): number[] {
  return readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").trim().split(/\s+/).filter(Boolean).map(Number);
}

/** One request on a connection of its own, so that the cluster may hand each to another process; its answer read as `Answer`. */
function send<Answer>(url: string, method: "GET" | "POST", body?: unknown): Promise<{ status: number; body: Answer }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method, agent: false, headers: { "content-type": "application/json" } }, (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (chunk) => (text += chunk));
      res.on("end", () => resolve({ status: res.statusCode!, body: JSON.parse(text) }));
    });
    req.on("error", reject);
    req.end(body === undefined ? undefined : JSON.stringify(body));
  });
}

async function eventually<T>(read: () => T | Promise<T>, done: (value: T) => boolean, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`still ${JSON.stringify(value)} after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** SIGTERM to the main process: it exits 0 and every HTTP process is gone, asked to stop rather than killed after the grace period. */
async function terminate(server: ServeProcess, pids: number[]): Promise<void> {
  server.child.kill("SIGTERM");
  expect(await server.exited).toBe(0);
  expect(server.output().stderr).not.toContain("did not stop");
  for (const pid of pids) expect(existsSync(`/proc/${pid}`)).toBe(false);
}

const AREA = "1.1951 22.9955, 1.2049 22.9955, 1.2049 23.0045, 1.1951 23.0045, 1.1951 22.9955";
const EXPORT_AREA = { type: "Polygon", coordinates: [[[1.196, 22.996], [1.204, 22.996], [1.204, 23.004], [1.196, 23.004], [1.196, 22.996]]] };

describe("basemodel serve --processes", { timeout: 180_000 }, () => {
  it("answers from two processes on one port, runs exports submitted through either, replaces a crashed one, and stops all on SIGTERM", async () => {
    const server = await startServe(["--port", "0", "--processes", "2", "--exports", scratchDir()]);
    expect(server.output().stdout).toContain("by 2 processes");
    const primary = server.child.pid!;
    const first = childrenOf(primary);
    expect(first).toHaveLength(2);

    // Several connections, so both processes answer; each submits through the queue's IPC.
    const answers = await Promise.all(Array.from({ length: 6 }, () => send<RawFeatureCollection>(`${server.url}/raw/polygons`, "POST", { area: AREA, tags: "building" })));
    for (const answer of answers) expect(answer.body.features.length).toBeGreaterThan(100);
    const tasks = await Promise.all(Array.from({ length: 4 }, () => send<SnapshotAccepted>(`${server.url}/latest/snapshot/`, "POST", { geometry: EXPORT_AREA })));
    for (const task of tasks) {
      expect(task.status).toBe(200);
      const done = await eventually(
        () => send<TaskStatus>(`${server.url}/latest/tasks/status/${task.body.taskId}/`, "GET"),
        (answer) => answer.body.status === "SUCCESS",
      );
      expect(exportResultOf(done.body).downloadUrl).toContain(task.body.taskId);
    }
    expect((await send(`${server.url}/latest/tasks/status/00000000-0000-4000-8000-000000000000/`, "GET")).status).toBe(404);
    // The history comes through the queue's IPC too, whichever process answers.
    const history = await send<ExportHistory>(`${server.url}/history/`, "GET");
    expect(history.body.exports.map((entry) => entry.id).sort()).toEqual(tasks.map((task) => task.body.taskId).sort());
    for (const entry of history.body.exports) expect(entry).toMatchObject({ status: "SUCCESS", expired: false, request: { path: "/latest/snapshot/", body: { geometry: EXPORT_AREA } } });

    process.kill(first[0]!, "SIGKILL");
    const replaced = await eventually(() => childrenOf(primary), (pids) => pids.length === 2 && !pids.includes(first[0]!));
    expect(server.output().stderr).toContain(`HTTP process ${first[0]} ended (SIGKILL); starting another`);
    expect((await send(`${server.url}/latest/status/`, "GET")).status).toBe(200);
    await terminate(server, replaced);
  });

  it("stops a replacement that is still starting when SIGTERM follows a crash at once", async () => {
    const server = await startServe(["--port", "0", "--processes", "2", "--exports", scratchDir()]);
    const primary = server.child.pid!;
    const [crashed] = childrenOf(primary);
    process.kill(crashed!, "SIGKILL");
    await eventually(() => server.output().stderr, (stderr) => stderr.includes("starting another"));
    await terminate(server, childrenOf(primary));
  });

  it("does not retry a replacement that cannot start, and exits 1 once none is left", async () => {
    const dir = scratchDir();
    const db = join(dir, "monaco.db");
    copyFileSync(await monacoStorePath(), db);
    const server = await startServe(["--db", db, "--port", "0", "--processes", "2", "--exports", join(dir, "exports")]);
    // The main process keeps its store open; a new HTTP process can no longer open it.
    rmSync(db);
    const failures = () => server.output().stderr.split("a replacement HTTP process could not start").length - 1;
    for (const [index, pid] of childrenOf(server.child.pid!).entries()) {
      process.kill(pid, "SIGKILL");
      await eventually(failures, (count) => count === index + 1);
    }
    expect(await server.exited).toBe(1);
    const { stderr } = server.output();
    expect(stderr).toContain("a replacement HTTP process could not start; 0 still serving");
    expect(stderr).toContain("basemodel: an HTTP process cannot open the store:");
    expect(stderr).not.toContain("internal error");
  });

  it("stops when every HTTP process has stopped cleanly", async () => {
    const server = await startServe(["--port", "0", "--processes", "2", "--exports", scratchDir()]);
    const workers = childrenOf(server.child.pid!);
    for (const pid of workers) process.kill(pid, "SIGTERM");
    expect(await server.exited).toBe(0);
    expect(server.output().stderr).toContain("0 still serving");
  });

  it("exits 2 with one line when the port is taken, with one process or several", async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, "127.0.0.1", resolve));
    const { port } = taken.address() as AddressInfo;
    try {
      for (const processes of ["1", "2"]) {
        const run = await basemodel(["serve", "--port", String(port), "--processes", processes, "--exports", scratchDir()]);
        expect(run.code, `--processes ${processes}`).toBe(2);
        expect(run.stderr).toContain(`cannot listen on 127.0.0.1:${port}`);
        expect(run.stderr).not.toContain("internal error");
      }
    } finally {
      taken.close();
    }
  });
});
