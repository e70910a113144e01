import { copyFileSync } from "node:fs";
import { resolve } from "node:path";
import Database from "better-sqlite3";
import { FEATURE_TABLES } from "../../../src/model/features.js";

const here = new URL(".", import.meta.url).pathname;
export const updateFixture = (name: string): string => resolve(here, "../../../fixtures/updates", name);

/** A copy of the store as it is now, to compare with later (sameStore). */
export function snapshotStore(path: string): string {
  const copy = `${path}.${Date.now()}.before`;
  copyFileSync(path, copy);
  return copy;
}

/**
 * The tables whose rows differ between two stores (SQLite compares them itself: far faster
 * than reading every row into JavaScript); [] when they hold the same rows.
 */
export function differingTables(path: string, other: string): string[] {
  const db = new Database(path, { readonly: true });
  try {
    db.prepare("ATTACH DATABASE ? AS other").run(other);
    const tables = db.prepare("SELECT name FROM main.sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '%_rtree_%'").pluck().all() as string[];
    return tables.filter((table) =>
      [`SELECT * FROM main."${table}" EXCEPT SELECT * FROM other."${table}"`, `SELECT * FROM other."${table}" EXCEPT SELECT * FROM main."${table}"`].some(
        (sql) => db.prepare(`SELECT EXISTS (${sql})`).pluck().get() === 1,
      ),
    );
  } finally {
    db.close();
  }
}

/** One feature's data quality rows, as the store keeps them. */
export function findingsOf(path: string, table: string, osmId: number): Array<{ status: string; source: string; values: string[] }> {
  const db = new Database(path, { readonly: true });
  try {
    const rows = db.prepare(`SELECT status, source, "values" FROM quality WHERE feature_table = ? AND osm_id = ? ORDER BY rank`).all(table, osmId) as Array<{
      status: string;
      source: string;
      values: string;
    }>;
    return rows.map((row) => ({ ...row, values: JSON.parse(row.values) }));
  } finally {
    db.close();
  }
}

/**
 * Where the store's tag_keys disagree with a count of the tags themselves, as
 * "table key: kept N, counted M"; [] when they agree.
 */
export function tagKeyMismatches(path: string): string[] {
  const db = new Database(path, { readonly: true });
  try {
    const counted = FEATURE_TABLES.map(
      (table) => `SELECT '${table}' AS feature_table, tag.key AS key, count(*) AS features FROM ${table} t, json_each(t.tags) tag GROUP BY tag.key`,
    ).join(" UNION ALL ");
    const rows = db
      .prepare(
        `SELECT c.feature_table, c.key, k.features AS kept, c.features AS counted FROM (${counted}) c LEFT JOIN tag_keys k USING (feature_table, key) WHERE k.features IS NOT c.features
         UNION ALL
         SELECT k.feature_table, k.key, k.features, c.features FROM tag_keys k LEFT JOIN (${counted}) c USING (feature_table, key) WHERE k.features > 0 AND c.features IS NULL`,
      )
      .all() as Array<{ feature_table: string; key: string; kept: number | null; counted: number | null }>;
    return rows.map((row) => `${row.feature_table} ${row.key}: kept ${row.kept ?? 0}, counted ${row.counted ?? 0}`);
  } finally {
    db.close();
  }
}
