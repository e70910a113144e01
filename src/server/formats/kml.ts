/**
 * KML 2.2: one Placemark per feature, the properties as ExtendedData/SchemaData against a
 * Schema declared once (what ogr2ogr writes, and what GDAL and Google Earth read back as typed
 * fields). Multi-geometries become MultiGeometry.
 */
import { join } from "node:path";
import type { Geometry, Position } from "../../model/geojson.js";
import { FileSink } from "./file-sink.js";
import { guard } from "./lifecycle.js";
import { formatNumber } from "./numbers.js";
import type { ExportOptions, ExportWriter } from "./types.js";

const XML_ENTITIES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&apos;" };

/** Escapes markup, and drops the control characters that XML 1.0 cannot hold at all. */
export function escapeXml(text: string): string {
  return text.replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g, "").replace(/[&<>"']/g, (c) => XML_ENTITIES[c] ?? c);
}

const coordinates = (line: Position[]): string =>
  `<coordinates>${line.map(([x, y]) => `${formatNumber(x)},${formatNumber(y)}`).join(" ")}</coordinates>`;
const lineString = (line: Position[]): string => `<LineString>${coordinates(line)}</LineString>`;
const ring = (line: Position[]): string => `<LinearRing>${coordinates(line)}</LinearRing>`;
const polygon = ([outer = [], ...holes]: Position[][]): string =>
  `<Polygon><outerBoundaryIs>${ring(outer)}</outerBoundaryIs>${holes.map((hole) => `<innerBoundaryIs>${ring(hole)}</innerBoundaryIs>`).join("")}</Polygon>`;

function geometryKml(geometry: Geometry): string {
  switch (geometry.type) {
    case "Point":
      return `<Point>${coordinates([geometry.coordinates])}</Point>`;
    case "LineString":
      return lineString(geometry.coordinates);
    case "MultiLineString":
      return `<MultiGeometry>${geometry.coordinates.map(lineString).join("")}</MultiGeometry>`;
    case "Polygon":
      return polygon(geometry.coordinates);
    case "MultiPolygon":
      return `<MultiGeometry>${geometry.coordinates.map(polygon).join("")}</MultiGeometry>`;
  }
}

export async function createKmlWriter(directory: string, baseName: string, options: ExportOptions): Promise<ExportWriter> {
  const sink = await FileSink.create(join(directory, `${baseName}.kml`));
  const schemaId = escapeXml(baseName);
  const fields = options.columns.map((column) => ({ name: column.name, xmlName: escapeXml(column.name) }));
  // KML's "int" is 32-bit, and osm ids go beyond 2^31: every field is a string.
  const simpleFields = options.columns.map((column) => `<SimpleField name="${escapeXml(column.name)}" type="string"/>`).join("");
  await sink.append(
    `<?xml version="1.0" encoding="UTF-8"?>\n<kml xmlns="http://www.opengis.net/kml/2.2"><Document id="root_doc">\n` +
      `<Schema name="${schemaId}" id="${schemaId}">${simpleFields}</Schema>\n<Folder><name>${schemaId}</name>\n`,
  );
  return guard({
    async write({ geometry, properties }) {
      let data = "";
      for (const { name, xmlName } of fields) {
        const value = properties[name];
        if (value !== null && value !== undefined) data += `<SimpleData name="${xmlName}">${escapeXml(String(value))}</SimpleData>`;
      }
      await sink.append(`<Placemark><ExtendedData><SchemaData schemaUrl="#${schemaId}">${data}</SchemaData></ExtendedData>${geometryKml(geometry)}</Placemark>\n`);
    },
    async finish() {
      await sink.append("</Folder></Document></kml>\n");
      await sink.close();
      return [sink.path];
    },
    close: () => sink.discard(),
    paths: () => [sink.path],
  });
}
