import { request, Agent } from "node:http";
import { afterAll, describe, expect, it } from "vitest";
import { firstComeFirstServed } from "../../../src/server/http/turns.js";
import { startServe, type ServeProcess } from "../../cli/helpers.js";
import { MONACO_CENTRE, monacoStorePath, ringOf } from "./helpers.js";

describe("firstComeFirstServed", () => {
  it("releases waiting requests in arrival order, one per turn of the event loop", async () => {
    const turn = firstComeFirstServed();
    const log: string[] = [];
    const started = ["a", "b", "c"].map((name) =>
      turn().then(() => {
        log.push(name);
        // A request that arrives while others wait goes to the back of the queue.
        if (name === "a") void turn().then(() => log.push("d"));
        // Releases are spread over turns of the loop, not made in one burst: a callback
        // scheduled while a runs comes before c is released.
        setImmediate(() => log.push(`turn after ${name}`));
      }),
    );
    expect(log).toEqual([]);
    await Promise.all(started);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(log.filter((entry) => !entry.startsWith("turn"))).toEqual(["a", "b", "c", "d"]);
    // The loop comes round between releases: that is where a server reads new requests.
    expect(log.indexOf("turn after a")).toBeLessThan(log.indexOf("c"));
  });

  it("starts again after the queue has emptied", async () => {
    const turn = firstComeFirstServed();
    await turn();
    await turn();
    const log: number[] = [];
    await Promise.all([1, 2].map((n) => turn().then(() => log.push(n))));
    expect(log).toEqual([1, 2]);
  });
});

/** One POST over `agent` (keep-alive), resolving when the answer has been read. */
function post(agent: Agent, url: string, path: string, body: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const sent = request(new URL(path, url), { method: "POST", agent, headers: { "content-type": "application/json" } }, (response) => {
      response.resume();
      response.on("end", () => resolve(response.statusCode ?? 0));
    });
    sent.on("error", reject);
    sent.end(body);
  });
}

describe("basemodel serve under load", () => {
  let serve: ServeProcess | undefined;
  afterAll(async () => {
    serve?.child.kill("SIGTERM");
    await serve?.exited;
  });

  it("serves every connection in turn: none waits while others are answered again and again", async () => {
    serve = await startServe(["--db", await monacoStorePath(), "--port", "0"]);
    const connections = 16;
    const total = 320;
    const agent = new Agent({ keepAlive: true, maxSockets: connections });
    const body = JSON.stringify({ area: ringOf(MONACO_CENTRE), tags: "building" });
    const answered = new Array<number>(connections).fill(0);
    const statuses = new Set<number>();
    let sent = 0;
    // Every connection sends its next request as soon as its answer is in, so the server always
    // has a queue: first come, first served then answers them round-robin.
    await Promise.all(
      answered.map(async (_, index) => {
        while (sent < total) {
          sent++;
          statuses.add(await post(agent, serve!.url, "/raw/all", body));
          answered[index]!++;
        }
      }),
    );
    agent.destroy();
    expect([...statuses]).toEqual([200]);
    const fair = total / connections;
    expect(Math.min(...answered)).toBeGreaterThanOrEqual(fair - 3);
    expect(Math.max(...answered)).toBeLessThanOrEqual(fair + 3);
  });
});
