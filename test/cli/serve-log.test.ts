/**
 * `basemodel serve`'s log on standard error: a line per request and per step of an export, at
 * the level --log-level chooses, from one process or several.
 */
import { describe, expect, it } from "vitest";
import { basemodel, scratchDir, startServe, type ServeProcess } from "./helpers.js";

const LINE = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z (ERROR|WARN |INFO |DEBUG) \S.*$/;
const AREA = [[1.1951, 22.9955], [1.2049, 22.9955], [1.2049, 23.0045], [1.1951, 23.0045], [1.1951, 22.9955]];

async function stopped(server: ServeProcess): Promise<{ stdout: string; stderr: string }> {
  server.child.kill("SIGTERM");
  expect(await server.exited).toBe(0);
  return server.output();
}

/** A status request, a 404, and an export run to its end; returns the export's task id and the status answer's size. */
async function traffic(url: string): Promise<{ taskId: string; statusBytes: number }> {
  const status = await fetch(`${url}/latest/status/?any=query`);
  const statusBytes = (await status.arrayBuffer()).byteLength;
  expect((await fetch(`${url}/nowhere`)).status).toBe(404);
  const queued = await fetch(`${url}/latest/snapshot/`, { method: "POST", body: JSON.stringify({ geometry: { type: "Polygon", coordinates: [AREA] } }) });
  const { taskId } = (await queued.json()) as { taskId: string };
  for (let polls = 0; polls < 600; polls++) {
    const task = (await (await fetch(`${url}/latest/tasks/status/${taskId}/`)).json()) as { status: string };
    if (task.status === "SUCCESS") return { taskId, statusBytes };
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`export ${taskId} did not finish`);
}

describe("basemodel serve --log-level", { timeout: 120_000 }, () => {
  it("info (the default): one readable line per request and per step of an export, on standard error", async () => {
    const server = await startServe(["--port", "0", "--exports", scratchDir()]);
    const { taskId, statusBytes } = await traffic(server.url);
    const { stdout, stderr } = await stopped(server);
    const lines = stderr.trimEnd().split("\n");
    for (const line of lines) expect(line).toMatch(LINE);
    expect(stderr).toMatch(new RegExp(`INFO  GET /latest/status/ 200 \\d+\\.\\d ms ${statusBytes} B\\n`));
    expect(stderr).toMatch(/INFO {2}GET \/nowhere 404 \d+\.\d ms \d+ B\n/);
    expect(stderr).toMatch(/INFO {2}POST \/latest\/snapshot\/ 200 /);
    expect(stderr).toContain(`INFO  export ${taskId} queued\n`);
    expect(stderr).toContain(`INFO  export ${taskId} started (attempt 1)\n`);
    expect(stderr).toMatch(new RegExp(`INFO  export ${taskId} finished in \\d+\\.\\d s: Export_geojson_uid_${taskId}\\.zip, \\d+ bytes\\n`));
    expect(stdout).not.toMatch(LINE);
  });

  it("warn: no request or export lines", async () => {
    const server = await startServe(["--port", "0", "--exports", scratchDir(), "--log-level", "warn"]);
    await traffic(server.url);
    expect((await stopped(server)).stderr).toBe("");
  });

  it("with --processes, each HTTP process logs its requests and the main one the exports", async () => {
    const server = await startServe(["--port", "0", "--exports", scratchDir(), "--processes", "2"]);
    const { taskId } = await traffic(server.url);
    const { stderr } = await stopped(server);
    for (const line of stderr.trimEnd().split("\n")) expect(line).toMatch(LINE);
    expect(stderr).toMatch(/INFO {2}GET \/latest\/status\/ 200 /);
    expect(stderr).toMatch(/INFO {2}POST \/latest\/snapshot\/ 200 /);
    for (const step of ["queued", "started (attempt 1)", "finished in"]) expect(stderr).toContain(`export ${taskId} ${step}`);
  });

  it("refuses a level it does not know", async () => {
    const run = await basemodel(["serve", "--log-level", "loud"]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("silent, error, warn, info, debug");
  });
});
