/**
 * What a snapshot request asks for, as queries and columns (docs/decisions.md, after raw-data-api
 * 1.0.16's query builder): which tables per geometry type, which tag filter, which properties.
 * Pure: no store, no files.
 */
import type { FilterGeometry, SnapshotParams } from "../api/snapshot.js";
import type { GeometryKind, TagFilter } from "../query/types.js";
import type { FeatureTable, OsmFeature } from "../store/store.js";
import type { ExportColumn } from "./types.js";

/** One query of the export: features of one geometry kind from these tables. */
export interface ExportPart {
  kind: GeometryKind;
  tables: readonly FeatureTable[];
  /** Undefined: every feature of the kind in the area. */
  tags: TagFilter | undefined;
  /** The properties of each feature of this part. */
  properties(feature: OsmFeature): Record<string, string | number | null>;
}

export interface ExportPlan {
  /** In the real service's order: nodes, ways_line, relations (lines), ways_poly, relations (areas). */
  parts: ExportPart[];
  /** Every part's properties together: one schema for the single-schema formats. */
  columns: ExportColumn[];
}

/** Relations are split by geometry: lines go with ways_line, areas with ways_poly. */
const TABLES: Record<GeometryKind, readonly FeatureTable[]> = {
  point: ["nodes"],
  line: ["ways_line", "relations"],
  polygon: ["ways_poly", "relations"],
};

const KINDS: readonly GeometryKind[] = ["point", "line", "polygon"];

/** Without attributes, the real service's columns; `tags` is the whole tag set as JSON. */
const DEFAULT_COLUMNS: readonly ExportColumn[] = [
  { name: "osm_id", type: "integer" },
  { name: "version", type: "integer" },
  { name: "changeset", type: "integer" },
  { name: "timestamp", type: "text" },
  { name: "tags", type: "json" },
];

function kindsOf(params: SnapshotParams): GeometryKind[] {
  const asked = params.geometryType;
  if (asked === undefined || asked.length === 0 || asked.includes("all_geometry")) return [...KINDS];
  return KINDS.filter((kind) => asked.includes(kind));
}

/** allGeometry overrides every per-type entry; a per-type entry concerns only its own type. */
function forKind<T>(byGeometry: Partial<Record<FilterGeometry, T>> | undefined, kind: GeometryKind): T | undefined {
  return byGeometry?.allGeometry ?? byGeometry?.[kind];
}

function tagFilter(tags: Record<string, string[]> | undefined, join: "OR" | "AND"): TagFilter | undefined {
  if (tags === undefined) return undefined;
  // Keys and values are trimmed, as the real service does: " building " is building.
  const conditions = Object.entries(tags).map(([key, values]) => ({ key: key.trim(), values: values.map((value) => value.trim()) }));
  if (conditions.length === 0) return undefined;
  return { conditions, join: join === "AND" ? "and" : "or" };
}

/** "name, addr:street" is two attributes, as in the real service; osm_id is always the first column. */
export function attributeKeys(attributes: readonly string[]): string[] {
  const keys = attributes.flatMap((entry) => entry.split(",")).map((key) => key.trim());
  return [...new Set(keys.filter((key) => key !== "" && key !== "osm_id"))];
}

function defaultProperties(feature: OsmFeature): Record<string, string | number | null> {
  return {
    osm_id: feature.osmId,
    version: feature.version,
    changeset: feature.changeset,
    timestamp: feature.timestamp,
    tags: JSON.stringify(feature.tags),
  };
}

function chosenProperties(keys: readonly string[]): ExportPart["properties"] {
  return (feature) => {
    const properties: Record<string, string | number | null> = { osm_id: feature.osmId };
    // defineProperty: a tag key such as "__proto__" must stay a plain member.
    for (const key of keys) Object.defineProperty(properties, key, { value: feature.tags[key] ?? null, enumerable: true, writable: true, configurable: true });
    return properties;
  };
}

export function planExport(params: SnapshotParams): ExportPlan {
  const join = params.joinFilterType ?? "OR";
  const columns = new Map<string, ExportColumn>();
  const parts = kindsOf(params).map((kind): ExportPart => {
    const attributes = forKind(params.filters?.attributes, kind);
    const keys = attributes === undefined ? undefined : attributeKeys(attributes);
    const partColumns = keys === undefined ? DEFAULT_COLUMNS : [DEFAULT_COLUMNS[0]!, ...keys.map((name): ExportColumn => ({ name, type: "text" }))];
    for (const column of partColumns) {
      const prior = columns.get(column.name);
      // A tag chosen as "version" beside the default integer "version": only text holds both.
      columns.set(column.name, prior === undefined || prior.type === column.type ? column : { name: column.name, type: "text" });
    }
    return {
      kind,
      tables: TABLES[kind],
      tags: tagFilter(forKind(params.filters?.tags, kind), join),
      properties: keys === undefined ? defaultProperties : chosenProperties(keys),
    };
  });
  return { parts, columns: [...columns.values()] };
}
