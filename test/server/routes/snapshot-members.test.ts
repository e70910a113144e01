/**
 * The members real clients send to POST /latest/snapshot/, each on real data over real HTTP:
 * useStWithin, centroid, bindZip, uuid, includeStats, includeUserMetadata, a Feature or
 * FeatureCollection as the area, and the joinOr/joinAnd filter form, in both spellings.
 * Exports with bindZip false are plain GeoJSON, read here as JSON; the others through GDAL.
 */
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { EXAMPLE_POLYGON } from "../../../src/server/api/examples.js";
import { exportResultSchema } from "../../../src/server/api/snapshot.js";
import type { PolygonalGeometry } from "../../../src/model/geojson.js";
import type { Geometry, Position } from "../../../src/model/geojson.js";
import { FEATURE_TABLES } from "../../../src/model/features.js";
import { deleteOldExports } from "../../../src/server/tasks/export-tasks.js";
import { afterFile } from "../../support/cleanup.js";
import { gdalLayers, positions, readWithGdal } from "../export/helpers.js";
import { gdalRows, hasGdal, wkt, writeFeaturesFile } from "../query/gdal-oracle.js";
import { downloadFile, exportZip, finishedExport, pythonZip, startExportServer, type ExportServer, type FinishedExport } from "./exports.js";
import { demoStorePath, wireValidator } from "./helpers.js";
import { EVERYWHERE } from "../../../src/server/query/everywhere.js";

const square = (minX: number, minY: number, size: number): Extract<PolygonalGeometry, { type: "Polygon" }> => ({
  type: "Polygon",
  coordinates: [[[minX, minY], [minX + size, minY], [minX + size, minY + size], [minX, minY + size], [minX, minY]]],
});

/** Monte-Carlo, about 0.3 km²: hundreds of features of every kind, many across its edges. */
const CENTRE = square(7.424, 43.737, 0.006);
/** A concave area over Monaco's centre: there, only an exact test tells what lies within it. */
/** The demo town's centre, about 1 km²: over 100 buildings, streets, shops, edits by several mappers over years. */
const TOWN = EXAMPLE_POLYGON;
const CONCAVE: PolygonalGeometry = {
  type: "Polygon",
  coordinates: [[[7.412, 43.728], [7.43, 43.728], [7.43, 43.733], [7.421, 43.733], [7.421, 43.74], [7.412, 43.74], [7.412, 43.728]]],
};

interface Feature {
  geometry: Geometry;
  properties: Record<string, unknown>;
}

const kindOf = (geometry: Geometry): string => (geometry.type.endsWith("Point") ? "point" : geometry.type.endsWith("LineString") ? "line" : "polygon");
/** "polygon:123"-style keys, sorted: osm ids repeat across nodes and ways, the kind tells them apart. */
const keys = (features: Feature[]): string[] => features.map((feature) => `${kindOf(feature.geometry)}:${feature.properties.osm_id}`).sort();

let server: ExportServer;
let demo: ExportServer;

beforeAll(async () => {
  [server, demo] = await Promise.all([startExportServer(), startExportServer({ store: await demoStorePath() })]);
}, 300_000);

/** The task status and the features of an export served bare (bindZip false), as its GeoJSON says. */
async function bare(on: ExportServer, body: Record<string, unknown>): Promise<{ status: FinishedExport; features: Feature[] }> {
  const status = await finishedExport(on, { bindZip: false, ...body });
  const answer = await fetch(status.result.downloadUrl);
  expect(answer.status).toBe(200);
  return { status, features: JSON.parse(await answer.text()).features };
}

const features = async (body: Record<string, unknown>, on = server): Promise<Feature[]> => (await bare(on, body)).features;

async function refused(body: unknown, on = server): Promise<Array<{ loc: Array<string | number>; msg: string; type: string }>> {
  const answer = await on.post("/latest/snapshot/", body);
  expect(answer.status, answer.text).toBe(422);
  return answer.body.detail;
}

