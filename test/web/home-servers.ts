/**
 * The home page's servers as they are run: `basemodel serve` over Monaco after a mapathon, its
 * exports on the embedded queue over a SQLite store, or scaled out (docs/server.md, "Scaling out"):
 * serve over PostGIS filled by osm2pgsql (`basemodel import` and `update` to a postgres:// URL)
 * with its exports on Redis, run by a `basemodel worker` process. Every process stops after the
 * test file.
 */
import { Redis } from "ioredis";
import { basemodel, scratchDir, startServe, startWorker, type ServeProcess } from "../cli/helpers.js";
import { updateFixture } from "../server/fill/helpers.js";
import { MONACO } from "../server/osm/helpers.js";
import { mapathonStorePath } from "../server/routes/mapathon.js";
import { httpClient, type RunningServer } from "../server/routes/helpers.js";
import { afterFile } from "../support/cleanup.js";
import { freePort } from "../support/free-port.js";
import { postgresTemplateUrl, redisUrl } from "../support/requirements.js";
import { freshDatabases } from "../support/services.js";

export interface HomeServer extends Pick<RunningServer, "url" | "get" | "post"> {
  /** Stops serve (SIGTERM) and starts it again on the same port, as an operator's restart does. */
  restart(): Promise<void>;
}

/** Runs a long-lived command until the end of the file. */
function stoppedAfterFile<T extends Omit<ServeProcess, "url">>(started: T): T {
  afterFile(async () => {
    started.child.kill("SIGTERM");
    await started.exited;
  });
  return started;
}

/** `basemodel serve` with `args`, exports in `exports`, on a port of its own, kept for its restarts. */
async function serve(args: string[], exports = scratchDir()): Promise<HomeServer> {
  const port = String(await freePort());
  const start = async () => stoppedAfterFile(await startServe([...args, "--port", port, "--exports", exports]));
  let running = await start();
  return {
    url: running.url,
    ...httpClient(running.url),
    restart: async () => {
      running.child.kill("SIGTERM");
      await running.exited;
      running = await start();
    },
  };
}

async function embedded(): Promise<HomeServer> {
  return serve(["--db", await mapathonStorePath()]);
}

/** What the fill of PostGIS runs, failing with what it printed. */
async function run(args: string[]): Promise<void> {
  const ran = await basemodel(args);
  if (ran.code !== 0) throw new Error(`basemodel ${args.join(" ")} exited with ${ran.code}: ${ran.stderr}`);
}

async function scaledOut(template: string, redis: string): Promise<HomeServer> {
  const { url: database } = await freshDatabases(template)();
  await run(["import", MONACO, "--db", database]);
  await run(["update", updateFixture("monaco-mapathon-1.osc"), "--changesets", updateFixture("monaco-mapathon-changesets.osm"), "--db", database]);
  // A database of the Redis of its own (the URL's path): the CLI's queue name is fixed.
  const queue = `${redis}/12`;
  const flush = async () => {
    const client = new Redis(queue);
    await client.flushdb();
    await client.quit();
  };
  await flush();
  afterFile(flush);
  // The servers and the workers share one export folder (a shared mount across machines).
  const exports = scratchDir();
  const server = await serve(["--db", database, "--queue", queue], exports);
  stoppedAfterFile(await startWorker(["--queue", queue, "--db", database, "--exports", exports]));
  return server;
}

/**
 * The servers the page's journeys run against, for describe.each: the embedded one, and the
 * scaled-out one where scripts/test-services runs (else one line says what to set).
 */
export function homeServers(): Array<[name: string, start: () => Promise<HomeServer>, screenshots: string]> {
  const template = postgresTemplateUrl();
  const redis = template === undefined ? undefined : redisUrl();
  // README shows the embedded server's screenshots; the other's go to a folder of their own.
  const servers: Array<[string, () => Promise<HomeServer>, string]> = [["SQLite, embedded queue", embedded, ""]];
  if (template !== undefined && redis !== undefined) servers.push(["PostGIS, Redis and a worker", () => scaledOut(template, redis), "postgis-redis"]);
  return servers;
}
