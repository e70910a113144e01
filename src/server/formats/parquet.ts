/**
 * GeoParquet 1.1 with the `hyparquet-writer` package's encoders, laid out as raw-data-api's
 * ogr2ogr export makes it: the attribute columns, then `geometry` as WKB (a plain BYTE_ARRAY),
 * and the file's "geo" metadata. Features are buffered one row group at a time and each group
 * is encoded and written to the file before the next is gathered, so memory is bounded by a
 * row group, not by the export. The metadata (geometry types, bounding box) goes in the footer,
 * which Parquet writes last: nothing before it needs the whole export.
 */
import { join } from "node:path";
import { ByteWriter, ParquetWriter, type ColumnSource } from "hyparquet-writer";
import { emptyBBox, extendBBox, geometryBBox, type Geometry } from "../../model/geojson.js";
import { FileSink } from "./file-sink.js";
import { guard } from "./lifecycle.js";
import { uniqueNames } from "./names.js";
import type { ExportColumn, ExportOptions, ExportWriter } from "./types.js";
import { toWkb } from "./wkb.js";

type SchemaElement = ConstructorParameters<typeof ParquetWriter>[0]["schema"][number];

/** The geometry column's name in GDAL's Parquet output, which raw-data-api serves. */
const GEOMETRY_COLUMN = "geometry";
/**
 * When a row group is closed and written. Memory grows with the rows held and the encoding's
 * copies of them: on Andorra's features repeated 8 times with 51 columns, the export's peak RSS
 * was 397 MB with GDAL's 65,536 rows, 257 MB with 16,384 (GeoJSON's: 152 MB), for the same file
 * size and time; 600 polygons of 30,000 positions peaked at 382 MB with a 64 MB limit, 218 MB
 * with 16 MB.
 */
export interface RowGroupLimits {
  rows: number;
  /** Of WKB and text, plus a pointer's 8 bytes per cell: a few huge features close a group early. */
  bytes: number;
}

const ROW_GROUP_LIMITS: RowGroupLimits = { rows: 16_384, bytes: 16 << 20 };

/** The ByteWriter hands each finished row group to the file and starts again from empty. */
class SinkWriter extends ByteWriter {
  constructor(private readonly sink: FileSink) {
    super(1 << 20);
  }

  flush(): Promise<void> {
    // A copy: the buffer is reused for the next row group while the file write is pending.
    const bytes = this.getBytes().slice();
    this.index = 0;
    return this.sink.append(bytes);
  }

  override finish(): Promise<void> {
    return this.flush();
  }
}

function schemaElement(name: string, column: ExportColumn): SchemaElement {
  // JSON text is written as text, as the other formats without JSON values do.
  return column.type === "integer"
    ? { name, type: "INT64", repetition_type: "OPTIONAL" }
    : { name, type: "BYTE_ARRAY", converted_type: "UTF8", repetition_type: "OPTIONAL" };
}

/** The "geo" metadata of GeoParquet 1.1; no crs member means OGC:CRS84 (longitude, latitude on WGS 84). */
function geoMetadata(types: ReadonlySet<Geometry["type"]>, bbox: [number, number, number, number] | undefined): string {
  const column = { encoding: "WKB", geometry_types: [...types].sort(), ...(bbox && { bbox }) };
  return JSON.stringify({ version: "1.1.0", primary_column: GEOMETRY_COLUMN, columns: { [GEOMETRY_COLUMN]: column } });
}

export async function createParquetWriter(directory: string, baseName: string, options: ExportOptions, limits = ROW_GROUP_LIMITS): Promise<ExportWriter> {
  const path = join(directory, `${baseName}.parquet`);
  const sink = await FileSink.create(path);
  const names = uniqueNames(
    options.columns.map((column) => column.name),
    Infinity,
    [GEOMETRY_COLUMN],
  );
  const schema: SchemaElement[] = [
    { name: "root", num_children: options.columns.length + 1 },
    ...options.columns.map((column, i) => schemaElement(names[i]!, column)),
    { name: GEOMETRY_COLUMN, type: "BYTE_ARRAY", repetition_type: "REQUIRED" },
  ];
  const parquet = new ParquetWriter({ writer: new SinkWriter(sink), schema, createdBy: "basemodel" });
  const types = new Set<Geometry["type"]>();
  const extent = emptyBBox();
  let values: Array<Array<bigint | string | null>> = options.columns.map(() => []);
  let geometries: Uint8Array[] = [];
  let groupBytes = 0;

  const writeRowGroup = async (): Promise<void> => {
    if (geometries.length === 0) return;
    const columnData: ColumnSource[] = [
      ...options.columns.map((_, i) => ({ name: names[i]!, data: values[i]! })),
      // WKB is never repeated, so no dictionary; min/max of WKB bytes say nothing either.
      { name: GEOMETRY_COLUMN, data: geometries, encoding: "PLAIN", statistics: false },
    ];
    const rows = geometries.length;
    values = options.columns.map(() => []);
    geometries = [];
    groupBytes = 0;
    await parquet.write({ columnData, rowGroupSize: rows });
  };

  return guard({
    async write({ geometry, properties }) {
      const wkb = toWkb(geometry);
      geometries.push(wkb);
      groupBytes += wkb.length + 8 * options.columns.length;
      options.columns.forEach((column, i) => {
        const value = properties[column.name] ?? null;
        if (typeof value === "string") groupBytes += value.length;
        values[i]!.push(value === null ? null : column.type === "integer" ? BigInt(value) : String(value));
      });
      types.add(geometry.type);
      extendBBox(extent, geometryBBox(geometry));
      if (geometries.length >= limits.rows || groupBytes >= limits.bytes) await writeRowGroup();
    },
    async finish() {
      await writeRowGroup();
      const bbox = types.size > 0 ? ([extent.minX, extent.minY, extent.maxX, extent.maxY] as [number, number, number, number]) : undefined;
      parquet.kvMetadata = [{ key: "geo", value: geoMetadata(types, bbox) }];
      await parquet.finish();
      await sink.close();
      return [path];
    },
    close: () => sink.discard(),
    paths: () => [path],
  });
}
