/**
 * GeoPackage 1.3 on better-sqlite3: one feature table named after the export with geometry
 * type GEOMETRY, because an export mixes points, lines and polygons (as ogr2ogr's single -sql
 * run does for the real service). Rows are inserted in one transaction, so memory stays flat.
 */
import { rm } from "node:fs/promises";
import { join } from "node:path";
import type BetterSqlite3 from "better-sqlite3";
import { emptyBBox, extendBBox, geometryBBox, type BBox, type Geometry } from "../../model/geojson.js";
import { guard } from "./lifecycle.js";
import { uniqueNames } from "./names.js";
import type { ExportOptions, ExportWriter } from "./types.js";
import { toWkb } from "./wkb.js";

const GPKG_APPLICATION_ID = 0x47504b47;
const GPKG_VERSION = 10300;
const WGS84_WKT =
  'GEOGCS["WGS 84",DATUM["WGS_1984",SPHEROID["WGS 84",6378137,298.257223563,AUTHORITY["EPSG","7030"]],AUTHORITY["EPSG","6326"]],' +
  'PRIMEM["Greenwich",0,AUTHORITY["EPSG","8901"]],UNIT["degree",0.0174532925199433,AUTHORITY["EPSG","9122"]],AUTHORITY["EPSG","4326"]]';

const quote = (identifier: string): string => `"${identifier.replaceAll('"', '""')}"`;

const SCHEMA = `
CREATE TABLE gpkg_spatial_ref_sys (srs_name TEXT NOT NULL, srs_id INTEGER PRIMARY KEY, organization TEXT NOT NULL,
  organization_coordsys_id INTEGER NOT NULL, definition TEXT NOT NULL, description TEXT);
INSERT INTO gpkg_spatial_ref_sys VALUES
  ('Undefined cartesian SRS', -1, 'NONE', -1, 'undefined', 'undefined cartesian coordinate reference system'),
  ('Undefined geographic SRS', 0, 'NONE', 0, 'undefined', 'undefined geographic coordinate reference system'),
  ('WGS 84 geodetic', 4326, 'EPSG', 4326, '${WGS84_WKT}', 'longitude/latitude coordinates in decimal degrees on the WGS 84 spheroid');
CREATE TABLE gpkg_contents (table_name TEXT NOT NULL PRIMARY KEY, data_type TEXT NOT NULL, identifier TEXT UNIQUE,
  description TEXT DEFAULT '', last_change DATETIME NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')),
  min_x DOUBLE, min_y DOUBLE, max_x DOUBLE, max_y DOUBLE, srs_id INTEGER,
  CONSTRAINT fk_gc_r_srs_id FOREIGN KEY (srs_id) REFERENCES gpkg_spatial_ref_sys(srs_id));
CREATE TABLE gpkg_geometry_columns (table_name TEXT NOT NULL, column_name TEXT NOT NULL, geometry_type_name TEXT NOT NULL,
  srs_id INTEGER NOT NULL, z TINYINT NOT NULL, m TINYINT NOT NULL,
  CONSTRAINT pk_geom_cols PRIMARY KEY (table_name, column_name),
  CONSTRAINT fk_gc_tn FOREIGN KEY (table_name) REFERENCES gpkg_contents(table_name),
  CONSTRAINT fk_gc_srs FOREIGN KEY (srs_id) REFERENCES gpkg_spatial_ref_sys(srs_id));
`;

/** GeoPackage binary header (magic, version 0, little-endian, SRS 4326, xy envelope except for points) before the WKB. */
function gpkgGeometry(geometry: Geometry, box: BBox): Buffer {
  const withEnvelope = geometry.type !== "Point";
  const headerLength = 8 + (withEnvelope ? 32 : 0);
  const blob = toWkb(geometry, headerLength);
  blob.write("GP", 0, "latin1");
  blob.writeUInt8(0, 2);
  blob.writeUInt8(withEnvelope ? 0b011 : 0b001, 3);
  blob.writeInt32LE(4326, 4);
  if (withEnvelope) {
    blob.writeDoubleLE(box.minX, 8);
    blob.writeDoubleLE(box.maxX, 16);
    blob.writeDoubleLE(box.minY, 24);
    blob.writeDoubleLE(box.maxY, 32);
  }
  return blob;
}

export async function createGpkgWriter(directory: string, baseName: string, options: ExportOptions): Promise<ExportWriter> {
  const path = join(directory, `${baseName}.gpkg`);
  // A native, optional peer dependency: loaded only when a GeoPackage is asked for.
  const Database: typeof BetterSqlite3 = (await import("better-sqlite3")).default;
  await rm(path, { force: true });
  const db = new Database(path);
  const names = uniqueNames(
    options.columns.map((column) => column.name),
    Infinity,
    ["fid", "geom"],
  );
  const extent = emptyBBox();
  db.pragma(`application_id = ${GPKG_APPLICATION_ID}`);
  db.pragma(`user_version = ${GPKG_VERSION}`);
  db.exec(SCHEMA);
  const columnsSql = options.columns.map((column, i) => `${quote(names[i]!)} ${column.type === "integer" ? "INTEGER" : "TEXT"}`);
  db.exec(`CREATE TABLE ${quote(baseName)} (fid INTEGER PRIMARY KEY AUTOINCREMENT, geom GEOMETRY${columnsSql.map((c) => `, ${c}`).join("")})`);
  db.prepare("INSERT INTO gpkg_contents (table_name, data_type, identifier, srs_id) VALUES (?, 'features', ?, 4326)").run(baseName, baseName);
  db.prepare("INSERT INTO gpkg_geometry_columns VALUES (?, 'geom', 'GEOMETRY', 4326, 0, 0)").run(baseName);
  const insert = db.prepare(
    `INSERT INTO ${quote(baseName)} (geom${names.map((name) => `, ${quote(name)}`).join("")}) VALUES (?${names.map(() => ", ?").join("")})`,
  );
  db.exec("BEGIN");
  return guard({
    write({ geometry, properties }) {
      const box = geometryBBox(geometry);
      extendBBox(extent, box);
      insert.run(gpkgGeometry(geometry, box), ...options.columns.map((column) => properties[column.name] ?? null));
    },
    async finish() {
      if (extent.minX <= extent.maxX) {
        db.prepare("UPDATE gpkg_contents SET min_x = ?, min_y = ?, max_x = ?, max_y = ?").run(extent.minX, extent.minY, extent.maxX, extent.maxY);
      }
      db.exec("COMMIT");
      db.close();
      return [path];
    },
    close() {
      if (db.open) db.close();
    },
    paths: () => [path, `${path}-journal`],
  });
}
