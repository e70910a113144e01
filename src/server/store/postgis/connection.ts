/**
 * The PostGIS store's connections: a pool (pg, an optional peer dependency loaded here and
 * nowhere else), and the two ways its queries run: on the pool, or inside one REPEATABLE READ
 * transaction (a snapshot). Long reads stream through a server-side cursor, in batches.
 */
import { createHash } from "node:crypto";
import type pg from "pg";
import { BasemodelError, DriverMissing, StoreFailed, StoreUnreachable } from "../../errors.js";
import { shownLocation } from "../location.js";
import { StoreUnavailable } from "../../errors.js";

type Pg = typeof pg;

export const DRIVERS = ["pg"];

async function loadDriver(): Promise<Pg> {
  try {
    return (await import("pg")).default;
  } catch (error) {
    throw new DriverMissing({ user: "The PostGIS store", packages: DRIVERS }, { cause: error });
  }
}

/** Rows come as arrays, bigint (osm_id, changeset) as a number: OSM ids stay far below 2^53. */
const INT8 = 20;

/** A pool for `url`, once a first connection shows that the database is reachable and has PostGIS. */
export async function openPool(url: string): Promise<pg.Pool> {
  const driver = await loadDriver();
  const types = { getTypeParser: (oid: number, format?: "text" | "binary") => (oid === INT8 ? Number : driver.types.getTypeParser(oid, format as "text")) };
  const pool = new driver.Pool({ connectionString: url, types, max: POOL_SIZE });
  // A connection that loses its server (a restart, a failover) emits "error", idle or in use:
  // the pool listens to its idle ones (and passes it on here), this to the ones in use, so that
  // the process outlives it. The statement under way fails, and the pool drops the connection.
  pool.on("error", () => undefined);
  pool.on("connect", (client) => client.on("error", () => undefined));
  try {
    const { rows } = await pool.query<{ postgis: boolean }>("SELECT EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'postgis') AS postgis");
    if (!rows[0]!.postgis) throw new StoreFailed({ location: shownLocation(url), why: "it has no PostGIS: run CREATE EXTENSION postgis in it first" });
  } catch (error) {
    await pool.end();
    throw connectionError(url, error);
  }
  return pool;
}

/**
 * Connections per process: a few queries in flight keep one process busy. Measured on /raw/all's
 * query (Monaco's centre, buildings): one Node process answered 573 to 682 queries a second with
 * 2 to 8 in flight, against 503 for the SQLite store in process.
 */
const POOL_SIZE = 8;


/**
 * The typed error for what stops the store at `url`: an unreachable server, a refused login, a
 * missing database, or a database that refused a statement. One of ours passes as it is.
 */
export function connectionError(url: string, error: unknown): BasemodelError {
  if (error instanceof BasemodelError) return error;
  const code = (error as { code?: unknown }).code;
  const where = shownLocation(url);
  const reasons: Record<string, string> = {
    ECONNREFUSED: "no PostgreSQL server answers there",
    ENOTFOUND: "the host name is not known",
    ETIMEDOUT: "the server did not answer in time",
    "28P01": "the password was refused",
    "28000": "the server refuses this user",
    "3D000": "the database does not exist",
  };
  const reason = typeof code === "string" ? reasons[code] : undefined;
  if (reason === undefined) return new StoreFailed({ location: where, why: (error as Error).message }, { cause: error });
  return new StoreUnreachable({ location: where, reason }, { cause: error });
}

/**
 * What the server or the socket says when the database is away rather than the statement wrong:
 * SQLSTATE class 08 (connection exception) and 57P01-57P03 (shut down by an administrator,
 * crashed, starting up), refused or broken connections, and pg's own words for a connection
 * that ended (which have no code).
 */
function isUnreachable(error: unknown): boolean {
  const code = (error as { code?: unknown }).code;
  if (typeof code === "string") return code.startsWith("08") || ["57P01", "57P02", "57P03", "ECONNREFUSED", "ECONNRESET", "EPIPE", "ETIMEDOUT", "EHOSTUNREACH", "ENETUNREACH", "EAI_AGAIN"].includes(code);
  return error instanceof Error && /^Connection terminated|connection error and is not queryable/.test(error.message);
}

/** A failure for want of the database as a StoreUnavailable; any other as it is. */
export function storeError(error: unknown): unknown {
  return isUnreachable(error) ? new StoreUnavailable({ why: `PostgreSQL: ${(error as Error).message}` }, { cause: error }) : error;
}

/** A connection of the pool for statements of its own (a transaction, a cursor). */
async function connect(pool: pg.Pool): Promise<pg.PoolClient> {
  try {
    return await pool.connect();
  } catch (error) {
    throw storeError(error);
  }
}

/** How a store's queries reach the database. */
export interface Queries {
  /**
   * All rows of a statement (a bounded one: a page, a count). `prepared`: parsed and planned once
   * per connection (see statementName), for a statement every request sends.
   */
  rows(sql: string, parameters: readonly unknown[], prepared?: boolean): Promise<unknown[][]>;
  /** The rows of a statement in batches from a server-side cursor; stopping early closes it. */
  stream(sql: string, parameters: readonly unknown[]): AsyncGenerator<unknown[]>;
}

