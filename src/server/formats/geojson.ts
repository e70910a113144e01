/** GeoJSON (RFC 7946): a FeatureCollection written as header, comma-joined features, footer. */
import { join } from "node:path";
import { FileSink } from "./file-sink.js";
import { guard } from "./lifecycle.js";
import type { ExportFeature, ExportOptions, ExportWriter } from "./types.js";

/** The JSON text of a feature's properties, in the order of `columns` (a "json" column's text nested as JSON); /snapshot/plain/ writes the same. */
export function geoJsonProperties(columns: ExportOptions["columns"]): (properties: ExportFeature["properties"]) => string {
  // Each member's name is encoded once; a feature costs only its values.
  const members = columns.map((column) => ({ name: column.name, prefix: JSON.stringify(column.name) + ":", json: column.type === "json" }));
  return (properties) =>
    `{${members
      .map(({ name, prefix, json }) => {
        const value = properties[name] ?? null;
        return prefix + (json && typeof value === "string" ? value : JSON.stringify(value));
      })
      .join(",")}}`;
}

export async function createGeoJsonWriter(directory: string, baseName: string, options: ExportOptions): Promise<ExportWriter> {
  const sink = await FileSink.create(join(directory, `${baseName}.geojson`));
  const encode = geoJsonProperties(options.columns);
  await sink.append('{"type":"FeatureCollection","features":[\n');
  let separator = "";
  return guard({
    async write({ geometry, properties }) {
      await sink.append(`${separator}{"type":"Feature","properties":${encode(properties)},"geometry":${JSON.stringify(geometry)}}`);
      separator = ",\n";
    },
    async finish() {
      await sink.append("\n]}\n");
      await sink.close();
      return [sink.path];
    },
    close: () => sink.discard(),
    paths: () => [sink.path],
  });
}
