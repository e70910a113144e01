/**
 * The WHERE conditions of the PostGIS store's feature queries: the area itself (ST_Intersects or
 * ST_Within on the query geometry, after the GiST index's box test), the geometry kind, tags on
 * jsonb, changeset and data quality. Every value is a bound parameter.
 */
import { isTagGroup, type AreaFilter, type GeometryKind, type TagFilter } from "../../../model/query.js";
import { FEATURE_TABLES, type ChangesetFilter, type FeatureTable } from "../../../model/features.js";
import { type CountOptions } from "../store.js";
import type { Parameters } from "./parameters.js";

const KINDS: Record<GeometryKind, readonly string[]> = {
  point: ["ST_Point"],
  line: ["ST_LineString", "ST_MultiLineString"],
  polygon: ["ST_Polygon", "ST_MultiPolygon"],
};

/** The table name is the one thing spliced into the SQL: it must be one of ours. */
export function checkedTable(table: FeatureTable): FeatureTable {
  if (!FEATURE_TABLES.includes(table)) throw new Error(`Unknown feature table ${JSON.stringify(table)}`);
  return table;
}

export function candidateWhere(table: FeatureTable, area: AreaFilter, options: CountOptions, parameters: Parameters): string {
  const conditions = [
    areaCondition(area, options.relation ?? "intersects", parameters),
    options.geometry === undefined ? "" : kindCondition([options.geometry], parameters),
    tagCondition(options.tags, parameters),
    changesetCondition(options.changesets, parameters),
    options.status === undefined
      ? ""
      : `EXISTS (SELECT 1 FROM quality q WHERE q.feature_table = ${parameters.add(checkedTable(table))} AND q.osm_id = t.osm_id AND q.status = ${parameters.add(options.status)})`,
  ].filter((condition) => condition !== "");
  return conditions.length === 0 ? "true" : conditions.join(" AND ");
}

/** The geometry is of one of these kinds. */
export function kindCondition(kinds: readonly GeometryKind[], parameters: Parameters): string {
  return `ST_GeometryType(t.geom) = ANY(${parameters.add(kinds.flatMap((kind) => KINDS[kind]))}::text[])`;
}

function areaCondition(area: AreaFilter, relation: "intersects" | "within", parameters: Parameters): string {
  if (area.geometry === null) return "";
  // A sub-select: built once per run even in a generic plan (a prepared statement's), where a
  // plain expression of a parameter would be built again for every row.
  const geometry = `(SELECT ST_SetSRID(ST_GeomFromGeoJSON(${parameters.add(JSON.stringify(area.geometry))}), 4326))`;
  // ST_Intersects and ST_Within test the GiST index's boxes themselves before the exact test.
  return relation === "within" ? `ST_Within(t.geom, ${geometry})` : `ST_Intersects(t.geom, ${geometry})`;
}

/** Each time bound of a ChangesetFilter, as the condition on the changeset it stands for (ISO-8601 text, compared byte by byte). */
const CHANGESET_BOUNDS = [
  ["createdFrom", `created_at COLLATE "C" >=`],
  ["createdTo", `created_at COLLATE "C" <=`],
  ["closedFrom", `closed_at COLLATE "C" >=`],
  ["closedTo", `closed_at COLLATE "C" <=`],
] as const;

function changesetCondition(filter: ChangesetFilter | undefined, parameters: Parameters): string {
  const clauses: string[] = [];
  if (filter?.hashtag !== undefined) {
    clauses.push(`t.changeset IN (SELECT changeset FROM changeset_hashtags WHERE hashtag = ${parameters.add(filter.hashtag.replace(/^#/, "").toLowerCase())})`);
  }
  for (const [member, condition] of CHANGESET_BOUNDS) {
    const bound = filter?.[member];
    if (bound !== undefined) clauses.push(`t.changeset IN (SELECT id FROM changesets WHERE ${condition} ${parameters.add(bound)})`);
  }
  return clauses.join(" AND ");
}

/** The tag filter on the jsonb `tags` column: `?` for a key, `->>` for its value. */
export function tagCondition(filter: TagFilter | undefined, parameters: Parameters): string {
  if (!filter || filter.conditions.length === 0) return "";
  const clauses = filter.conditions.map((condition) => {
    if (isTagGroup(condition)) {
      // An empty group holds for every row, as no filter does.
      return tagCondition(condition, parameters) || "true";
    }
    const key = parameters.add(condition.key);
    if (condition.values.length === 0) return `t.tags ? ${key}`;
    return `t.tags ->> ${key} = ANY(${parameters.add(condition.values)}::text[])`;
  });
  return `(${clauses.join(filter.join === "and" ? " AND " : " OR ")})`;
}