/**
 * A name that prepares `sql` once per connection, for a statement sent thousands of times with
 * other values: after five runs PostgreSQL may keep a generic plan and stop planning it (an area
 * query's geometry is then a sub-select, built once per run: see where.ts). A connection keeps
 * what it prepared until it closes, so only statements of a few shapes are named.
 */
export function statementName(sql: string): string {
  return `basemodel_${createHash("sha1").update(sql).digest("hex").slice(0, 20)}`;
}

/** pg's query config for `sql`, named when it is to be prepared. */
function statement(sql: string, parameters: readonly unknown[], prepared: boolean | undefined) {
  return { ...(prepared && { name: statementName(sql) }), text: sql, values: parameters as unknown[], rowMode: "array" as const };
}

/** Rows fetched per round trip of a cursor. */
const BATCH = 1000;

let cursors = 0;

/** What a cursor needs of a connection. */
type Querier = Pick<pg.ClientBase, "query">;

async function* fetchCursor(client: Querier, sql: string, parameters: readonly unknown[]): AsyncGenerator<unknown[]> {
  const name = `basemodel_cursor_${++cursors}`;
  await client.query(`DECLARE ${name} NO SCROLL CURSOR FOR ${sql}`, parameters as unknown[]);
  const fetchBatch = (): Promise<{ rows: unknown[][] }> => {
    const batch = client.query<unknown[]>({ text: `FETCH ${BATCH} FROM ${name}`, rowMode: "array" });
    // Awaited once the rows before it are handed out: should it fail meanwhile (the server
    // gone), that is not an unhandled rejection, which would end the process.
    batch.catch(() => undefined);
    return batch;
  };
  let next: Promise<{ rows: unknown[][] }> | undefined = fetchBatch();
  try {
    while (next !== undefined) {
      const { rows }: { rows: unknown[][] } = await next;
      // The next batch is asked for before this one is handed out: the database finds it while
      // this process writes these rows, instead of each waiting for the other.
      next = rows.length === BATCH ? fetchBatch() : undefined;
      yield* rows;
    }
  } finally {
    // A consumer that stops early leaves a batch in flight: it is settled before the cursor closes.
    await next?.catch(() => undefined);
    await client.query(`CLOSE ${name}`).catch(() => undefined);
  }
}

/** Each statement on any connection of the pool; a cursor on a connection of its own, in a transaction of its own. */
export class PoolQueries implements Queries {
  constructor(private readonly pool: pg.Pool) {}

  async rows(sql: string, parameters: readonly unknown[], prepared?: boolean): Promise<unknown[][]> {
    try {
      return (await this.pool.query<unknown[]>(statement(sql, parameters, prepared))).rows;
    } catch (error) {
      throw storeError(error);
    }
  }

  async *stream(sql: string, parameters: readonly unknown[]): AsyncGenerator<unknown[]> {
    const client = await connect(this.pool);
    let failed: unknown;
    try {
      await client.query("BEGIN READ ONLY");
      yield* fetchCursor(client, sql, parameters);
    } catch (error) {
      failed = error;
      throw storeError(error);
    } finally {
      await client.query(failed === undefined ? "COMMIT" : "ROLLBACK").catch(() => undefined);
      // A client whose transaction could not end is not handed to anyone else.
      client.release(failed instanceof Error ? failed : undefined);
    }
  }
}

/**
 * Everything on one connection inside one REPEATABLE READ transaction: every read sees the data
 * as of the first one, whatever commits meanwhile. Cursors of several streams interleave on it.
 */
export class SnapshotQueries implements Queries {
  /** The last statement sent: the next waits for it, as pg wants one statement at a time per connection. */
  private last: Promise<unknown> = Promise.resolve();
  /** The connection's query(), one statement at a time, whoever sends it (several cursors interleave). */
  private readonly serial = {
    query: ((...args: Parameters<pg.PoolClient["query"]>) => {
      const next = this.last.then(() => (this.client.query as (...a: unknown[]) => Promise<unknown>)(...args));
      this.last = next.catch(() => undefined);
      return next;
    }) as pg.PoolClient["query"],
  };

  private constructor(private readonly client: pg.PoolClient) {}

  static async begin(pool: pg.Pool): Promise<SnapshotQueries> {
    const client = await connect(pool);
    try {
      await client.query("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY");
      // The snapshot is taken at the first statement, not at BEGIN.
      await client.query("SELECT 1");
    } catch (error) {
      client.release(error as Error);
      throw storeError(error);
    }
    return new SnapshotQueries(client);
  }

  async rows(sql: string, parameters: readonly unknown[], prepared?: boolean): Promise<unknown[][]> {
    try {
      return (await this.serial.query<unknown[]>(statement(sql, parameters, prepared))).rows;
    } catch (error) {
      throw storeError(error);
    }
  }

  async *stream(sql: string, parameters: readonly unknown[]): AsyncGenerator<unknown[]> {
    try {
      yield* fetchCursor(this.serial, sql, parameters);
    } catch (error) {
      throw storeError(error);
    }
  }

  async end(): Promise<void> {
    try {
      await this.serial.query("COMMIT");
      this.client.release();
    } catch (error) {
      this.client.release(error as Error);
    }
  }
}
