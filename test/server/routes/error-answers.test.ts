/**
 * Every answer to a request the server cannot serve is JSON {"detail": ...} with the status that
 * says why, including those fastify, @fastify/static and Node's HTTP parser would write in their
 * own shapes. Requests are bytes on a socket: most of these no HTTP client would send.
 */
import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { afterFile } from "../../support/cleanup.js";
import { localArtifacts } from "../../../src/server/exports/artifacts.js";
import type { ExportSubmitter } from "../../../src/server/tasks/export-tasks.js";
import { lineLog } from "../../../src/server/http/log.js";
import { taskSubmitterOver, type IpcChannel } from "../../../src/server/tasks/queue-ipc.js";
import { demoStorePath, startServer, type RunningServer } from "./helpers.js";
import { openSocket, parseAnswer, portOf, rawRequest, receivedUntilClose } from "./raw-http.js";

const ZIP = `Export_geojson_uid_${randomUUID()}.zip`;
const ZIP_BYTES = 100;

/** A queue that cannot be reached: nothing is ever submitted through it. */
const unusedQueue: ExportSubmitter = {
  enqueue: () => Promise.reject(new Error("not used")),
  get: () => Promise.reject(new Error("not used")),
  revoke: () => Promise.reject(new Error("not used")),
  waiting: () => Promise.reject(new Error("not used")),
  pendingCount: () => Promise.reject(new Error("not used")),
  active: () => Promise.reject(new Error("not used")),
  workers: () => Promise.reject(new Error("not used")),
  history: () => Promise.reject(new Error("not used")),
};

function exportsFolder(): string {
  const directory = mkdtempSync(join(tmpdir(), "basemodel-exports-"));
  afterFile(() => rmSync(directory, { recursive: true, force: true }));
  return directory;
}

const get = (path: string, headers = "") => `GET ${path} HTTP/1.1\r\nHost: x\r\n${headers}Connection: close\r\n\r\n`;

interface Case {
  name: string;
  request: string;
  status: number;
  /** What the detail must say (non-422 answers). */
  says?: RegExp;
  headers?: Record<string, RegExp>;
}

const CASES: Case[] = [
  {
    name: "an empty Content-Type",
    request: "POST /raw/polygons HTTP/1.1\r\nHost: x\r\nContent-Type: \r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}",
    status: 415,
    says: /Content-Type header "" is not a media type/,
  },
  { name: "a bad % escape in the path", request: get("/raw/polygons%zz"), status: 400, says: /not a valid URL path/ },
  { name: "a % at the end of the path", request: get("/latest/status/%"), status: 400, says: /not a valid URL path/ },
  { name: "TRACE", request: get("/latest/status/").replace("GET", "TRACE"), status: 405, says: /does not take TRACE/, headers: { allow: /^GET, HEAD$/ } },
  { name: "DELETE on a POST route", request: get("/raw/polygons").replace("GET", "DELETE"), status: 405, headers: { allow: /^POST$/ } },
  { name: "GET on a POST route", request: get("/raw/polygons"), status: 405, headers: { allow: /^POST$/ } },
  { name: "a method on a path with a parameter", request: get(`/latest/tasks/status/${randomUUID()}/`).replace("GET", "PUT"), status: 405 },
  { name: "POST to an export", request: get(`/exports/${ZIP}`).replace("GET", "POST"), status: 405, headers: { allow: /^GET, HEAD$/ } },
  { name: "a path that is no route", request: get("/nowhere"), status: 404, says: /no route GET \/nowhere/ },
  { name: "a file beside the exports", request: get("/exports/.tasks.sqlite"), status: 404, says: /no export/ },
  {
    name: "Range: bytes=abc on an export",
    request: get(`/exports/${ZIP}`, "Range: bytes=abc\r\n"),
    status: 416,
    says: /range "bytes=abc" is not within the file of 100 bytes/,
    headers: { "content-range": /^bytes \*\/100$/ },
  },
  { name: "a Range past the end of an export", request: get(`/exports/${ZIP}`, "Range: bytes=5000-\r\n"), status: 416 },
  { name: "If-Match that does not match", request: get(`/exports/${ZIP}`, 'If-Match: "nope"\r\n'), status: 412 },
  { name: "a path out of the docs' assets", request: get("/docs/static/.."), status: 403 },
  { name: "a path parameter too long to be one", request: get(`/latest/tasks/status/${"a".repeat(1100)}/`), status: 414 },
  { name: "headers larger than Node takes", request: get("/latest/status/", `X-Big: ${"a".repeat(20_000)}\r\n`), status: 431, says: /headers are larger than/ },
  { name: "an HTTP/1.1 request without Host", request: "GET /latest/status/ HTTP/1.1\r\nConnection: close\r\n\r\n", status: 400, says: /Host header/ },
  { name: "a method HTTP does not have", request: get("/latest/status/").replace("GET", "FOO"), status: 400, says: /not a valid HTTP\/1.1 request/ },
  { name: "bytes that are not HTTP", request: "GARBAGE\r\n\r\n", status: 400, says: /not a valid HTTP\/1.1 request/ },
  {
    name: "both Content-Length and Transfer-Encoding",
    request: "POST /raw/polygons HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n{}",
    status: 400,
  },
  { name: "a body that is not JSON", request: "POST /raw/polygons HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\nConnection: close\r\n\r\n{", status: 422 },
];

