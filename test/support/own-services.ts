/**
 * A PostgreSQL (with PostGIS) and a Redis of one test file's own, for fault tests that stop and
 * start them again: the shared ones (BASEMODEL_TEST_POSTGRES, BASEMODEL_TEST_REDIS) serve other
 * tests meanwhile and must never go away. PostgreSQL is started by scripts/test-services in a
 * folder and on a port of its own (as root it runs as the postgres user); Redis runs as a child
 * of the test. Both are stopped, and their folders removed, after the test file.
 */
import { execFile, spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import { afterFile } from "./cleanup.js";
import { freePort } from "./free-port.js";

const TEST_SERVICES = resolve(__dirname, "../../scripts/test-services");

export interface OwnService {
  /** A postgres:// URL of the PostGIS template database (copy it: services.ts), or a redis:// URL. */
  url: string;
  /** Stops the server as an administrator would: PostgreSQL's `pg_ctl stop -m fast`, Redis's SIGTERM. */
  stop(): Promise<void>;
  /** Starts it again on the same port, with the same data (PostgreSQL's; Redis keeps none). */
  start(): Promise<void>;
}

/** A PostgreSQL of this test file's own, started; its databases are copies of its template. */
export async function ownPostgres(): Promise<OwnService> {
  // Directly in /tmp: the postgres user must reach it, and its socket's path must stay short.
  const dir = mkdtempSync(join(tmpdir(), "basemodel-pg-"));
  const port = await freePort();
  const env = { ...process.env, BASEMODEL_SERVICES_DIR: dir, BASEMODEL_PG_PORT: String(port) };
  const run = (action: "start" | "stop") => promisify(execFile)(TEST_SERVICES, [action, "postgres"], { env });
  afterFile(async () => {
    await run("stop");
    rmSync(dir, { recursive: true, force: true });
  });
  const started = await run("start");
  const url = /BASEMODEL_TEST_POSTGRES=(\S+)/.exec(started.stdout)![1]!;
  return { url, stop: async () => void (await run("stop")), start: async () => void (await run("start")) };
}

/** A Redis of this test file's own, started, keeping nothing on disk, with these extra settings (`--maxmemory`, "3mb"). */
export async function ownRedis(...settings: string[]): Promise<OwnService> {
  const port = await freePort();
  let child: ChildProcess | undefined;
  const stop = async () => {
    const running = child;
    child = undefined;
    if (running === undefined || running.exitCode !== null) return;
    await new Promise((exited) => {
      running.once("exit", exited);
      running.kill("SIGTERM");
    });
  };
  const start = async () => {
    child = spawn("redis-server", ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--daemonize", "no", ...settings], { stdio: "ignore" });
    await untilListening(port, child);
  };
  afterFile(stop);
  await start();
  return { url: `redis://127.0.0.1:${port}`, stop, start };
}

/** Resolves once something accepts connections on the loopback `port`; fails if `child` exits first. */
async function untilListening(port: number, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the server meant for port ${port} exited with ${child.exitCode}`);
    const accepted = await new Promise<boolean>((answer) => {
      const socket = connect(port, "127.0.0.1");
      socket.once("connect", () => {
        socket.destroy();
        answer(true);
      });
      socket.once("error", () => answer(false));
    });
    if (accepted) return;
    if (Date.now() > deadline) throw new Error(`nothing listens on port ${port} after 10 s`);
    await new Promise((wait) => setTimeout(wait, 50));
  }
}
