/**
 * The download route reads exports through the artifact store alone: a store that keeps them
 * in memory is served as the folder is, with HTTP's ranges and validators.
 */
import { Readable } from "node:stream";
import { beforeAll, describe, expect, it } from "vitest";
import type { ArtifactStore, PublishedFile } from "../../../src/server/exports/artifacts.js";
import type { ExportSubmitter } from "../../../src/server/tasks/export-tasks.js";
import { demoStorePath, startServer, type RunningServer } from "./helpers.js";

const DOWNLOAD = "Export_geojson_uid_0c6b5a7e-1111-4222-8333-944455556666.zip";
const CONTENT = Buffer.from("PK\u0003\u0004 a zip of twenty-nine bytes");
const PUBLISHED = new Date("2025-06-01T12:00:00.000Z");

/** Every download the route has read, to see that HEAD reads none. */
const reads: string[] = [];

/** Exports in memory; only what the route needs answers. */
function memoryArtifacts(files: Record<string, Buffer>): ArtifactStore {
  const unused = () => Promise.reject(new Error("not used by the download route"));
  return {
    workFolder: unused,
    removeWorkFolder: unused,
    stagingPath: unused,
    publish: unused,
    publishedBefore: unused,
    delete: unused,
    removeLeftovers: unused,
    removeUnfinished: unused,
    unfinishedTasks: unused,
    removeUnfinishedOf: unused,
    stat: async (download): Promise<PublishedFile | null> => (files[download] ? { size: files[download]!.length, modified: PUBLISHED } : null),
    read: (download, range) => {
      reads.push(download);
      return Readable.from([range ? files[download]!.subarray(range.start, range.end + 1) : files[download]!]);
    },
  };
}

const noQueue: ExportSubmitter = {
  enqueue: () => Promise.reject(new Error("no queue")),
  get: async () => null,
  revoke: async () => null,
  waiting: async () => [],
  pendingCount: async () => 0,
  active: async () => [],
  workers: async () => [],
  history: async () => ({ tasks: [], more: false }),
};

describe("GET /exports/ through the artifact store", () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer(await demoStorePath(), { exports: { queue: noQueue, artifacts: memoryArtifacts({ [DOWNLOAD]: CONTENT }) } });
  });
  const url = () => `${server.url}/exports/${DOWNLOAD}`;

  it("serves an export, whole, with its type, size and validators", async () => {
    const answer = await fetch(url());
    expect(answer.status).toBe(200);
    expect(Buffer.from(await answer.arrayBuffer())).toEqual(CONTENT);
    expect(Object.fromEntries(["content-type", "content-length", "accept-ranges", "last-modified"].map((name) => [name, answer.headers.get(name)]))).toEqual({
      "content-type": "application/zip",
      "content-length": String(CONTENT.length),
      "accept-ranges": "bytes",
      "last-modified": PUBLISHED.toUTCString(),
    });
    expect(answer.headers.get("etag")).toMatch(/^W\/"[0-9a-f]+-[0-9a-f]+"$/);

    reads.length = 0;
    const head = await fetch(url(), { method: "HEAD" });
    expect([head.status, head.headers.get("content-length"), (await head.arrayBuffer()).byteLength]).toEqual([200, String(CONTENT.length), 0]);
    expect(reads).toEqual([]);
  });

  it("serves a range, a suffix range, and refuses one beyond the end", async () => {
    const part = await fetch(url(), { headers: { range: "bytes=4-9" } });
    expect([part.status, part.headers.get("content-range"), part.headers.get("content-length")]).toEqual([206, `bytes 4-9/${CONTENT.length}`, "6"]);
    expect(Buffer.from(await part.arrayBuffer())).toEqual(CONTENT.subarray(4, 10));
    const tail = await fetch(url(), { headers: { range: "bytes=-5" } });
    expect(Buffer.from(await tail.arrayBuffer())).toEqual(CONTENT.subarray(CONTENT.length - 5));
    // Several ranges at once: the whole file, as before.
    expect((await fetch(url(), { headers: { range: "bytes=0-1,4-5" } })).status).toBe(200);
    const beyond = await fetch(url(), { headers: { range: `bytes=${CONTENT.length}-` } });
    expect([beyond.status, beyond.headers.get("content-range")]).toEqual([416, `bytes */${CONTENT.length}`]);
  });

  it("answers the validators: 304 when the client's copy is current, 412 when a precondition fails, the whole file when If-Range no longer holds", async () => {
    const etag = (await fetch(url(), { method: "HEAD" })).headers.get("etag")!;
    expect((await fetch(url(), { headers: { "if-none-match": etag } })).status).toBe(304);
    expect((await fetch(url(), { headers: { "if-modified-since": PUBLISHED.toUTCString() } })).status).toBe(304);
    expect((await fetch(url(), { headers: { "if-modified-since": new Date(PUBLISHED.getTime() - 60_000).toUTCString() } })).status).toBe(200);
    expect((await fetch(url(), { headers: { "if-match": '"another"' } })).status).toBe(412);
    expect((await fetch(url(), { headers: { "if-match": etag } })).status).toBe(200);
    expect((await fetch(url(), { headers: { range: "bytes=0-3", "if-range": etag } })).status).toBe(206);
    expect((await fetch(url(), { headers: { range: "bytes=0-3", "if-range": '"changed"' } })).status).toBe(200);
  });

  it("answers 404 for what the store does not have", async () => {
    const answer = await server.get(`/exports/${DOWNLOAD.replace("0c6b", "0c6c")}`);
    expect(answer.status).toBe(404);
    expect(answer.body.detail).toMatch(/^no export \/exports\/Export_geojson_uid_0c6c.*: it is not finished yet, or it was deleted after its maximum age$/);
  });
});
