/**
 * The map of the store over real HTTP, on Monaco in each store: vector tiles (decoded by
 * @mapbox/vector-tile), their TileJSON, the counts per layer, every bad request, and tiles that
 * follow a change applied by another connection.
 */
import { request } from "node:http";
import { beforeAll, describe, expect, it } from "vitest";
import { importOsm } from "../../../src/server/fill/import.js";
import { updateStore } from "../../../src/server/fill/update-store.js";
import { featureId, layerMinzoom, layerTags, TILE_LAYER_NAMES, TILE_LAYERS, TILE_MAXZOOM, TILE_MINZOOM } from "../../../src/model/tile-layers.js";
import { isTagGroup, type TagFilter } from "../../../src/model/query.js";
import type { OsmType } from "../../../src/model/features.js";
import { monacoStoreCopy } from "../../support/monaco.js";
import { postgresTemplateUrl } from "../../support/requirements.js";
import { freshDatabases } from "../../support/services.js";
import { decodeTile, layerIds, tileAt } from "../../support/vector-tiles.js";
import { updateFixture } from "../fill/helpers.js";
import { MONACO } from "../osm/helpers.js";
import { MONACO_CENTRE, monacoStores, ringOf, startServer, wireValidator, type RunningServer } from "./helpers.js";

const CENTRE_TILE = tileAt(7.4251, 43.7347, 15);
const path = ([z, x, y]: readonly number[]) => `/tiles/${z}/${x}/${y}.mvt`;
const { minX, minY, maxX, maxY } = MONACO_CENTRE;
const CENTRE_POLYGON = { type: "Polygon", coordinates: [[[minX, minY], [maxX, minY], [maxX, maxY], [minX, maxY], [minX, minY]]] };

/** The tile's bytes and headers. */
async function getTile(server: RunningServer, tilePath: string, headers: Record<string, string> = {}) {
  const response = await fetch(server.url + tilePath, { headers });
  return { status: response.status, headers: response.headers, bytes: new Uint8Array(await response.arrayBuffer()) };
}

/** The feature query's tags text of a layer's rule: each key, or key=value, OR-ed. */
function tagTerms(filter: TagFilter): string[] {
  return filter.conditions.flatMap((condition) => (isTagGroup(condition) ? tagTerms(condition) : condition.values.length === 0 ? [condition.key] : condition.values.map((value) => `${condition.key}=${value}`)));
}

