/** GeoJSON (RFC 7946): a FeatureCollection written as header, comma-joined features, footer. */
import { join } from "node:path";
import { FileSink } from "./file-sink.js";
import { guard } from "./lifecycle.js";
import type { ExportOptions, ExportWriter } from "./types.js";

export async function createGeoJsonWriter(directory: string, baseName: string, options: ExportOptions): Promise<ExportWriter> {
  const sink = await FileSink.create(join(directory, `${baseName}.geojson`));
  const names = options.columns.map((column) => column.name);
  await sink.append('{"type":"FeatureCollection","features":[\n');
  let separator = "";
  return guard({
    async write({ geometry, properties }) {
      const chosen: Record<string, string | number | null> = {};
      for (const name of names) chosen[name] = properties[name] ?? null;
      await sink.append(`${separator}{"type":"Feature","properties":${JSON.stringify(chosen)},"geometry":${JSON.stringify(geometry)}}`);
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
