/**
 * The map of the store: its vector tiles (GET /tiles/{z}/{x}/{y}.mvt), their TileJSON
 * (GET /tiles.json) and the features of each layer in an area (POST /layers/count/). Tiles are
 * kept in memory for the store's data version, so that a change (`basemodel update`, `check` or
 * `replicate`, in this process or another) shows in the next tile asked for.
 */
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from "fastify";
import type { LayerCountRequest, LayerCounts, TileJson } from "../api/tiles.js";
import { isTile } from "../geometry/tiles.js";
import { baseUrl } from "../http/base-url.js";
import { exportAreaProblems, polygonalArea } from "../http/export-area.js";
import { TileCache } from "../http/tile-cache.js";
import { countLayers } from "../query/layer-counts.js";
import type { BBox } from "../../model/geojson.js";
import { areaOf } from "../../model/query.js";
import { QUALITY_STATUSES } from "../../model/statuses.js";
import {
  layerMinzoom,
  MAX_LAYER_FEATURES,
  NAME_FIELD,
  STATUS_OK,
  TILE_LAYERS,
  TILE_MAXZOOM,
  TILE_MINZOOM,
  type TileLayerRule,
} from "../../model/tile-layers.js";
import type { RouteContext } from "./context.js";

export interface TilesContext extends RouteContext {
  /** The largest area /layers/count/ counts in (the export limit: it reads as much). */
  maxAreaKm2: number;
  /** The server's address as clients see it, for the tile URL of /tiles.json; default: the host each request was sent to. */
  publicUrl: string | undefined;
  /** Bytes of tiles kept in memory; 0 keeps none. */
  tileCacheBytes: number;
}

export const VECTOR_TILE_TYPE = "application/vnd.mapbox-vector-tile";
/** A client asks again each time, and gets a 304 while the tile is the same (its ETag): the data may change at any moment. */
const CACHE_CONTROL = "no-cache";
/** The latitudes Web Mercator reaches: tiles cover no more. */
const MAX_LATITUDE = 85.0511287798066;

const TILE_SUMMARY = `At most ${MAX_LAYER_FEATURES.toLocaleString("en-US")} features per layer in a tile: over that, a layer keeps those with the smallest feature ids (OSM id × 3, plus 0 for a node, 1 for a way, 2 for a relation).`;

const FIELDS: Record<string, string> = {
  osm_type: "String: node, way or relation",
  osm_id: "Number: the OSM id (the feature id is osm_id × 3 plus 0, 1 or 2 for node, way, relation)",
  status: `String: the most severe data quality finding (${QUALITY_STATUSES.join(", ")}), or ${STATUS_OK} for none`,
  [NAME_FIELD]: "String: the name tag",
};

function vectorLayer(layer: TileLayerRule): TileJson["vector_layers"][number] {
  const fields = { ...FIELDS, ...Object.fromEntries(layer.fields.map((key) => [key, `String: the ${key} tag`])) };
  return { id: layer.name, description: layer.description, minzoom: layerMinzoom(layer), maxzoom: TILE_MAXZOOM, fields };
}

/** The store's box as TileJSON's bounds: the whole world for an empty store, within Mercator's latitudes. */
function bounds(extent: BBox | null): [number, number, number, number] {
  const { minX, minY, maxX, maxY } = extent ?? { minX: -180, minY: -90, maxX: 180, maxY: 90 };
  const latitude = (value: number) => Math.max(-MAX_LATITUDE, Math.min(MAX_LATITUDE, value));
  return [minX, latitude(minY), maxX, latitude(maxY)];
}

function notATile(reply: FastifyReply, detail: string) {
  return reply.code(404).send({ detail });
}

const digits = (what: string) => ({ type: "string", pattern: "^[0-9]{1,10}$", description: what }) as const;

