/**
 * Each filter rule of docs/decisions.md over real HTTP on the real Monaco data: the features in the
 * downloaded Export.geojson (read by GDAL from the zip) must be exactly those that plain SQL
 * over every Monaco feature (GDAL/SpatiaLite) selects for the rule.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { afterFile } from "../../support/cleanup.js";
import type { PolygonalGeometry } from "../../../src/model/geojson.js";
import { gdalRows, gdalTable, hasGdal, intersecting, writeFeaturesFile } from "../query/gdal-oracle.js";
import { exportZip, startExportServer, type ExportServer } from "./exports.js";

/** A concave area over Monaco's centre: the exact test matters, a bounding box would take more. */
const AREA: PolygonalGeometry = {
  type: "Polygon",
  coordinates: [[[7.412, 43.728], [7.43, 43.728], [7.43, 43.733], [7.421, 43.733], [7.421, 43.74], [7.412, 43.74], [7.412, 43.728]]],
};

const POINT = "GeometryType(geometry) = 'POINT'";
const LINE = "GeometryType(geometry) IN ('LINESTRING', 'MULTILINESTRING')";
const POLYGON = "GeometryType(geometry) IN ('POLYGON', 'MULTIPOLYGON')";
const tag = (key: string) => `json_extract(tags, '$."${key}"')`;

