/**
 * Fresh PostgreSQL databases for tests: each one a copy of the PostGIS template that
 * scripts/test-services prepares (about 60 ms), dropped when the test is done with it.
 */
import { randomUUID } from "node:crypto";
import pg from "pg";
import { afterFile } from "./cleanup.js";

export interface TestDatabase {
  /** A postgres:// URL of the new database. */
  url: string;
  drop(): Promise<void>;
}

export async function createDatabase(templateUrl: string): Promise<TestDatabase> {
  const template = new URL(templateUrl);
  const name = `basemodel_test_${randomUUID().replaceAll("-", "")}`;
  const admin = new URL(templateUrl);
  admin.pathname = "/postgres";
  await onAdmin(admin, `create database ${name} template ${template.pathname.slice(1)}`);
  const url = new URL(templateUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: () => onAdmin(admin, `drop database if exists ${name} with (force)`),
  };
}

async function onAdmin(url: URL, statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: url.toString() });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

/** Fresh databases for one test file, each a copy of the template, all dropped after the file. */
export function freshDatabases(templateUrl: string): () => Promise<TestDatabase> {
  return async () => {
    const database = await createDatabase(templateUrl);
    afterFile(() => database.drop());
    return database;
  };
}
