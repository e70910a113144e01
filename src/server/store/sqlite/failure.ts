/** What an error of SQLite's means for the store file it came from, as a typed error (src/server/errors.ts). */
import { StoreDamaged, StoreUnwritable, type BasemodelError } from "../../errors.js";

/** Cut short or overwritten: such a file fails when it is opened, or only when a damaged page is read. */
const DAMAGED = new Set(["SQLITE_CORRUPT", "SQLITE_NOTADB"]);

/** Disk full, permission denied, a read-only or vanished folder, a lock held too long: the environment's fault, not a bug. */
const ENVIRONMENT = new Set(["SQLITE_FULL", "SQLITE_IOERR", "SQLITE_CANTOPEN", "SQLITE_READONLY", "SQLITE_PERM", "SQLITE_BUSY", "SQLITE_LOCKED"]);

/**
 * The typed error for `error`, met reading or writing the store at `path`; undefined for any
 * other (SQLITE_ERROR included: that one is a bug). File system errors (a rename, a removal)
 * are the environment's too.
 */
export function sqliteFailure(path: string, error: unknown): BasemodelError | undefined {
  const { code, syscall, message } = error as NodeJS.ErrnoException;
  // better-sqlite3 gives extended codes (SQLITE_IOERR_WRITE): their primary code is what they mean.
  const primary = /^SQLITE_[A-Z]+/.exec(code ?? "")?.[0];
  if (primary !== undefined && DAMAGED.has(primary)) return new StoreDamaged({ location: path, why: message }, { cause: error });
  if (syscall !== undefined || (primary !== undefined && ENVIRONMENT.has(primary))) return new StoreUnwritable({ location: path, why: message }, { cause: error });
  return undefined;
}