describe.skipIf(!hasGdal)("POST /latest/snapshot/ filters, against SQL over all of Monaco", { timeout: 300_000 }, () => {
  let server: ExportServer;
  let everything: string;

  beforeAll(async () => {
    server = await startExportServer();
    const directory = mkdtempSync(join(tmpdir(), "basemodel-oracle-"));
    afterFile(() => rmSync(directory, { recursive: true, force: true }));
    everything = join(directory, "features.geojson");
    await writeFeaturesFile(server.store, everything);
  }, 300_000);

  /** "POINT:123"-style keys, sorted: osm ids repeat across nodes and ways, the geometry type tells them apart. */
  const expected = async (where: string): Promise<string[]> =>
    (await gdalRows(everything, `SELECT GeometryType(geometry), osm_id FROM features WHERE ${intersecting(AREA)} AND (${where})`))
      .map(([type, id]) => `${type}:${id}`)
      .sort();

  async function exported(filters: Record<string, unknown>): Promise<string[]> {
    const { zip } = await exportZip(server, { geometry: AREA, ...filters });
    return (await gdalRows(`/vsizip/${zip}/Export.geojson`, "SELECT GeometryType(geometry), osm_id FROM Export"))
      .map(([type, id]) => `${type}:${id}`)
      .sort();
  }

  async function check(filters: Record<string, unknown>, where: string): Promise<void> {
    const want = await expected(where);
    expect(want.length).toBeGreaterThan(0);
    expect(await exported(filters)).toEqual(want);
  }

  it("no filter: every feature whose geometry intersects the area (not its bounding box)", async () => {
    await check({}, "1");
    const boxOnly = await gdalRows(everything, "SELECT count(*) FROM features WHERE MbrIntersects(geometry, BuildMbr(7.412, 43.728, 7.43, 43.74))");
    expect(Number(boxOnly[0]![0])).toBeGreaterThan((await expected("1")).length);
  });

  it('geometryType ["point"] is nodes; ["line", "polygon"] is ways and relations by their geometry', async () => {
    await Promise.all([
      check({ geometryType: ["point"] }, POINT),
      check({ geometryType: ["line", "polygon"] }, `${LINE} OR ${POLYGON}`),
      check({ geometryType: ["all_geometry"] }, "1"),
    ]);
  });

  it("a tag key with [] means the key is present; one value is equality; several are any of them", async () => {
    await Promise.all([
      check({ geometryType: ["polygon"], filters: { tags: { polygon: { building: [] } } } }, `${POLYGON} AND ${tag("building")} IS NOT NULL`),
      check({ geometryType: ["point"], filters: { tags: { point: { amenity: ["cafe"] } } } }, `${POINT} AND ${tag("amenity")} = 'cafe'`),
      check(
        { geometryType: ["point"], filters: { tags: { point: { amenity: ["restaurant", "cafe", "bar"] } } } },
        `${POINT} AND ${tag("amenity")} IN ('restaurant', 'cafe', 'bar')`,
      ),
    ]);
  });

  it("a per-type filter restricts only its own type: lines and polygons all come too", async () => {
    await check({ filters: { tags: { point: { amenity: ["cafe"] } } } }, `(${POINT} AND ${tag("amenity")} = 'cafe') OR ${LINE} OR ${POLYGON}`);
  });

  it("allGeometry (or all_geometry) applies to every type and overrides the per-type filters", async () => {
    const where = `${tag("building")} IS NOT NULL`;
    await Promise.all([
      check({ filters: { tags: { allGeometry: { building: [] }, point: { amenity: ["cafe"] } } } }, where),
      check({ filters: { tags: { all_geometry: { building: [] } } } }, where),
    ]);
  });

  it("joinFilterType: OR (the default) takes either condition, AND both", async () => {
    const tags = { polygon: { building: [], "addr:street": [] } };
    const either = `${tag("building")} IS NOT NULL OR ${tag("addr:street")} IS NOT NULL`;
    const both = `${tag("building")} IS NOT NULL AND ${tag("addr:street")} IS NOT NULL`;
    await Promise.all([
      check({ geometryType: ["polygon"], filters: { tags } }, `${POLYGON} AND (${either})`),
      check({ geometryType: ["polygon"], joinFilterType: "AND", filters: { tags } }, `${POLYGON} AND (${both})`),
      check({ geometry_type: ["polygon"], join_filter_type: "AND", filters: { tags } }, `${POLYGON} AND (${both})`),
    ]);
  });

  it("keys and values are trimmed, as the real service does", async () => {
    await check({ geometryType: ["point"], filters: { tags: { point: { " amenity ": [" cafe "] } } } }, `${POINT} AND ${tag("amenity")} = 'cafe'`);
  });

  it("attributes choose the columns: osm_id always, then one column per tag key, null where a feature lacks it", async () => {
    const { zip } = await exportZip(server, {
      geometry: AREA,
      geometryType: ["point"],
      filters: { tags: { point: { amenity: [] } }, attributes: { allGeometry: ["name", "addr:street, cuisine"], point: ["ignored"] } },
    });
    // Exactly these columns, in this order.
    expect((await gdalTable(`/vsizip/${zip}/Export.geojson`, "SELECT * FROM Export LIMIT 1")).columns).toEqual(["osm_id", "name", "addr:street", "cuisine"]);
    const got = (await gdalRows(`/vsizip/${zip}/Export.geojson`, `SELECT osm_id, name IS NULL, "addr:street" IS NULL, cuisine IS NULL FROM Export`))
      .map((row) => row.join(" "))
      .sort();
    const want = (
      await gdalRows(
        everything,
        `SELECT osm_id, ${tag("name")} IS NULL, ${tag("addr:street")} IS NULL, ${tag("cuisine")} IS NULL FROM features WHERE ${intersecting(AREA)} AND ${POINT} AND ${tag("amenity")} IS NOT NULL`,
      )
    )
      .map((row) => row.join(" "))
      .sort();
    expect(got).toEqual(want);
    // Both a present and a missing value occur, so the comparison above is not trivial.
    expect(new Set(got.map((row) => row.split(" ")[1]))).toEqual(new Set(["0", "1"]));
  });

  // Geofabrik's public extracts carry no changeset ids, so changeset may be null here.
  it("without attributes: osm_id, version, changeset, timestamp and the tags as an object", async () => {
    const { zip } = await exportZip(server, { geometry: AREA, geometryType: ["point"], filters: { tags: { point: { amenity: ["cafe"] } } } });
    const got = await gdalRows(`/vsizip/${zip}/Export.geojson`, "SELECT osm_id, version > 0, changeset IS NULL OR changeset > 0, timestamp LIKE '20%Z', json_extract(tags, '$.amenity') FROM Export");
    expect(got.length).toBeGreaterThan(0);
    for (const row of got) expect(row.slice(1)).toEqual(["1", "1", "1", "cafe"]);
  });
});