describe.each(monacoStores())("the map of the store: tiles, TileJSON and counts per layer (%s)", { timeout: 300_000 }, (_name, location) => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer(await location());
  }, 300_000);

  it("GET /tiles/{z}/{x}/{y}.mvt: a vector tile of the five layers, with its type, an ETag and no-cache; its ETag again is a 304", async () => {
    const tile = await getTile(server, path(CENTRE_TILE));
    expect(tile.status).toBe(200);
    expect(tile.headers.get("content-type")).toBe("application/vnd.mapbox-vector-tile");
    expect(tile.headers.get("cache-control")).toBe("no-cache");
    const decoded = decodeTile(tile.bytes);
    expect(Object.keys(decoded)).toEqual([...TILE_LAYER_NAMES]);
    const [building] = decoded.buildings!.values();
    expect(Object.keys(building!.properties)).toEqual(expect.arrayContaining(["osm_type", "osm_id", "status", "building"]));
    expect(building!.type).toBe(3);
    for (const features of Object.values(decoded)) {
      for (const [id, { properties }] of features) expect(id).toBe(featureId(properties.osm_type as OsmType, properties.osm_id as number));
    }

    const etag = tile.headers.get("etag")!;
    expect(etag).toMatch(/^"[\w-]+"$/);
    const again = await getTile(server, path(CENTRE_TILE), { "if-none-match": etag });
    expect([again.status, again.bytes.byteLength]).toEqual([304, 0]);
    const other = await getTile(server, path(CENTRE_TILE), { "if-none-match": '"something-else"' });
    expect(other.status).toBe(200);
    expect(other.bytes).toEqual(tile.bytes);
  });

  it("an empty tile is a 204 with no body: nothing of the store there, or a zoom below every layer's", async () => {
    for (const empty of [[14, 0, 0], tileAt(7.4251, 43.7347, TILE_MINZOOM - 1), [0, 0, 0]]) {
      const tile = await getTile(server, path(empty));
      expect([tile.status, tile.bytes.byteLength], path(empty)).toEqual([204, 0]);
    }
  });

  it("a tile that does not exist is a 404 saying why; a z, x or y that is not a number is a 422 naming it", async () => {
    const deeper = await server.get(path(tileAt(7.4251, 43.7347, TILE_MAXZOOM + 1)));
    expect(deeper.status).toBe(404);
    expect(deeper.body.detail).toContain(`tiles go to zoom ${TILE_MAXZOOM}`);
    for (const outside of ["/tiles/3/8/0.mvt", "/tiles/3/0/8.mvt", "/tiles/0/1/0.mvt"]) {
      const answer = await server.get(outside);
      expect(answer.status, outside).toBe(404);
      expect(answer.body.detail, outside).toMatch(/x and y run from 0 to/);
    }
    for (const [bad, member] of [["/tiles/a/1/1.mvt", "z"], ["/tiles/15/-1/1.mvt", "x"], ["/tiles/15/1/1.5.mvt", "y"], ["/tiles/15/1/99999999999.mvt", "y"]] as const) {
      const answer = await server.get(bad);
      expect(answer.status, bad).toBe(422);
      expect(answer.body.detail.map((problem: { loc: string[] }) => problem.loc), bad).toEqual([["path", member]]);
    }
    expect((await server.get("/tiles/15/1/1.png")).status).toBe(404);
  });

  it("GET /tiles.json: TileJSON 3.0.0, its tile URL on the host the request named, the store's bounds, the layers and their fields", async () => {
    const tileJson = await new Promise<{ status: number; body: Record<string, unknown> }>((resolve, reject) => {
      const { port } = new URL(server.url);
      const asked = request({ host: "127.0.0.1", port, path: "/tiles.json", headers: { host: "maps.example.org:8080" } }, (response) => {
        let text = "";
        response.setEncoding("utf8").on("data", (chunk: string) => (text += chunk));
        response.on("end", () => resolve({ status: response.statusCode!, body: JSON.parse(text) }));
      });
      asked.on("error", reject).end();
    });
    expect(tileJson.status).toBe(200);
    expect(wireValidator("TileJSON")(tileJson.body)).toBe(true);
    const body = tileJson.body as { tiles: string[]; bounds: number[]; center: number[]; minzoom: number; maxzoom: number; vector_layers: Array<{ id: string; fields: Record<string, string> }> };
    expect(body.tiles).toEqual(["http://maps.example.org:8080/tiles/{z}/{x}/{y}.mvt"]);
    expect([body.minzoom, body.maxzoom]).toEqual([TILE_MINZOOM, TILE_MAXZOOM]);
    const [west, south, east, north] = body.bounds as [number, number, number, number];
    expect(west < minX && south < minY && east > maxX && north > maxY).toBe(true);
    // Over Monaco, on every store alike: not over the sea its ferry routes and maritime boundary cross.
    expect(west > 7.40 && south > 43.72 && east < 7.45 && north < 43.76, JSON.stringify(body.bounds)).toBe(true);
    const [lon, lat, zoom] = body.center as [number, number, number];
    expect([lon.toFixed(3), lat.toFixed(3), zoom]).toEqual(["7.424", "43.738", Math.max(...TILE_LAYERS.map((layer) => layerMinzoom(layer)))]);
    expect(body.vector_layers.map((layer) => layer.id)).toEqual([...TILE_LAYER_NAMES]);
    expect(Object.keys(body.vector_layers.find((layer) => layer.id === "roads")!.fields)).toEqual(["osm_type", "osm_id", "status", "name", "highway", "ref"]);
  });

  it("POST /layers/count/: the features of each layer in the area, as the feature query routes count them", async () => {
    const answer = await server.post("/layers/count/", { geometry: CENTRE_POLYGON });
    expect(answer.status, answer.text).toBe(200);
    expect(wireValidator("LayerCounts")(answer.body)).toBe(true);
    const routes = { polygon: "/stats/polygons", line: "/stats/lines", point: "/stats/nodes" };
    for (const layer of TILE_LAYERS) {
      let expected = 0;
      for (const kind of layer.geometry) expected += (await server.post(routes[kind], { area: ringOf(MONACO_CENTRE), tags: tagTerms(layerTags(layer)).join(",") })).body.count;
      expect(answer.body[layer.name], layer.name).toBe(expected);
      expect(expected, layer.name).toBeGreaterThan(0);
    }
    // A Feature, and a FeatureCollection of two areas, count as their polygons.
    expect((await server.post("/layers/count/", { geometry: { type: "Feature", properties: {}, geometry: CENTRE_POLYGON } })).body).toEqual(answer.body);
    const sea = { type: "Polygon", coordinates: [[[7.5, 43.6], [7.51, 43.6], [7.51, 43.61], [7.5, 43.61], [7.5, 43.6]]] };
    const both = await server.post("/layers/count/", { geometry: { type: "FeatureCollection", features: [{ type: "Feature", geometry: CENTRE_POLYGON }, { type: "Feature", geometry: sea }] } });
    expect(both.body).toEqual(answer.body);
    expect((await server.post("/layers/count/", { geometry: sea })).body).toEqual({ water: 0, landuse: 0, roads: 0, buildings: 0, pois: 0 });
  });

  it("POST /layers/count/ refuses what is not an area in one 422: no body, no geometry, not a polygon, an open or crossing ring, too large", async () => {
    const refused: Array<[unknown, RegExp]> = [
      [undefined, /must be an object/],
      [{}, /"geometry" is missing/],
      [{ geometry: { type: "Point", coordinates: [7.42, 43.73] } }, /Polygon/],
      [{ geometry: { type: "Polygon", coordinates: [[[7.41, 43.72], [7.43, 43.72], [7.43, 43.74]]] } }, /ring/],
      [{ geometry: { type: "Polygon", coordinates: [[[7.41, 43.72], [7.43, 43.74], [7.43, 43.72], [7.41, 43.74], [7.41, 43.72]]] } }, /intersect|cross/],
      [{ geometry: { type: "Polygon", coordinates: [[[0, 0], [10, 0], [10, 10], [0, 10], [0, 0]]] } }, /above the limit of 100,000 km²/],
    ];
    for (const [body, message] of refused) {
      const answer = body === undefined ? await server.post("/layers/count/", "") : await server.post("/layers/count/", body);
      expect(answer.status, JSON.stringify(body)).toBe(422);
      expect(answer.body.detail.map((problem: { msg: string }) => problem.msg).join(" "), JSON.stringify(body)).toMatch(message);
    }
  });
});