/** A log that keeps its lines, and waits for the next one. */
function keptLog() {
  let text = "";
  return {
    log: lineLog("info", { write: (line: string) => (text += line) }),
    /** The lines written since `from` (a length of the text), once there are any; bounded. */
    async since(from: number): Promise<string> {
      for (let waits = 0; waits < 200 && text.length === from; waits++) await new Promise((resolve) => setTimeout(resolve, 5));
      return text.slice(from);
    },
    get length() {
      return text.length;
    },
  };
}

describe("error answers", () => {
  let server: RunningServer;
  const kept = keptLog();
  beforeAll(async () => {
    const directory = exportsFolder();
    writeFileSync(join(directory, ZIP), Buffer.alloc(ZIP_BYTES, 1));
    server = await startServer(await demoStorePath(), { exports: { queue: unusedQueue, artifacts: localArtifacts(directory) }, log: kept.log });
  });

  it.each(CASES)("$name: $status with {detail}, and a line in the log", async ({ request, status, says, headers }) => {
    const logged = kept.length;
    const answer = await rawRequest(portOf(server.url), request);
    expect(answer.status, answer.body).toBe(status);
    expect(answer.headers["content-type"]).toMatch(/^application\/json/);
    const body = JSON.parse(answer.body);
    expect(Object.keys(body)).toEqual(["detail"]);
    if (status === 422) expect(body.detail).toEqual([expect.objectContaining({ loc: expect.any(Array), msg: expect.any(String), type: expect.any(String) })]);
    else expect(body.detail).toEqual(expect.stringMatching(says ?? /\w/));
    for (const [name, value] of Object.entries(headers ?? {})) expect(answer.headers[name]).toMatch(value);
    expect(await kept.since(logged)).toMatch(new RegExp(`^\\S+ INFO  (\\S+ \\S+ ${status} \\d+\\.\\d ms \\d+ B|client 127\\.0\\.0\\.1 ${status}: .+)$`, "m"));
  });
});

describe("slow requests", () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer(await demoStorePath(), { requestTimeoutMs: 400, headersTimeoutMs: 200 });
  });

  /** Sends `head`, then `trickle` a byte at a time every 20 ms until the server closes the connection; bounded. */
  async function trickle(head: string, trickle: string): Promise<{ sent: number; received: string }> {
    const socket = await openSocket(portOf(server.url));
    const received = receivedUntilClose(socket);
    let closed = false;
    void received.then(() => (closed = true));
    socket.write(head);
    let sent = 0;
    while (!closed && sent < trickle.length) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      if (!closed) socket.write(trickle[sent++]!);
    }
    socket.destroy();
    return { sent, received: await received };
  }

  function expectTimedOut({ sent, received }: { sent: number; received: string }, length: number): void {
    // Closed before the whole request arrived (the bound: 400 ms, checked every 200 ms, against 20 ms a byte).
    expect(sent).toBeLessThan(length);
    // A 408 when the answer got out before the connection closed.
    if (received !== "") {
      const answer = parseAnswer(received);
      expect(answer.status).toBe(408);
      expect(JSON.parse(answer.body).detail).toMatch(/did not arrive in time/);
    }
  }

  it("a body that trickles in gets a 408 and its connection closed, and others are served meanwhile", async () => {
    const body = `{"area":"${" ".repeat(200)}"}`;
    const head = `POST /raw/polygons HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`;
    const slow = trickle(head, body);
    expect((await server.get("/latest/status/")).status).toBe(200);
    expectTimedOut(await slow, body.length);
    expect((await server.get("/latest/status/")).status).toBe(200);
  });

  it("headers that trickle in get a 408 too", async () => {
    const headers = `X-Slow: ${"a".repeat(200)}\r\n\r\n`;
    expectTimedOut(await trickle("GET /latest/status/ HTTP/1.1\r\nHost: x\r\n", headers), headers.length);
  });
});

describe("an export queue that does not answer", () => {
  it("is a 503, for a new export and for a task's status", async () => {
    const silent: IpcChannel = { send: () => undefined, on: () => undefined, off: () => undefined };
    const server = await startServer(await demoStorePath(), { exports: { queue: taskSubmitterOver(silent, { timeoutMs: 50 }), artifacts: localArtifacts(exportsFolder()) } });
    const geometry = { type: "Polygon", coordinates: [[[1.1951, 22.9955], [1.2049, 22.9955], [1.2049, 23.0045], [1.1951, 23.0045], [1.1951, 22.9955]]] };
    for (const answer of [await server.post("/latest/snapshot/", { geometry }), await server.get(`/latest/tasks/status/${randomUUID()}/`)]) {
      expect(answer.status, answer.text).toBe(503);
      expect(answer.body).toEqual({ detail: expect.stringMatching(/export queue cannot be reached now .*did not answer within 0.05 s/) });
    }
  });
});