describe("useStWithin: only the features within the area", { timeout: 300_000 }, () => {
  it("drops the features that cross the edge, keeps those inside, in every spelling", async () => {
    const intersecting = await features({ geometry: CENTRE });
    const within = await features({ geometry: CENTRE, useStWithin: true });
    expect(within.length).toBeGreaterThan(100);
    expect(within.length).toBeLessThan(intersecting.length);
    const [minX, minY] = CENTRE.coordinates[0]![0]!;
    const [maxX, maxY] = CENTRE.coordinates[0]![2]!;
    const inside = ([x, y]: Position) => x >= minX && x <= maxX && y >= minY && y <= maxY;
    // The area is convex: a feature lies within it when all its positions do (and not all on its edge).
    for (const feature of within) expect(positions(feature.geometry).every(inside), JSON.stringify(feature.properties)).toBe(true);
    const kept = new Set(keys(within));
    const dropped = intersecting.filter((feature) => !kept.has(keys([feature])[0]!));
    expect(dropped.length).toBeGreaterThan(10);
    for (const feature of dropped) expect(positions(feature.geometry).every(inside), JSON.stringify(feature.properties)).toBe(false);
    expect(keys(intersecting)).toEqual(expect.arrayContaining(keys(within)));

    expect(keys(await features({ geometry: CENTRE, use_st_within: "true" }))).toEqual(keys(within));
    // fAIr sends the string "false".
    expect(keys(await features({ geometry: CENTRE, useStWithin: "false" }))).toEqual(keys(intersecting));
    expect(keys(await features({ geometry: CENTRE, useStWithin: false }))).toEqual(keys(intersecting));
  });

  it.skipIf(!hasGdal)("on a concave area, exactly the features SpatiaLite's ST_Within selects", async () => {
    const directory = mkdtempSync(join(tmpdir(), "basemodel-within-"));
    afterFile(() => rmSync(directory, { recursive: true, force: true }));
    const everything = join(directory, "features.geojson");
    await writeFeaturesFile(server.store, everything);
    const kind = "CASE WHEN GeometryType(geometry) = 'POINT' THEN 'point' WHEN GeometryType(geometry) LIKE '%LINESTRING' THEN 'line' ELSE 'polygon' END";
    const select = (test: string) => gdalRows(everything, `SELECT ${kind}, osm_id FROM features WHERE ${test}(geometry, ST_GeomFromText('${wkt(CONCAVE)}', 4326))`);
    const expected = (await select("ST_Within")).map(([type, id]) => `${type}:${id}`).sort();
    expect(expected.length).toBeGreaterThan(100);
    expect((await select("ST_Intersects")).length).toBeGreaterThan(expected.length);
    expect(keys(await features({ geometry: CONCAVE, useStWithin: true }))).toEqual(expected);
  });

  it("refuses a value that is no yes or no", async () => {
    const [detail] = await refused({ geometry: CENTRE, useStWithin: "yes" });
    expect(detail).toMatchObject({ loc: ["body", "useStWithin"], type: "enum" });
    expect(detail!.msg).toContain('true, false, "true", "false"');
  });
});