const template = postgresTemplateUrl();

/** A store of Monaco of its own, which the test changes: a copy of the SQLite import, a fresh PostGIS database. */
const ownStores: Array<[string, () => Promise<string>]> = [
  ["SQLite", monacoStoreCopy],
  ...(template === undefined
    ? []
    : [
        [
          "PostGIS",
          async () => {
            const { url } = await freshDatabases(template)();
            await importOsm(MONACO, url);
            return url;
          },
        ] as [string, () => Promise<string>],
      ]),
];

describe.each(ownStores)("tiles follow the store (%s)", { timeout: 300_000 }, (_name, location) => {
  it("a change applied by another connection (as `basemodel update` in another process) shows in the next tile; one not changed keeps its ETag", async () => {
    const store = await location();
    const server = await startServer(store);
    const mapathon = path(tileAt(7.4401, 43.7396, 16));
    const buildings = [1200000001, 1200000002, 1200000003, 1200000004, 1200000005].map((osmId) => featureId("way", osmId));
    const centre = await getTile(server, path(CENTRE_TILE));
    const before = await getTile(server, mapathon);
    const held = (bytes: Uint8Array) => (bytes.byteLength === 0 ? [] : (layerIds(decodeTile(bytes)).buildings ?? []));
    expect(buildings.some((id) => held(before.bytes).includes(id))).toBe(false);

    await updateStore(store, updateFixture("monaco-mapathon-1.osc"), { changesets: updateFixture("monaco-mapathon-changesets.osm") });
    const after = await getTile(server, mapathon);
    expect(after.status).toBe(200);
    expect(held(after.bytes)).toEqual(expect.arrayContaining(buildings));
    expect(decodeTile(after.bytes).buildings!.get(buildings[1]!)!.properties.status).toBe("badgeom");
    // Made again from the changed store, the centre's tile is the same: so is its ETag.
    const centreAgain = await getTile(server, path(CENTRE_TILE), { "if-none-match": centre.headers.get("etag")! });
    expect(centreAgain.status).toBe(304);
  });
});
