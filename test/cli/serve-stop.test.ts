/**
 * SIGTERM to `basemodel serve --processes 2` while 50 clients keep asking for Monaco's features
 * over keep-alive connections, from each store: a request under way finishes (a whole 200), one
 * the server reads while it stops is refused with a 503 in our shape and `Connection: close`,
 * and one that comes later finds the connection refused. Never a 500 (it once said "The database
 * connection is not open"), never an answer cut short, never a request read and then dropped.
 */
import { Agent, request } from "node:http";
import { describe, expect, it } from "vitest";
import { MONACO } from "../server/osm/helpers.js";
import { monacoStorePath } from "../support/monaco.js";
import { postgresTemplateUrl } from "../support/requirements.js";
import { freshDatabases } from "../support/services.js";
import { basemodel, scratchDir, startServe } from "./helpers.js";

const ALL_OF_MONACO = "7.40 43.72, 7.44 43.72, 7.44 43.76, 7.40 43.76, 7.40 43.72";
const CLIENTS = 50;

/** How one request ended, and whether it was sent before the SIGTERM, on an open connection (so the server gets to read it). */
interface Outcome {
  ending: string;
  sentBeforeStop: boolean;
  endedAfterStop: boolean;
}

/** Clients that keep sending POST /raw/all until told to stop; `stopping()` marks when the server was told to. */
function load(url: string) {
  let stopSentAt: number | undefined;
  const agent = new Agent({ keepAlive: true, maxSockets: CLIENTS });
  const { hostname, port } = new URL(url);
  const body = JSON.stringify({ area: ALL_OF_MONACO });
  const outcomes: Outcome[] = [];
  let stopped = false;
  const once = () =>
    new Promise<Omit<Outcome, "endedAfterStop">>((resolve) => {
      // When the request went out: at once on a connection open already, else once connected.
      let sentAt = Number.POSITIVE_INFINITY;
      const req = request({ hostname, port, path: "/raw/all", method: "POST", agent, headers: { "content-type": "application/json", "content-length": Buffer.byteLength(body) } });
      const sentBeforeStop = () => sentAt < (stopSentAt ?? Number.POSITIVE_INFINITY);
      req.on("socket", (socket) => {
        if (req.reusedSocket || !socket.connecting) sentAt = Date.now();
        else socket.once("connect", () => (sentAt = Date.now()));
      });
      req.on("response", (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (chunk) => (text += chunk));
        res.on("aborted", () => resolve({ ending: `${res.statusCode} cut short`, sentBeforeStop: sentBeforeStop() }));
        res.on("end", () => {
          let ending = `${res.statusCode} ${res.statusCode === 200 ? "" : text}`;
          if (res.statusCode === 200) {
            try {
              ending += `${(JSON.parse(text) as { features: unknown[] }).features.length > 0 ? "features" : "no features"}`;
            } catch {
              ending += "not JSON";
            }
          }
          if (res.statusCode !== 200) ending += ` (connection: ${res.headers.connection})`;
          resolve({ ending, sentBeforeStop: sentBeforeStop() });
        });
      });
      req.on("error", (error: NodeJS.ErrnoException) => resolve({ ending: `connection ${error.code ?? error.message}`, sentBeforeStop: sentBeforeStop() }));
      req.end(body);
    });
  const clients = Array.from({ length: CLIENTS }, async () => {
    while (!stopped) {
      const outcome = { ...(await once()), endedAfterStop: stopSentAt !== undefined };
      outcomes.push(outcome);
      // A refused connection comes back at once: a pause, rather than thousands of them.
      if (outcome.ending.startsWith("connection")) await new Promise((resolve) => setTimeout(resolve, 20));
    }
  });
  return {
    outcomes,
    stopping: () => void (stopSentAt = Date.now()),
    async end(): Promise<void> {
      stopped = true;
      await Promise.all(clients);
      agent.destroy();
    },
  };
}

const template = postgresTemplateUrl();

/** Monaco in a fresh PostGIS database, imported by the CLI. */
async function postgisMonaco(): Promise<string> {
  const { url } = await freshDatabases(template!)();
  const imported = await basemodel(["import", MONACO, "--db", url]);
  expect(imported.code, imported.stderr).toBe(0);
  return url;
}

/** Each store, as serve's --db names it. */
const STORES: Array<[name: string, store: () => Promise<string>]> = [["SQLite", monacoStorePath], ...(template === undefined ? [] : [["PostGIS", postgisMonaco] as [string, () => Promise<string>]])];

describe("SIGTERM to basemodel serve --processes 2 under load", { timeout: 300_000 }, () => {
  it.each(STORES)("%s: requests under way finish, later ones are refused cleanly", async (_name, store) => {
    const server = await startServe(["--db", await store(), "--port", "0", "--processes", "2", "--exports", scratchDir()]);
    const clients = load(server.url);
    // Under load: every client has had answers, and requests are under way.
    while (clients.outcomes.filter((outcome) => outcome.ending.startsWith("200")).length < CLIENTS) await new Promise((resolve) => setTimeout(resolve, 20));
    clients.stopping();
    server.child.kill("SIGTERM");
    expect(await server.exited).toBe(0);
    await clients.end();

    const endings = new Map<string, number>();
    for (const { ending } of clients.outcomes) endings.set(ending, (endings.get(ending) ?? 0) + 1);
    const allowed = ["200 features", `503 {"detail":"the server is stopping; try again in a moment"} (connection: close)`, "connection ECONNREFUSED", "connection ECONNRESET"];
    expect([...endings.keys()].filter((ending) => !allowed.includes(ending)), JSON.stringify([...endings])).toEqual([]);
    // A request sent before the SIGTERM is answered: the server reads it before it closes its connection.
    const dropped = clients.outcomes.filter((outcome) => outcome.sentBeforeStop && outcome.ending.startsWith("connection"));
    expect(dropped, JSON.stringify([...endings])).toEqual([]);
    // The SIGTERM came under load: requests were under way, and finished.
    expect(clients.outcomes.filter((outcome) => outcome.sentBeforeStop && outcome.endedAfterStop && outcome.ending === "200 features").length).toBeGreaterThan(0);
    expect(server.output().stderr).not.toMatch(/ 500 |ERROR/);
  });
});