describe("centroid: points instead of geometries", { timeout: 300_000 }, () => {
  const isConvex = (ring: Position[]): boolean => {
    let sign = 0;
    for (let i = 0; i + 2 < ring.length + 1; i++) {
      const [a, b, c] = [ring[i % (ring.length - 1)]!, ring[(i + 1) % (ring.length - 1)]!, ring[(i + 2) % (ring.length - 1)]!];
      const cross = (b[0] - a[0]) * (c[1] - b[1]) - (b[1] - a[1]) * (c[0] - b[0]);
      if (cross === 0) continue;
      if (sign !== 0 && Math.sign(cross) !== sign) return false;
      sign = Math.sign(cross);
    }
    return true;
  };
  /** Strictly inside a convex ring: on the same side of every edge. */
  const insideConvex = ([x, y]: Position, ring: Position[]): boolean => {
    const sides = ring.slice(1).map((b, i) => {
      const a = ring[i]!;
      return Math.sign((b[0] - a[0]) * (y - a[1]) - (b[1] - a[1]) * (x - a[0]));
    });
    return sides.every((side) => side === sides[0] && side !== 0);
  };

  it("gives each feature's centroid, inside the convex polygons, for the same features", async () => {
    const shapes = await features({ geometry: CENTRE, geometryType: ["polygon"] });
    const points = await features({ geometry: CENTRE, geometryType: ["polygon"], centroid: true });
    expect(points.map((feature) => feature.properties.osm_id)).toEqual(shapes.map((feature) => feature.properties.osm_id));
    expect(new Set(points.map((feature) => feature.geometry.type))).toEqual(new Set(["Point"]));
    let convex = 0;
    shapes.forEach((shape, i) => {
      if (shape.geometry.type !== "Polygon" || shape.geometry.coordinates.length !== 1 || !isConvex(shape.geometry.coordinates[0]!)) return;
      convex++;
      const point = points[i]!.geometry.coordinates as Position;
      expect(insideConvex(point, shape.geometry.coordinates[0]!), `${shape.properties.osm_id}: ${point}`).toBe(true);
    });
    expect(convex).toBeGreaterThan(50);
  });

  it.skipIf(!hasGdal)("the centroids are SpatiaLite's ST_Centroid (PostGIS's), to OSM's 1e-7 degrees", async () => {
    const { status } = await bare(server, { geometry: CENTRE, geometryType: ["line", "polygon"] });
    const shapes = await downloadFile(status.result.downloadUrl, "shapes.geojson");
    const expected = await gdalRows(shapes, "SELECT ST_X(ST_Centroid(geometry)), ST_Y(ST_Centroid(geometry)) FROM shapes");
    const points = await features({ geometry: CENTRE, geometryType: ["line", "polygon"], centroid: "true" });
    expect(points).toHaveLength(expected.length);
    points.forEach((point, i) => {
      const [x, y] = point.geometry.coordinates as Position;
      expect(Math.abs(x - Number(expected[i]![0]))).toBeLessThan(1.5e-7);
      expect(Math.abs(y - Number(expected[i]![1]))).toBeLessThan(1.5e-7);
    });
  });

  it.skipIf(!hasGdal)("a shapefile of centroids is one shapefile of points", async () => {
    const { zip } = await exportZip(server, { geometry: CENTRE, outputType: "shp", centroid: true });
    const all = await features({ geometry: CENTRE });
    expect(pythonZip(zip, "print('\\n'.join(sorted(z.namelist())))").trim().split("\n").filter((name) => name.endsWith(".shp"))).toEqual(["Export_point.shp"]);
    expect(await gdalLayers(`/vsizip/${zip}/Export_point.shp`)).toEqual([{ name: "Export_point", geometry: "Point", count: all.length }]);
  });
});

describe("bindZip: false serves the bare file", { timeout: 300_000 }, () => {
  it.skipIf(!hasGdal)("GeoJSON that GDAL opens directly: the features of the zipped export, the sizes of the file", async () => {
    const { zip } = await exportZip(server, { geometry: CENTRE });
    const zipped = await gdalLayers(`/vsizip/${zip}/Export.geojson`);
    const status = await finishedExport(server, { geometry: CENTRE, bindZip: false });
    expect(status.result.downloadUrl).toBe(`${server.url}/exports/Export_geojson_uid_${status.id}.geojson`);
    const answer = await fetch(status.result.downloadUrl);
    expect(answer.headers.get("content-type")).toMatch(/^application\/geo\+json/);
    const file = await downloadFile(status.result.downloadUrl, "bare.geojson");
    expect(await gdalLayers(file)).toEqual([{ ...zipped[0]!, name: "bare" }]);
    expect(status.result.zipFileSizeBytes).toBe(statSync(file).size);
    expect(status.result.bindedFileSize).toBe(`${(statSync(file).size / 1e6).toFixed(2)} MB`);
  });

  it.skipIf(!hasGdal)("FlatGeobuf too, spelled bind_zip, as the string \"false\"", async () => {
    const status = await finishedExport(server, { geometry: CENTRE, outputType: "fgb", bind_zip: "false" });
    expect(status.result.downloadUrl).toMatch(new RegExp(`/exports/Export_fgb_uid_${status.id}\\.fgb$`));
    const file = await downloadFile(status.result.downloadUrl, "bare.fgb");
    const [layer] = await gdalLayers(file);
    expect(layer!.count).toBe((await features({ geometry: CENTRE })).length);
  });

  it("a bare download resumes with a Range request", async () => {
    const status = await finishedExport(server, { geometry: CENTRE, bindZip: false });
    const whole = Buffer.from(await (await fetch(status.result.downloadUrl)).arrayBuffer());
    const part = await fetch(status.result.downloadUrl, { headers: { range: "bytes=100-199" } });
    expect(part.status).toBe(206);
    expect(Buffer.from(await part.arrayBuffer())).toEqual(whole.subarray(100, 200));
  });

  it("the formats of several files, or none a client reads as it comes, stay zipped: a 422 says so", async () => {
    for (const outputType of ["shp", "gpkg", "kml", "csv"]) {
      const [detail] = await refused({ geometry: CENTRE, outputType, bindZip: false });
      expect(detail, outputType).toMatchObject({ loc: ["body", "bindZip"], type: "value_error" });
      expect(detail!.msg).toContain(`a ${outputType} export comes zipped`);
    }
  });
});

