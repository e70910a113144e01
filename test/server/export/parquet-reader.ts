/**
 * GeoParquet files read back by DuckDB (`@duckdb/node-api`, a dev dependency): a Parquet reader
 * in C++ that shares no code with the writer (`hyparquet-writer`, JavaScript), and that reads
 * GeoParquet itself: it types the geometry column GEOMETRY('OGC:CRS84') only when the file's
 * "geo" metadata describes it, and decodes its WKB (ST_AsText) with no extension installed.
 * Debian 12's GDAL has no Parquet driver, so this is the independent check of every column.
 */
import { DuckDBInstance } from "@duckdb/node-api";
import type { Geometry } from "../../../src/model/geojson.js";
import { isObject } from "../../support/json-edit.js";

export interface ParquetColumn {
  name: string;
  /** Physical type: INT64, BYTE_ARRAY, ... */
  type: string;
  convertedType: string | null;
  repetition: string;
}

export interface ParquetFeature {
  geometry: Geometry;
  properties: Record<string, string | number | null>;
}

export interface ParquetFile {
  /** The schema's columns in file order (the root left out). */
  columns: ParquetColumn[];
  /** The file's key-value metadata. */
  metadata: Record<string, string>;
  /** Rows in each row group, in order. */
  rowGroups: number[];
  /** DuckDB's type for the primary geometry column. */
  geometryType: string;
  /** Every row, in file order: the geometry decoded from WKB, the other columns as properties. */
  features: ParquetFeature[];
}

const WKT_TYPES: Record<string, Geometry["type"]> = {
  POINT: "Point",
  LINESTRING: "LineString",
  POLYGON: "Polygon",
  MULTILINESTRING: "MultiLineString",
  MULTIPOLYGON: "MultiPolygon",
};

/** DuckDB's WKT ("POLYGON ((1 2, 3 4, ...))", shortest round-trip numbers) as a GeoJSON geometry. */
function fromWkt(wkt: string): Geometry {
  const [, name, body] = /^([A-Z]+) (\(.*\))$/.exec(wkt) ?? [];
  const type = WKT_TYPES[name ?? ""];
  if (type === undefined || body === undefined) throw new Error(`unexpected WKT: ${wkt.slice(0, 80)}`);
  const nested = JSON.parse(body.replaceAll("(", "[").replaceAll(")", "]").replace(/([^\s,[\]]+) ([^\s,[\]]+)/g, "[$1,$2]"));
  return { type, coordinates: type === "Point" ? nested[0] : nested } as Geometry;
}

const quoted = (name: string): string => `"${name.replaceAll('"', '""')}"`;

