/**
 * `basemodel serve`: the reference server on a store made by `basemodel import`, or on the
 * demo dataset (generated afresh into a temporary folder) when no --db is given.
 *
 * main.ts loads this module only when the command runs: validate never loads fastify,
 * SQLite or geometry code.
 */
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { UsageError } from "./usage-error.js";

export interface ServeFlags {
  db?: string;
  port: number;
  host: string;
}

export interface ServeIo {
  stdout: { write(text: string): unknown };
  stderr: { write(text: string): unknown };
  /** Resolves when the process is asked to stop (SIGINT, SIGTERM). */
  stopped: Promise<void>;
}

const OPTIONAL = ["fastify", "@fastify/swagger", "@fastify/swagger-ui", "better-sqlite3", "geos-wasm"];

/** Loads the server's optional dependencies, or says in one line what to install. */
async function loadServer() {
  try {
    const [server, store] = await Promise.all([import("../server/app.js"), import("../store/sqlite.js")]);
    return { ...server, ...store };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ERR_MODULE_NOT_FOUND") {
      throw new UsageError(`the server needs its optional dependencies: npm install ${OPTIONAL.join(" ")}`);
    }
    throw error;
  }
}

export async function runServe(flags: ServeFlags, io: ServeIo, version: string): Promise<number> {
  const db = flags.db === undefined ? undefined : resolve(flags.db);
  if (db !== undefined && !existsSync(db)) throw new UsageError(`no store at ${db}; create one with basemodel import <file.osm.pbf> --db ${flags.db}`);
  const { createServer, sqliteStoreFactory } = await loadServer();

  let demoDir: string | undefined;
  let location = db;
  if (location === undefined) {
    const { createDemoStore } = await import("../demo/index.js");
    demoDir = mkdtempSync(join(tmpdir(), "basemodel-demo-"));
    location = join(demoDir, "demo.db");
    await createDemoStore(location);
  }
  try {
    let store;
    try {
      store = await sqliteStoreFactory.open(location);
    } catch (error) {
      throw new UsageError((error as Error).message);
    }
    const app = await createServer({ store, version });
    try {
      const address = await app.listen({ port: flags.port, host: flags.host });
      const meta = await store.readMeta();
      io.stdout.write(
        `basemodel serve: ${address} (API docs at ${address}/docs)\n` +
          `data: ${db ?? "the demo dataset (generated; pass --db for your own import)"}, last updated ${meta?.replicationTimestamp ?? "unknown"}\n`,
      );
      await io.stopped;
    } finally {
      await app.close();
      await store.close();
    }
  } finally {
    if (demoDir !== undefined) rmSync(demoDir, { recursive: true, force: true });
  }
  return 0;
}