export const tileRoutes: FastifyPluginAsync<TilesContext> = async (app, context) => {
  const { store } = context;
  const cache = new TileCache(context.tileCacheBytes);
  /** The store's extent, read again only when its data changed. */
  let extent: { version: string; box: Promise<BBox | null> } | undefined;

  app.get<{ Params: { z: string; x: string; y: string } }>(
    "/tiles/:z/:x/:y.mvt",
    {
      schema: {
        tags: ["map"],
        summary: "A vector tile of the store (Mapbox Vector Tile 2.1)",
        description:
          `The layers of /tiles.json from their zooms on, each feature with osm_type, osm_id, status, name and its layer's tags. ${TILE_SUMMARY} ` +
          `An empty tile (nothing there, or a zoom below ${TILE_MINZOOM}) is a 204 with no body. Each tile has an ETag; Cache-Control: ${CACHE_CONTROL}.`,
        params: {
          type: "object",
          required: ["z", "x", "y"],
          properties: { z: digits(`Zoom, 0 to ${TILE_MAXZOOM}`), x: digits("Column, 0 to 2^z - 1"), y: digits("Row, 0 to 2^z - 1, from the north") },
        },
        response: {
          200: { description: "The tile", content: { [VECTOR_TILE_TYPE]: { schema: { $ref: "VectorTile#" } } } },
          204: { description: "An empty tile: nothing of the store lies there, or the zoom is below the layers'" },
          304: { description: "The tile is the one the If-None-Match header names" },
          404: { $ref: "HTTPError#", description: `No such tile: z above ${TILE_MAXZOOM} (a map shows deeper zooms from those tiles), or x or y from 2^z on` },
          422: { $ref: "HTTPValidationError#" },
        },
      },
    },
    async (request, reply) => {
      const [z, x, y] = [request.params.z, request.params.x, request.params.y].map(Number) as [number, number, number];
      if (z > TILE_MAXZOOM) return notATile(reply, `no tile at zoom ${z}: tiles go to zoom ${TILE_MAXZOOM} (tiles.json's maxzoom), and a map shows deeper zooms from those`);
      if (!isTile(z, x, y)) return notATile(reply, `no tile ${z}/${x}/${y}: at zoom ${z}, x and y run from 0 to ${2 ** z - 1}`);
      const tile = await cache.tile(await store.dataVersion(), `${z}/${x}/${y}`, () => store.tile(z, x, y));
      reply.header("cache-control", CACHE_CONTROL);
      if (tile.bytes.byteLength === 0) return reply.code(204).send();
      reply.header("etag", tile.etag);
      if (matches(request, tile.etag)) return reply.code(304).send();
      return reply.type(VECTOR_TILE_TYPE).send(Buffer.from(tile.bytes.buffer, tile.bytes.byteOffset, tile.bytes.byteLength));
    },
  );

  app.get(
    "/tiles.json",
    {
      schema: {
        tags: ["map"],
        summary: "TileJSON of the store's vector tiles: the tile URL, bounds, zooms, layers and their fields",
        response: { 200: { $ref: "TileJSON#" } },
      },
    },
    async (request, reply): Promise<TileJson> => {
      const version = await store.dataVersion();
      if (extent?.version !== version) extent = { version, box: store.extent() };
      const [west, south, east, north] = bounds(await extent.box);
      reply.header("cache-control", CACHE_CONTROL);
      return {
        tilejson: "3.0.0",
        name: "basemodel",
        description: `The OpenStreetMap data of this server's store, by layer. ${TILE_SUMMARY}`,
        attribution: "© OpenStreetMap contributors, ODbL 1.0",
        scheme: "xyz",
        tiles: [`${baseUrl(request, context.publicUrl)}/tiles/{z}/{x}/{y}.mvt`],
        minzoom: TILE_MINZOOM,
        maxzoom: TILE_MAXZOOM,
        bounds: [west, south, east, north],
        center: [(west + east) / 2, (south + north) / 2, Math.max(...TILE_LAYERS.map(layerMinzoom))],
        vector_layers: TILE_LAYERS.map(vectorLayer),
      };
    },
  );

  app.post<{ Body: LayerCountRequest }>(
    "/layers/count/",
    {
      schema: {
        tags: ["map"],
        summary: "How many features of each layer of the map an area holds",
        description: `Exact: the features that intersect the area, as each layer selects them at its deepest zoom. The area's limit is the export's (${context.maxAreaKm2.toLocaleString("en-US")} km² here).`,
        body: { $ref: "LayerCountRequest#" },
        response: { 200: { $ref: "LayerCounts#" }, 422: { $ref: "HTTPValidationError#" } },
      },
      config: {
        checks: (body: LayerCountRequest, refused) =>
          refused(["body", "geometry"]) ? Promise.resolve([]) : exportAreaProblems(body.geometry, ["body", "geometry"], { km2: context.maxAreaKm2, advice: "for one count; split it into smaller areas" }),
      },
    },
    async (request): Promise<LayerCounts> => {
      const area = areaOf(await polygonalArea(request.body.geometry));
      const data = await store.snapshot();
      try {
        return await countLayers(data, area);
      } finally {
        await data.close();
      }
    },
  );
};

/** True when If-None-Match names `etag` (or is *). */
function matches(request: FastifyRequest, etag: string): boolean {
  const header = request.headers["if-none-match"];
  if (header === undefined) return false;
  return header.split(",").some((tag) => ["*", etag, `W/${etag}`].includes(tag.trim()));
}
