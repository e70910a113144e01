/** The WHERE conditions of feature queries: bounding box, tags, changeset and data quality. Values only ever travel as bound parameters. */
import { isTagGroup, type TagFilter } from "../../../model/query.js";
import type { BBox } from "../../../model/geojson.js";
import { FEATURE_TABLES } from "../../../model/features.js";
import type { CandidateOptions } from "../store.js";
import type { ChangesetFilter, FeatureTable } from "../../../model/features.js";

/**
 * The bounding-box and tag conditions of a candidate query. osm_id IN (...) rather than a join:
 * SQLite then reads the R*Tree's ids into a sorted list and walks the table in osm_id order, so
 * the "id" order needs no sort and a caller that stops after one page reads little more than it.
 */
export function candidateWhere(
  table: FeatureTable,
  bbox: BBox,
  options: Pick<CandidateOptions, "tags" | "changesets" | "status">,
): { sql: string; parameters: Array<string | number> } {
  // The table name is the one thing spliced into the SQL: it must be one of ours.
  if (!FEATURE_TABLES.includes(table)) throw new Error(`Unknown feature table ${JSON.stringify(table)}`);
  const conditions: Array<{ sql: string; parameters: Array<string | number> }> = [
    { sql: `t.osm_id IN (SELECT id FROM ${table}_rtree WHERE minX <= ? AND maxX >= ? AND minY <= ? AND maxY >= ?)`, parameters: [bbox.maxX, bbox.minX, bbox.maxY, bbox.minY] },
    tagCondition(options.tags),
    changesetCondition(options.changesets),
    options.status === undefined
      ? { sql: "", parameters: [] }
      : { sql: "EXISTS (SELECT 1 FROM quality q WHERE q.feature_table = ? AND q.osm_id = t.osm_id AND q.status = ?)", parameters: [table, options.status] },
  ].filter((condition) => condition.sql !== "");
  return { sql: conditions.map((condition) => condition.sql).join(" AND "), parameters: conditions.flatMap((condition) => condition.parameters) };
}

/** Each time bound of a ChangesetFilter, as the condition on the changeset it stands for. */
const CHANGESET_BOUNDS = [
  ["createdFrom", "created_at >= ?"],
  ["createdTo", "created_at <= ?"],
  ["closedFrom", "closed_at >= ?"],
  ["closedTo", "closed_at <= ?"],
] as const;

/** Hashtags are stored lower-cased beside the changeset, so the match is case-insensitive and indexed. */
function changesetCondition(filter: ChangesetFilter | undefined): { sql: string; parameters: string[] } {
  const clauses: string[] = [];
  const parameters: string[] = [];
  if (filter?.hashtag !== undefined) {
    clauses.push("t.changeset IN (SELECT changeset FROM changeset_hashtags WHERE hashtag = ?)");
    parameters.push(filter.hashtag.replace(/^#/, "").toLowerCase());
  }
  for (const [member, condition] of CHANGESET_BOUNDS) {
    const bound = filter?.[member];
    if (bound === undefined) continue;
    clauses.push(`t.changeset IN (SELECT id FROM changesets WHERE ${condition})`);
    parameters.push(bound);
  }
  return { sql: clauses.join(" AND "), parameters };
}

/**
 * The tag filter as SQL over the JSON `tags` column. Keys and values only ever travel as bound
 * parameters; a condition's values go as one JSON array so that any number of them binds to
 * a single parameter.
 */
export function tagCondition(filter: TagFilter | undefined): { sql: string; parameters: string[] } {
  if (!filter || filter.conditions.length === 0) return { sql: "", parameters: [] };
  const parameters: string[] = [];
  const clauses = filter.conditions.map((condition) => {
    if (isTagGroup(condition)) {
      const group = tagCondition(condition);
      parameters.push(...group.parameters);
      // An empty group holds for every row, as no filter does.
      return group.sql === "" ? "1" : group.sql;
    }
    const { key, values } = condition;
    // instr() spares most rows the json_each (keyText).
    parameters.push(keyText(key), key);
    if (values.length === 0) return "(instr(t.tags, ?) > 0 AND EXISTS (SELECT 1 FROM json_each(t.tags) tag WHERE tag.key = ?))";
    parameters.push(JSON.stringify(values));
    return "(instr(t.tags, ?) > 0 AND EXISTS (SELECT 1 FROM json_each(t.tags) tag WHERE tag.key = ? AND tag.value IN (SELECT value FROM json_each(?))))";
  });
  return { sql: `(${clauses.join(filter.join === "and" ? " AND " : " OR ")})`, parameters };
}

/**
 * How a key the row has appears in its `tags`: the store writes tags with JSON.stringify, so as
 * its JSON string and a colon. Finding it is a cheap necessary condition, not a sufficient one (a
 * value may hold the same text).
 */
const keyText = (key: string): string => `${JSON.stringify(key)}:`;

/**
 * A necessary condition for the row to have one of `keys`, read without parsing its tags: the
 * caller checks the tags of the rows it returns exactly.
 */
export function anyKeyCondition(keys: readonly string[]): { sql: string; parameters: string[] } {
  return { sql: `(${keys.map(() => "instr(t.tags, ?) > 0").join(" OR ")})`, parameters: keys.map(keyText) };
}
