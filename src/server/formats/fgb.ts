/**
 * FlatGeobuf with the `flatgeobuf` package's encoders, but streamed: its serialize() builds the
 * whole file in memory, so features are encoded one at a time into a temporary file, and the
 * header (which holds the feature count) is written in front of them at finish. No spatial
 * index, as the count and the index both come before the features and an index needs them all.
 */
import { createReadStream, createWriteStream } from "node:fs";
import { rm } from "node:fs/promises";
import { join } from "node:path";
import { pipeline } from "node:stream/promises";
import type { ColumnMeta, HeaderMeta } from "flatgeobuf";
import { ColumnType } from "flatgeobuf/lib/mjs/flat-geobuf/column-type.js";
import { GeometryType } from "flatgeobuf/lib/mjs/flat-geobuf/geometry-type.js";
import { magicbytes } from "flatgeobuf/lib/mjs/constants.js";
import { buildFeature } from "flatgeobuf/lib/mjs/generic/feature.js";
import { buildHeader } from "flatgeobuf/lib/mjs/generic/featurecollection.js";
import type { IParsedGeometry } from "flatgeobuf/lib/mjs/generic/geometry.js";
import type { Geometry, Position } from "../../model/geojson.js";
import { FileSink } from "./file-sink.js";
import { guard } from "./lifecycle.js";
import { uniqueNames } from "./names.js";
import type { ExportOptions, ExportWriter } from "./types.js";

function flat(lines: Position[][]): { xy: number[]; ends: number[] } {
  const xy: number[] = [];
  const ends: number[] = [];
  for (const line of lines) {
    for (const [x, y] of line) xy.push(x, y);
    ends.push(xy.length / 2);
  }
  return { xy, ends };
}

function parsed(geometry: Geometry): IParsedGeometry {
  const simple = (type: GeometryType, lines: Position[][], withEnds: boolean): IParsedGeometry => {
    const { xy, ends } = flat(lines);
    // buildGeometry writes `ends` and `parts` whenever present, so they are left out where they do not belong.
    return (withEnds ? { type, xy, ends } : { type, xy }) as IParsedGeometry;
  };
  switch (geometry.type) {
    case "Point":
      return simple(GeometryType.Point, [[geometry.coordinates]], false);
    case "LineString":
      return simple(GeometryType.LineString, [geometry.coordinates], false);
    case "MultiLineString":
      return simple(GeometryType.MultiLineString, geometry.coordinates, true);
    case "Polygon":
      return simple(GeometryType.Polygon, geometry.coordinates, true);
    case "MultiPolygon":
      return {
        type: GeometryType.MultiPolygon,
        parts: geometry.coordinates.map((polygon) => simple(GeometryType.Polygon, polygon, true)),
      } as unknown as IParsedGeometry;
  }
}

export async function createFgbWriter(directory: string, baseName: string, options: ExportOptions): Promise<ExportWriter> {
  const path = join(directory, `${baseName}.fgb`);
  const body = await FileSink.create(`${path}.features`);
  const names = uniqueNames(options.columns.map((column) => column.name));
  const columns: ColumnMeta[] = options.columns.map((column, i) => ({
    name: names[i]!,
    type: column.type === "integer" ? ColumnType.Long : ColumnType.String,
    title: null,
    description: null,
    width: -1,
    precision: -1,
    scale: -1,
    nullable: true,
    unique: false,
    primary_key: false,
  }));
  const header: HeaderMeta = {
    geometryType: GeometryType.Unknown,
    columns,
    envelope: null,
    featuresCount: 0,
    indexNodeSize: 0,
    crs: null,
    title: null,
    description: null,
    metadata: null,
  };
  return guard({
    async write({ geometry, properties }) {
      const values: Record<string, string | number | null> = {};
      options.columns.forEach((column, i) => (values[names[i]!] = properties[column.name] ?? null));
      await body.append(buildFeature(parsed(geometry), values, header));
      header.featuresCount++;
    },
    async finish() {
      await body.close();
      const out = createWriteStream(path);
      out.write(magicbytes);
      out.write(buildHeader(header, 4326));
      await pipeline(createReadStream(body.path), out);
      await rm(body.path);
      return [path];
    },
    close: () => body.discard(),
    paths: () => [path, body.path],
  });
}