export async function readParquet(path: string): Promise<ParquetFile> {
  const instance = await DuckDBInstance.create(":memory:");
  const connection = await instance.connect();
  // Each query's rows, as the columns it selects: DuckDB's JSON form of them (BIGINT as text).
  const rows = async <Row>(sql: string): Promise<Row[]> => (await connection.runAndReadAll(sql, [path])).getRowObjectsJson() as Row[];
  try {
    const schema = await rows<{ name: string; type: string; converted_type: string | null; repetition_type: string }>("SELECT name, type, converted_type, repetition_type FROM parquet_schema($1)");
    const columns = schema.slice(1).map((row) => ({ name: row.name, type: row.type, convertedType: row.converted_type, repetition: row.repetition_type }));
    const metadata = Object.fromEntries((await rows<{ key: string; value: string }>("SELECT decode(key) AS key, decode(value) AS value FROM parquet_kv_metadata($1)")).map((row) => [row.key, row.value]));
    const rowGroups = (await rows<{ row_group_num_rows: string | number }>("SELECT DISTINCT row_group_id, row_group_num_rows FROM parquet_metadata($1) ORDER BY row_group_id")).map((row) => Number(row.row_group_num_rows));
    const primary: string = JSON.parse(metadata.geo ?? "{}").primary_column ?? "geometry";
    const [typed] = await rows<{ type: string }>(`SELECT typeof(${quoted(primary)}) AS type FROM read_parquet($1) LIMIT 1`);
    const integers = new Set(columns.filter((column) => column.type === "INT64").map((column) => column.name));
    type FeatureRow = { "wkt of the geometry": string } & Record<string, string | number | null>;
    const read = await rows<FeatureRow>(`SELECT * EXCLUDE (${quoted(primary)}), ST_AsText(${quoted(primary)}) AS "wkt of the geometry" FROM read_parquet($1)`);
    const features = read.map(({ "wkt of the geometry": wkt, ...values }) => {
      const properties = Object.fromEntries(Object.entries(values).map(([name, value]) => [name, integers.has(name) && value !== null ? Number(value) : value]));
      return { geometry: fromWkt(wkt), properties };
    });
    return { columns, metadata, rowGroups, geometryType: typed?.type ?? "", features };
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}

const GEOMETRY_TYPES = ["Point", "LineString", "Polygon", "MultiPoint", "MultiLineString", "MultiPolygon", "GeometryCollection"];

/**
 * Every way the file breaks GeoParquet 1.1's rules for its "geo" metadata and WKB columns
 * (https://geoparquet.org/releases/v1.1.0/), or [] for a valid file. Checks what a reader
 * relies on: the members and their values, the columns they name, and that every geometry's
 * type and coordinates agree with the geometry_types and bbox the metadata announces.
 */
export function geoParquetProblems(file: ParquetFile): string[] {
  const problems: string[] = [];
  let geo: unknown;
  try {
    geo = JSON.parse(file.metadata.geo ?? "");
  } catch {
    return ['no "geo" key holding JSON in the file metadata'];
  }
  if (!isObject(geo)) return [`"geo" is ${JSON.stringify(geo)}, not an object`];
  if (typeof geo.version !== "string" || !/^1\.1\.\d+$/.test(geo.version)) problems.push(`version ${JSON.stringify(geo.version)} is not 1.1.x`);
  if (!isObject(geo.columns)) return [...problems, "no columns object"];
  if (typeof geo.primary_column !== "string" || !(geo.primary_column in geo.columns)) problems.push(`primary_column ${JSON.stringify(geo.primary_column)} is not one of the columns`);
  for (const [name, meta] of Object.entries(geo.columns)) {
    if (!isObject(meta)) {
      problems.push(`${name}: ${JSON.stringify(meta)} is not an object`);
      continue;
    }
    const column = file.columns.find((candidate) => candidate.name === name);
    if (column === undefined) problems.push(`${name}: no such column in the schema`);
    else if (column.type !== "BYTE_ARRAY" || column.repetition === "REPEATED") problems.push(`${name}: a WKB column is a BYTE_ARRAY, required or optional; found ${column.repetition} ${column.type}`);
    if (meta.encoding !== "WKB") problems.push(`${name}: encoding ${JSON.stringify(meta.encoding)}, expected "WKB"`);
    const types: unknown = meta.geometry_types;
    if (!Array.isArray(types) || types.some((type) => !GEOMETRY_TYPES.includes(String(type).replace(/ Z$/, ""))) || new Set(types).size !== types.length) {
      problems.push(`${name}: geometry_types ${JSON.stringify(types)} is not a list of distinct GeoParquet geometry types`);
    }
    if ("crs" in meta && meta.crs !== null && typeof meta.crs !== "object") problems.push(`${name}: crs must be PROJJSON, null or absent`);
    if ("edges" in meta && meta.edges !== "planar" && meta.edges !== "spherical") problems.push(`${name}: edges ${JSON.stringify(meta.edges)}`);
    if ("orientation" in meta && meta.orientation !== "counterclockwise") problems.push(`${name}: orientation ${JSON.stringify(meta.orientation)}`);
    const bbox: unknown = meta.bbox;
    if (bbox !== undefined && (!Array.isArray(bbox) || bbox.length !== 4 || bbox.some((value) => typeof value !== "number") || bbox[0] > bbox[2] || bbox[1] > bbox[3])) {
      problems.push(`${name}: bbox ${JSON.stringify(bbox)} is not [xmin, ymin, xmax, ymax]`);
    }
    if (name !== geo.primary_column) continue;
    for (const [i, { geometry }] of file.features.entries()) {
      if (Array.isArray(types) && types.length > 0 && !types.includes(geometry.type)) problems.push(`row ${i}: a ${geometry.type}, not among geometry_types`);
      const outside = positionsOf(geometry).some(([x, y]) => Array.isArray(bbox) && (x < bbox[0] || y < bbox[1] || x > bbox[2] || y > bbox[3]));
      if (outside) problems.push(`row ${i}: a position outside bbox`);
    }
  }
  return problems;
}

function positionsOf(geometry: Geometry): [number, number][] {
  const numbers = (geometry.coordinates as unknown[]).flat(Infinity) as number[];
  return Array.from({ length: numbers.length / 2 }, (_, i) => [numbers[2 * i]!, numbers[2 * i + 1]!]);
}
