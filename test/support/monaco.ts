import { copyFileSync, existsSync, mkdtempSync } from "node:fs";
import { join } from "node:path";
import { inject } from "vitest";
import { importOsm } from "../../src/server/fill/import.js";
import { MONACO } from "../server/osm/helpers.js";
import { freshDatabases } from "./services.js";

/**
 * The Monaco import, made once per test run and shared by the test files that only read it:
 * the importer writes a temporary file and renames it into place, so workers racing to make it are safe.
 */
export async function monacoStorePath(): Promise<string> {
  const path = join(inject("runDirectory"), "monaco.db");
  if (!existsSync(path)) await importOsm(MONACO, path);
  return path;
}

/** A private copy of the Monaco import, for a test that changes it. */
export async function monacoStoreCopy(): Promise<string> {
  const source = await monacoStorePath();
  const copy = join(mkdtempSync(join(inject("runDirectory"), "monaco-copy-")), "monaco.db");
  copyFileSync(source, copy);
  return copy;
}

let monacoPostgis: Promise<string> | undefined;

/**
 * The Monaco extract loaded into a fresh PostGIS database by osm2pgsql (about 5 s), once per
 * test file, dropped after it; `template` is the database to copy (postgresTemplateUrl()).
 */
export function monacoPostgisUrl(template: string): Promise<string> {
  monacoPostgis ??= (async () => {
    const { url } = await freshDatabases(template)();
    await importOsm(MONACO, url);
    return url;
  })();
  return monacoPostgis;
}