describe("uuid: false names the file without the task id", { timeout: 300_000 }, () => {
  it("each task in a folder of its own: two exports of one name, both kept, both served", async () => {
    const statuses = await Promise.all([0, 1].map(() => finishedExport(server, { geometry: CENTRE, fileName: "recurring", uuid: false })));
    const [first, second] = statuses;
    for (const status of statuses) expect(status.result.downloadUrl).toBe(`${server.url}/exports/${status.id}/recurring_geojson.zip`);
    expect(first!.result.downloadUrl).not.toBe(second!.result.downloadUrl);
    for (const status of statuses) {
      const path = join(server.directory, status.id, "recurring_geojson.zip");
      expect(existsSync(path)).toBe(true);
      const zip = await downloadFile(status.result.downloadUrl, "recurring_geojson.zip");
      expect(statSync(zip).size).toBe(status.result.zipFileSizeBytes);
      expect(pythonZip(zip, "print(z.namelist()[0])").trim()).toBe("recurring.geojson");
    }
  });

  it("names stay safe, bare files too; nothing lands outside the export folder", async () => {
    const status = await finishedExport(server, { geometry: CENTRE, fileName: "../../escape", uuid: "false", bindZip: false });
    expect(status.result.downloadUrl).toBe(`${server.url}/exports/${status.id}/_escape_geojson.geojson`);
    expect(readdirSync(dirname(server.directory))).toEqual(["exports"]);
    expect(readdirSync(join(server.directory, status.id))).toEqual(["_escape_geojson.geojson"]);
    for (const path of [`/exports/${status.id}/../package.json`, `/exports/${status.id}/x.zip`, "/exports/not-a-task/recurring_geojson.zip", `/exports/${status.id}/.tasks.sqlite`]) {
      expect((await server.get(path)).status, path).toBe(404);
    }
  });

  it("clean-up deletes them and their folders", async () => {
    const status = await finishedExport(server, { geometry: CENTRE, uuid: false });
    // A moment later, so that the file is older than "now" to the millisecond; its folder is changed by the deletion itself.
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect((await deleteOldExports(server.queue, server.artifacts, 0)).files).toBeGreaterThan(0);
    expect(existsSync(join(server.directory, status.id))).toBe(false);
    expect((await fetch(status.result.downloadUrl)).status).toBe(404);
  });
});

