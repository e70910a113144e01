/**
 * What a snapshot request asks for, as queries and columns (docs/decisions.md, after raw-data-api's
 * query builder): which tables per geometry type, which tag filter, which properties, which
 * geometry, and how features must lie in the area. Pure: no store, no files.
 */
import type { FilterGeometry, JoinedTags, TagFilterEntry, TagValues } from "../api/snapshot.js";
import { centroid } from "../geometry/centroid.js";
import { KIND_TABLES, type GeometryKind, type SpatialRelation, type TagCondition, type TagFilter } from "../../model/query.js";
import type { Geometry } from "../../model/geojson.js";
import type { FeatureTable, OsmFeature } from "../../model/features.js";
import { flagOf, type ExportParams } from "./request.js";
import type { ExportColumn } from "../formats/types.js";

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
  /** Features that intersect the area, or only those within it (useStWithin). */
  relation: SpatialRelation;
  /** What is written of a feature's geometry: itself, or its centroid. */
  geometry(feature: OsmFeature): Geometry;
  /** True when the plan asks for one kind of geometry, and its files are named without the kind (custom exports). */
  oneGeometryKind?: boolean;
}

const KINDS: readonly GeometryKind[] = ["point", "line", "polygon"];

/** Without attributes, the real service's columns; `tags` is the whole tag set as JSON. */
const ID_COLUMN: ExportColumn = { name: "osm_id", type: "integer" };
const DEFAULT_COLUMNS: readonly ExportColumn[] = [
  { name: "version", type: "integer" },
  { name: "changeset", type: "integer" },
  { name: "timestamp", type: "text" },
  { name: "tags", type: "json" },
];
/** With includeUserMetadata, after osm_id: who made the feature's last version. */
const USER_COLUMNS: readonly ExportColumn[] = [
  { name: "uid", type: "integer" },
  { name: "user", type: "text" },
];

function kindsOf(params: ExportParams): GeometryKind[] {
  const asked = params.geometryType;
  if (asked === undefined || asked.length === 0 || asked.includes("all_geometry")) return [...KINDS];
  return KINDS.filter((kind) => asked.includes(kind));
}

/** allGeometry overrides every per-type entry; a per-type entry concerns only its own type. */
function forKind<T>(byGeometry: Partial<Record<FilterGeometry, T>> | undefined, kind: GeometryKind): T | undefined {
  return byGeometry?.allGeometry ?? byGeometry?.[kind];
}

/** An entry in raw-data-api's form since 2023: it names joinOr or joinAnd. */
export function isJoined(entry: TagFilterEntry): entry is JoinedTags {
  return Object.hasOwn(entry, "joinOr") || Object.hasOwn(entry, "joinAnd");
}

function conditionsOf(tags: TagValues | undefined): TagCondition[] {
  // Keys and values are trimmed, as the real service does: " building " is building.
  return Object.entries(tags ?? {}).map(([key, values]) => ({ key: key.trim(), values: values.map((value) => value.trim()) }));
}

function tagFilter(entry: TagFilterEntry | undefined, join: "OR" | "AND"): TagFilter | undefined {
  if (entry === undefined) return undefined;
  if (isJoined(entry)) return joinedFilter(entry);
  const conditions = conditionsOf(entry);
  return conditions.length === 0 ? undefined : { conditions, join: join === "AND" ? "and" : "or" };
}

/**
 * joinOr's keys OR-ed, joinAnd's AND-ed. Both given, raw-data-api joins the two groups with AND
 * when joinAnd has one key and with OR otherwise (osm-rawdata relies on both: it puts a key that
 * must be present in both groups). It leaves the groups unbracketed, so that SQL's AND binds
 * one key of joinOr to joinAnd's; we bracket them, as its own example means.
 */
function joinedFilter({ joinOr, joinAnd }: JoinedTags): TagFilter | undefined {
  const or = conditionsOf(joinOr);
  const and = conditionsOf(joinAnd);
  if (and.length === 0) return or.length === 0 ? undefined : { conditions: or, join: "or" };
  if (or.length === 0) return { conditions: and, join: "and" };
  return {
    conditions: [
      { conditions: or, join: "or" },
      { conditions: and, join: "and" },
    ],
    join: and.length === 1 ? "and" : "or",
  };
}

/** "name, addr:street" is two attributes, as in the real service; osm_id is always the first column. */
export function attributeKeys(attributes: readonly string[]): string[] {
  const keys = attributes.flatMap((entry) => entry.split(",")).map((key) => key.trim());
  return [...new Set(keys.filter((key) => key !== "" && key !== "osm_id"))];
}

type Properties = Record<string, string | number | null>;

function defaultProperties(feature: OsmFeature, properties: Properties): Properties {
  properties.version = feature.version;
  properties.changeset = feature.changeset;
  properties.timestamp = feature.timestamp;
  properties.tags = JSON.stringify(feature.tags);
  return properties;
}

function chosenProperties(keys: readonly string[]): (feature: OsmFeature, properties: Properties) => Properties {
  return (feature, properties) => {
    // defineProperty: a tag key such as "__proto__" must stay a plain member.
    for (const key of keys) Object.defineProperty(properties, key, { value: feature.tags[key] ?? null, enumerable: true, writable: true, configurable: true });
    return properties;
  };
}

function centroidOf(feature: OsmFeature): Geometry {
  return { type: "Point", coordinates: centroid(feature.geometry) };
}

export function planExport(params: ExportParams): ExportPlan {
  const join = params.joinFilterType ?? "OR";
  const withUsers = flagOf(params, "includeUserMetadata");
  const leading = withUsers ? [ID_COLUMN, ...USER_COLUMNS] : [ID_COLUMN];
  const columns = new Map<string, ExportColumn>();
  const parts = kindsOf(params).map((kind): ExportPart => {
    const attributes = forKind(params.filters?.attributes, kind);
    // Metadata columns are not tags: a tag chosen as "uid" or "user" gives way to them.
    const keys = attributes === undefined ? undefined : attributeKeys(attributes).filter((key) => !leading.some((column) => column.name === key));
    const partColumns = [...leading, ...(keys === undefined ? DEFAULT_COLUMNS : keys.map((name): ExportColumn => ({ name, type: "text" })))];
    for (const column of partColumns) {
      const prior = columns.get(column.name);
      // A tag chosen as "version" beside the default integer "version": only text holds both.
      columns.set(column.name, prior === undefined || prior.type === column.type ? column : { name: column.name, type: "text" });
    }
    const rest = keys === undefined ? defaultProperties : chosenProperties(keys);
    return {
      kind,
      tables: KIND_TABLES[kind],
      tags: tagFilter(forKind(params.filters?.tags, kind), join),
      properties: (feature) => rest(feature, withUsers ? { osm_id: feature.osmId, uid: feature.uid, user: feature.user } : { osm_id: feature.osmId }),
    };
  });
  return {
    parts,
    columns: [...columns.values()],
    relation: flagOf(params, "useStWithin") ? "within" : "intersects",
    geometry: flagOf(params, "centroid") ? centroidOf : (feature) => feature.geometry,
  };
}
