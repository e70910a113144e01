/**
 * `basemodel replicate`: keeps a PostGIS store current from a replication server, through
 * osm2pgsql-replication. Each change it downloads is applied by `basemodel update` (run by a
 * small script osm2pgsql-replication calls in osm2pgsql's place), so that every change gets
 * the update's data quality checks and moves the store's replication timestamp.
 */
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { shownLocation } from "../server/store/location.js";
import { storeFactory } from "../server/store/open.js";
import { checkFiles } from "./update.js";
import { UsageError } from "./usage-error.js";

export interface ReplicateFlags {
  db: string;
  server?: string;
  once?: boolean;
  /** --quality-rules (or its alias --rules). */
  qualityRules?: string;
  /** Commander's --no-quality. */
  quality?: boolean;
}

export interface ReplicateIo {
  stdout: { write(text: string): unknown };
  stderr: { write(text: string): unknown };
}

const EXIT_REPLICATED = 0;

const quote = (value: string): string => `'${value.replace(/'/g, `'\\''`)}'`;

/**
 * The script osm2pgsql-replication runs for each change, with osm2pgsql's arguments and the
 * change file last. The database URL (it may hold a password) comes from the environment.
 */
function applyScript(flags: ReplicateFlags): string {
  const extra = [...(flags.qualityRules === undefined ? [] : ["--quality-rules", resolve(flags.qualityRules)]), ...(flags.quality === false ? ["--no-quality"] : [])].map(quote).join(" ");
  return ['#!/bin/sh', 'for change in "$@"; do :; done', `exec "$BASEMODEL_NODE" "$BASEMODEL_CLI" update "$change" --db "$BASEMODEL_DB" ${extra}`, ""].join("\n");
}

/** Keeps the store current; what stops it (the store or the server not answering, a change that fails) is said by the shell (shell.ts). */
export async function runReplicate(flags: ReplicateFlags, io: ReplicateIo): Promise<number> {
  const factory = storeFactory(flags.db);
  if (factory.kind !== "osm2pgsql") {
    throw new UsageError(`replicate keeps a PostGIS store current (--db postgres://...); bring the SQLite file ${flags.db} up to date with \`basemodel update <change> --db ${flags.db}\``);
  }
  if (flags.server !== undefined && !/^https?:\/\/[^/]/.test(flags.server)) throw new UsageError(`--server ${flags.server} is not an http:// or https:// URL`);
  checkFiles([[flags.qualityRules, "--quality-rules"]]);
  const folder = mkdtempSync(join(tmpdir(), "basemodel-replicate-"));
  try {
    const applyCommand = join(folder, "apply-change");
    writeFileSync(applyCommand, applyScript(flags));
    chmodSync(applyCommand, 0o700);
    const summary = await factory.replicate(flags.db, {
      server: flags.server,
      once: flags.once === true,
      applyCommand,
      env: { BASEMODEL_NODE: process.execPath, BASEMODEL_CLI: resolve(process.argv[1]!), BASEMODEL_DB: flags.db },
      onLog: (text) => io.stderr.write(text),
    });
    io.stdout.write(
      summary.to === summary.from
        ? `${shownLocation(flags.db)} is up to date with ${summary.server} (sequence ${summary.to})\n`
        : `Replicated ${shownLocation(flags.db)} from ${summary.server}: sequence ${summary.from} to ${summary.to}\n`,
    );
    return EXIT_REPLICATED;
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}