describe("includeStats", { timeout: 300_000 }, () => {
  const validResult = wireValidator("ExportResult");

  it("counts the area's buildings and roads, when and by how many they were edited: in the result and the Readme", async () => {
    const area = { geometry: TOWN };
    const { zip, status } = await exportZip(demo, { ...area, includeStats: true, filters: { tags: { point: { amenity: [] } } } });
    const stats = status.result.stats!;
    expect(validResult(status.result)).toBe(true);
    // The published schema names what a result has, and nothing a result never has.
    expect(Object.keys(exportResultSchema.properties).sort()).toEqual(Object.keys(status.result).sort());
    // Whatever the export's own filters: every building and every highway in the area.
    const buildings = await features({ ...area, geometryType: ["polygon"], filters: { tags: { polygon: { building: [] } } } }, demo);
    const roads = await features({ ...area, geometryType: ["line"], filters: { tags: { line: { highway: [] } } } }, demo);
    expect(stats.raw.osmBuildingsCount).toBe(buildings.length);
    expect(stats.raw.osmBuildingsCount).toBeGreaterThan(100);
    expect(stats.raw.osmHighwayLengthKm).toBeCloseTo(roads.map((road) => haversineKm(road.geometry)).reduce((a, b) => a + b, 0), 2);
    const edited = [...buildings, ...roads];
    const times = edited.map((feature) => Date.parse(`${feature.properties.timestamp}`)).sort((a, b) => a - b);
    expect(stats.raw.lastEditTime).toBe(new Date(times.at(-1)!).toISOString().slice(0, 19).replace("T", " "));
    expect(Date.parse(`${stats.raw.averageEditTime!.replace(" ", "T")}Z`)).toBeGreaterThanOrEqual(times[0]!);
    expect(stats.raw.buildingCount6Months).toBeLessThanOrEqual(stats.raw.osmBuildingsCount);
    expect(stats.raw.osmUsersCount).toBeGreaterThan(0);
    expect(stats.raw.population).toBeNull();
    expect(stats.summary.buildings).toMatch(new RegExp(`^OpenStreetMap contains ${buildings.length} buildings in this region\\.`));
    expect(stats.meta.lastUpdated).toBe("2025-01-01 00:00:00");

    const readme = pythonZip(zip, "print(z.read('Readme.txt').decode('utf-8'))");
    expect(readme).toContain(stats.summary.buildings);
    expect(readme).toContain(stats.summary.roads);
  });

  it("counts the edits of the 6 months before the data's last update", async () => {
    const { status } = await bare(demo, { geometry: TOWN, include_stats: true });
    const buildings = await features({ geometry: TOWN, geometryType: ["polygon"], filters: { tags: { polygon: { building: [] } } } }, demo);
    const recent = buildings.filter((feature) => `${feature.properties.timestamp}` >= "2024-07-01T00:00:00Z");
    expect(status.result.stats!.raw.buildingCount6Months).toBe(recent.length);
  });

  it("is left out unless asked for", async () => {
    const status = await finishedExport(server, { geometry: CENTRE, includeStats: false });
    expect(status.result).not.toHaveProperty("stats");
  });
});

describe("includeUserMetadata: uid and user columns", { timeout: 300_000 }, () => {
  /** The store's uid and user of every feature, by kind and osm_id. */
  async function editors(on: ExportServer): Promise<Map<string, { uid: number | null; user: string | null }>> {
    const found = new Map<string, { uid: number | null; user: string | null }>();
    for (const table of FEATURE_TABLES) {
      for await (const feature of on.store.candidates(table, EVERYWHERE)) {
        found.set(`${kindOf(feature.geometry)}:${feature.osmId}`, { uid: feature.uid, user: feature.user });
      }
    }
    return found;
  }

  it("after osm_id, with the default columns and with attributes, as the store has them", async () => {
    const area = TOWN;
    const store = await editors(demo);
    const all = await features({ geometry: area, includeUserMetadata: true }, demo);
    expect(Object.keys(all[0]!.properties)).toEqual(["osm_id", "uid", "user", "version", "changeset", "timestamp", "tags"]);
    const named = await features({ geometry: area, include_user_metadata: "true", filters: { attributes: { all_geometry: ["name", "user"] } } }, demo);
    expect(Object.keys(named[0]!.properties)).toEqual(["osm_id", "uid", "user", "name"]);
    for (const feature of [...all, ...named]) {
      const expected = store.get(keys([feature])[0]!);
      expect({ uid: feature.properties.uid, user: feature.properties.user }).toEqual(expected);
    }
    expect(new Set(all.map((feature) => feature.properties.user)).size).toBeGreaterThan(1);
    expect(Object.keys((await features({ geometry: area }, demo))[0]!.properties)).not.toContain("uid");
  });

  it.skipIf(!hasGdal)("as typed columns of a shapefile", async () => {
    const { zip } = await exportZip(demo, { geometry: TOWN, outputType: "shp", includeUserMetadata: true, geometryType: ["point"] });
    const [point] = await readWithGdal(`/vsizip/${zip}/Export_point.shp`);
    expect(typeof point!.properties.uid).toBe("number");
    expect(point!.properties.user).toMatch(/^demo_/);
  });
});

