/**
 * The data quality reports' reads of the SQLite store. SQL narrows the findings by status, date,
 * hashtag and the area's bounding box; the exact area test on each finding's location follows
 * here, before paging, so that a page holds exactly the rows that are in the area.
 */
import type BetterSqlite3 from "better-sqlite3";
import { withPreparedArea, type PreparedArea } from "../../geometry/geos.js";
import type { FeatureTable, FindingRow, FindingValueCount, FindingValueRow } from "../../../model/features.js";
import type { FindingFilter, Page, Paged } from "../store.js";

type Statement = BetterSqlite3.Statement;

interface SqlRow {
  table: FeatureTable;
  osmId: number;
  status: string;
  source: string;
  values: string;
  changeset: number | null;
  timestamp: string | null;
  lon: number;
  lat: number;
  hashtags: string | null;
}

type SqlValueRow = Omit<SqlRow, "values"> & { value: string };

const COLUMNS = `q.feature_table AS "table", q.osm_id AS osmId, q.status, q.source, q.changeset, q.timestamp, q.lon, q.lat, c.hashtags`;
const FROM = "FROM quality q LEFT JOIN changesets c ON c.id = q.changeset";
const ORDER = "q.timestamp DESC, q.osm_id, q.feature_table, q.status, q.source";
/** When the edit behind a finding was made (see FindingFilter). */
const EDITED_AT = "coalesce(c.closed_at, q.timestamp)";

export class SqliteReports {
  /** By SQL text: the filters' shapes make a few dozen statements at most. */
  private readonly statements = new Map<string, Statement>();

  constructor(private readonly db: BetterSqlite3.Database) {}

  qualityFindings(filter: FindingFilter, page: Page): Promise<Paged<FindingRow>> {
    return withArea(filter, (area) => {
      const where = findingWhere(filter);
      const rows = this.iterate<SqlRow>(`SELECT ${COLUMNS}, q."values" ${FROM} WHERE ${where.sql} ORDER BY ${ORDER}`, where.parameters);
      const paged = pageOf(inArea(rows, area), page);
      return { ...paged, rows: paged.rows.map(({ values, hashtags, ...row }) => ({ ...row, values: JSON.parse(values), hashtags: parseHashtags(hashtags) })) };
    });
  }

  findingValues(filter: FindingFilter, page: Page): Promise<Paged<FindingValueRow>> {
    return withArea(filter, (area) => {
      const paged = pageOf(inArea(this.valueRows(filter), area), page);
      return { ...paged, rows: paged.rows.map(({ hashtags, ...row }) => ({ ...row, hashtags: parseHashtags(hashtags) })) };
    });
  }

  findingValueCounts(filter: FindingFilter, { offset, limit }: Page): Promise<Paged<FindingValueCount>> {
    return withArea(filter, (area) => {
      // Counted here rather than by GROUP BY: only rows that pass the exact area test count.
      const counts = new Map<string, FindingValueCount>();
      for (const { value, source, status } of inArea(this.valueRows(filter), area)) {
        const key = JSON.stringify([value, source, status]);
        const known = counts.get(key);
        if (known) known.count++;
        else counts.set(key, { value, source, status, count: 1 });
      }
      const sorted = [...counts.values()].sort((a, b) => b.count - a.count || compare(a.value, b.value) || compare(a.source, b.source) || compare(a.status, b.status));
      return { rows: sorted.slice(offset, offset + limit), hasMore: sorted.length > offset + limit };
    });
  }

  private valueRows(filter: FindingFilter): IterableIterator<SqlValueRow> {
    const where = findingWhere(filter);
    return this.iterate<SqlValueRow>(
      `SELECT ${COLUMNS}, v.value AS value ${FROM} JOIN json_each(q."values") v WHERE ${where.sql} ORDER BY ${ORDER}, v.key`,
      where.parameters,
    );
  }

  private iterate<T>(sql: string, parameters: Array<string | number>): IterableIterator<T> {
    let statement = this.statements.get(sql);
    if (!statement) {
      statement = this.db.prepare(sql);
      this.statements.set(sql, statement);
    }
    return statement.iterate(...parameters) as IterableIterator<T>;
  }
}

/** Every condition but the exact area test; values only ever travel as bound parameters. */
function findingWhere(filter: FindingFilter): { sql: string; parameters: Array<string | number> } {
  const clauses = ["q.status IN (SELECT value FROM json_each(?))"];
  const parameters: Array<string | number> = [JSON.stringify(filter.statuses)];
  if (filter.from !== undefined) {
    clauses.push(`${EDITED_AT} >= ?`);
    parameters.push(filter.from);
  }
  if (filter.to !== undefined) {
    clauses.push(`${EDITED_AT} <= ?`);
    parameters.push(filter.to);
  }
  if (filter.hashtags !== undefined && filter.hashtags.length > 0) {
    // changeset_hashtags holds them lower-cased and without "#".
    clauses.push("q.changeset IN (SELECT changeset FROM changeset_hashtags WHERE hashtag IN (SELECT value FROM json_each(?)))");
    parameters.push(JSON.stringify(filter.hashtags.map((hashtag) => hashtag.replace(/^#/, "").toLowerCase())));
  }
  if (filter.area !== undefined) {
    const { minX, minY, maxX, maxY } = filter.area.bbox;
    clauses.push("q.lon BETWEEN ? AND ? AND q.lat BETWEEN ? AND ?");
    parameters.push(minX, maxX, minY, maxY);
  }
  return { sql: clauses.join(" AND "), parameters };
}

/** Runs `read` with the exact test of the filter's area (everywhere when it has none), prepared for this read and freed after it. */
function withArea<T>(filter: FindingFilter, read: (area: PreparedArea) => T): Promise<T> {
  return withPreparedArea({ geometry: filter.area?.geometry ?? null }, read);
}

function* inArea<T extends { lon: number; lat: number }>(rows: Iterable<T>, area: PreparedArea): Generator<T> {
  for (const row of rows) if (area.intersects({ type: "Point", coordinates: [row.lon, row.lat] })) yield row;
}

/** Reads no further than the page and one more row; stopping early closes the SQL iterator. */
function pageOf<T>(rows: Iterable<T>, { offset, limit }: Page): Paged<T> {
  const page: T[] = [];
  let seen = 0;
  for (const row of rows) {
    if (seen === offset + limit) return { rows: page, hasMore: true };
    if (seen >= offset) page.push(row);
    seen++;
  }
  return { rows: page, hasMore: false };
}

function parseHashtags(hashtags: string | null): string[] {
  return hashtags === null ? [] : JSON.parse(hashtags);
}

/** By code unit: the same order whatever the server's locale. */
function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
