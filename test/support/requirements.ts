/**
 * What some tests need beyond Node and the repository: independent tools to compare against
 * (osmium, GDAL) and the real fAIr items (AGPL data, kept outside the project in ../shared).
 * Without one, the tests that need it skip with one line saying what to install. CI sets
 * BASEMODEL_TEST_ALL=1 (see .ci/run), which turns a missing requirement into a failure: CI
 * always runs every test. One exception: GDAL's Parquet driver (hasGdalParquet), which no
 * Debian package has.
 */
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import { resolve } from "node:path";

export const REQUIRE_ALL = process.env.BASEMODEL_TEST_ALL === "1";

/** Says in one line why tests skip; with REQUIRE_ALL, fails the test file instead. */
function missing(reason: string): false {
  if (REQUIRE_ALL) throw new Error(`${reason}, and BASEMODEL_TEST_ALL=1 requires every test to run`);
  console.warn(`skipped: ${reason}`);
  return false;
}

/** Whether every command runs here; the commands are what `debianPackage` installs. */
export function hasTool(commands: readonly string[], debianPackage: string): boolean {
  const absent = commands.filter((command) => spawnSync(command, ["--version"], { stdio: "ignore" }).error !== undefined);
  return absent.length === 0 || missing(`${absent.join(" and ")} not found; install the Debian package ${debianPackage} to run these tests`);
}

const FAIR_MODELS = resolve(__dirname, "../../../shared/data/fair-models");

/**
 * The folder of fAIr's real catalogue files, when this clone sits beside ../shared (the
 * project's own fixtures cover what these tests check for the product).
 */
export function fairModelsFolder(): string | undefined {
  if (existsSync(FAIR_MODELS)) return FAIR_MODELS;
  missing(`fAIr's real items (AGPL data, not part of the project) not found at ${FAIR_MODELS}; these tests run where they are`);
  return undefined;
}

const START_SERVICES = 'install the Debian packages postgresql-15-postgis-3, osm2pgsql and redis-server, then run `eval "$(scripts/test-services start)"`';

/**
 * A PostgreSQL database with PostGIS to copy fresh databases from (test/support/services.ts), as
 * scripts/test-services starts it (its URL in BASEMODEL_TEST_POSTGRES).
 */
export function postgresTemplateUrl(): string | undefined {
  const url = process.env.BASEMODEL_TEST_POSTGRES;
  if (url) return url;
  missing(`BASEMODEL_TEST_POSTGRES is not set; ${START_SERVICES} to run these tests`);
  return undefined;
}

/** A Redis server for the BullMQ queue's tests, as scripts/test-services starts it (BASEMODEL_TEST_REDIS). */
export function redisUrl(): string | undefined {
  const url = process.env.BASEMODEL_TEST_REDIS;
  if (url) return url;
  missing(`BASEMODEL_TEST_REDIS is not set; ${START_SERVICES} to run these tests`);
  return undefined;
}

/**
 * Whether a test may start a PostgreSQL with PostGIS and a Redis of its own (own-services.ts),
 * from the Debian packages that scripts/test-services uses.
 */
export function canStartServices(): boolean {
  const versions = existsSync("/usr/lib/postgresql") ? readdirSync("/usr/lib/postgresql") : [];
  if (!versions.some((version) => existsSync(`/usr/lib/postgresql/${version}/bin/initdb`))) {
    return missing("PostgreSQL's initdb not found in /usr/lib/postgresql; install the Debian package postgresql-15-postgis-3 to run these tests");
  }
  return hasTool(["redis-server"], "redis-server");
}

/**
 * Whether the tests run as root, which mounting a small file system needs (small-disk.ts).
 * BASEMODEL_TEST_ALL does not enforce it: no setup gives a normal user that right (CI runs as root).
 */
export function runsAsRoot(what: string): boolean {
  if (process.getuid?.() === 0) return true;
  console.warn(`skipped: ${what} needs root, to mount a small file system; even under BASEMODEL_TEST_ALL=1`);
  return false;
}

/**
 * Whether the installed GDAL can read Parquet (a driver built with Arrow/Parquet, GDAL >= 3.5).
 * The one requirement BASEMODEL_TEST_ALL does not enforce: Debian's GDAL (CI's, 3.6.2 in
 * Debian 12) is built without it, and Debian packages no other Parquet reader. The GeoParquet
 * export is read by DuckDB in every run (test/server/export/parquet-reader.ts); this adds GDAL's word
 * where a GDAL with the driver is installed.
 */
export function hasGdalParquet(): boolean {
  const formats = spawnSync("ogrinfo", ["--formats"], { encoding: "utf8" });
  if (formats.stdout && /^\s*Parquet\b/m.test(formats.stdout)) return true;
  console.warn("skipped: this GDAL has no Parquet driver (Debian's GDAL is built without Arrow/Parquet; DuckDB reads the GeoParquet exports in the other tests); even under BASEMODEL_TEST_ALL=1");
  return false;
}