describe("geometry as a GeoJSON Feature or FeatureCollection", { timeout: 300_000 }, () => {
  const feature = (geometry: unknown) => ({ type: "Feature", properties: { drawn: "by hand" }, geometry });
  const rectangle = (minX: number, minY: number, maxX: number, maxY: number) => ({ type: "Polygon", coordinates: [[[minX, minY], [maxX, minY], [maxX, maxY], [minX, maxY], [minX, minY]]] });
  /** The two halves of CENTRE, sharing an edge. */
  const WEST = rectangle(7.424, 43.737, 7.427, 43.743);
  const EAST = rectangle(7.427, 43.737, 7.43, 43.743);
  const FAR = square(7.415, 43.73, 0.002);

  it("a Feature is its geometry", async () => {
    expect(keys(await features({ geometry: feature(CENTRE) }))).toEqual(keys(await features({ geometry: CENTRE })));
  });

  it("a FeatureCollection is the union of its polygons: one MultiPolygon when apart, one Polygon when they touch", async () => {
    const apart = await exportZip(server, { geometry: { type: "FeatureCollection", features: [feature(WEST), feature(FAR)] } });
    const both = new Set([...keys(await features({ geometry: WEST })), ...keys(await features({ geometry: FAR }))]);
    expect(keys(await features({ geometry: { type: "FeatureCollection", features: [feature(WEST), feature(FAR)] } }))).toEqual([...both].sort());
    const boundary = JSON.parse(pythonZip(apart.zip, "print(z.read('clipping_boundary.geojson').decode())"));
    expect(boundary.type).toBe("MultiPolygon");
    expect(boundary.coordinates).toHaveLength(2);

    const halves = { type: "FeatureCollection", features: [feature(WEST), feature(EAST)] };
    const merged = await exportZip(server, { geometry: halves });
    expect(JSON.parse(pythonZip(merged.zip, "print(z.read('clipping_boundary.geojson').decode())")).type).toBe("Polygon");
    expect(merged.status.result.queryArea).toBe((await finishedExport(server, { geometry: CENTRE })).result.queryArea);
    expect(keys(await features({ geometry: halves }))).toEqual(keys(await features({ geometry: CENTRE })));
  });

  it("anything but polygons is a 422 that points into the request", async () => {
    expect((await refused({ geometry: feature({ type: "Point", coordinates: [7.42, 43.73] }) }))[0]).toMatchObject({ loc: ["body", "geometry", "geometry", "type"], type: "enum" });
    const unclosed = { type: "Polygon", coordinates: [[[7.42, 43.73], [7.43, 43.73], [7.43, 43.74], [7.42, 43.74]]] };
    const [detail] = await refused({ geometry: { type: "FeatureCollection", features: [feature(WEST), feature(unclosed)] } });
    expect(detail!.loc.slice(0, 6)).toEqual(["body", "geometry", "features", 1, "geometry", "coordinates"]);
    expect((await refused({ geometry: { type: "FeatureCollection", features: [] } }))[0]!.loc).toEqual(["body", "geometry", "features"]);
    const [collection] = await refused({ geometry: { type: "GeometryCollection", geometries: [CENTRE] } });
    expect(collection).toMatchObject({ loc: ["body", "geometry", "type"], type: "enum" });
    expect(collection!.msg).toContain('"Polygon", "MultiPolygon", "Feature", "FeatureCollection"');
  });
});

describe("filters in the joinOr/joinAnd form, against the plain form on the same data", { timeout: 300_000 }, () => {
  const area = { geometry: CENTRE };
  const plain = (tags: Record<string, string[]>, joinFilterType = "OR") => features({ ...area, joinFilterType, filters: { tags: { allGeometry: tags } } });
  const joined = (filter: Record<string, unknown>, at = "all_geometry") => features({ ...area, filters: { tags: { [at]: filter } } });

  it("join_or is the keys OR-ed, join_and AND-ed, in either spelling", async () => {
    const or = keys(await plain({ building: [], amenity: [] }));
    expect(or.length).toBeGreaterThan(100);
    expect(keys(await joined({ join_or: { building: [], amenity: [] } }))).toEqual(or);
    expect(keys(await joined({ joinOr: { building: [], amenity: [] } }, "allGeometry"))).toEqual(or);
    const and = keys(await plain({ building: [], name: [] }, "AND"));
    expect(and.length).toBeGreaterThan(5);
    expect(keys(await joined({ join_and: { building: [], name: [] } }))).toEqual(and);
  });

  it("both groups: AND-ed when join_and has one key, OR-ed when it has more, as raw-data-api joins them", async () => {
    const buildingsThatAreAmenities = keys(await plain({ building: [], amenity: [] }, "AND"));
    expect(buildingsThatAreAmenities.length).toBeGreaterThan(0);
    expect(keys(await joined({ join_or: { building: [] }, join_and: { amenity: [] } }))).toEqual(buildingsThatAreAmenities);
    // osm-rawdata puts a key that must be present in both groups: the key alone.
    expect(keys(await joined({ join_or: { highway: [] }, join_and: { highway: [] } }))).toEqual(keys(await plain({ highway: [] })));
    const either = new Set([...keys(await plain({ amenity: [] })), ...keys(await plain({ building: [], name: [] }, "AND"))]);
    expect(keys(await joined({ join_or: { amenity: [] }, join_and: { building: [], name: [] } }))).toEqual([...either].sort());
  });

  it("per geometry type, as the plain form: a point filter restricts only the points", async () => {
    const cafes = { amenity: ["cafe", "restaurant"] };
    expect(keys(await joined({ join_or: cafes }, "point"))).toEqual(keys(await features({ ...area, filters: { tags: { point: cafes } } })));
  });

  it("a tag key beside join_or or join_and, and a group that is not key -> values, are 422s", async () => {
    expect(await refused({ ...area, filters: { tags: { polygon: { join_or: { building: [] }, amenity: [] } } } })).toEqual([
      expect.objectContaining({ loc: ["body", "filters", "tags", "polygon", "amenity"], type: "value_error" }),
    ]);
    expect((await refused({ ...area, filters: { tags: { all_geometry: { join_or: { building: "yes" } } } } }))[0]!.loc).toEqual([
      "body", "filters", "tags", "allGeometry", "joinOr", "building",
    ]);
    expect((await refused({ ...area, filters: { tags: { point: { join_or: {}, joinOr: {} } } } }))[0]!.type).toBe("duplicate_alias");
  });
});

/** The length of a LineString or MultiLineString on the sphere of radius 6,378,137 m, in km. */
function haversineKm(geometry: Geometry): number {
  const lines = geometry.type === "LineString" ? [geometry.coordinates] : geometry.type === "MultiLineString" ? geometry.coordinates : [];
  const rad = Math.PI / 180;
  let km = 0;
  for (const line of lines) {
    for (let i = 1; i < line.length; i++) {
      const [[x1, y1], [x2, y2]] = [line[i - 1]!, line[i]!];
      const a = Math.sin(((y2 - y1) * rad) / 2) ** 2 + Math.cos(y1 * rad) * Math.cos(y2 * rad) * Math.sin(((x2 - x1) * rad) / 2) ** 2;
      km += 2 * 6378.137 * Math.asin(Math.sqrt(a));
    }
  }
  return km;
}
