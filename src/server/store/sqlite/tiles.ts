/**
 * The SQLite store's vector tiles: each layer's R*Tree query finds the candidates whose box meets
 * the tile and its buffer, @maplibre/geojson-vt cuts them to it and @maplibre/vt-pbf encodes the
 * tile. The PostGIS store makes the same tile in SQL (ST_AsMVTGeom), which snaps every geometry to
 * the tile's integer grid and drops what collapses there: the same is dropped here, so that both
 * stores' tiles hold the same features.
 *
 * Both packages are optional peer dependencies, loaded on the first tile.
 */
import type BetterSqlite3 from "better-sqlite3";
import { DriverMissing } from "../../errors.js";
import { tileBBox } from "../../geometry/tiles.js";
import { GEOMETRY_TYPES } from "../area-match.js";
import { anyKeyCondition, candidateWhere } from "./where.js";
import { osmTypeOfTable, type FeatureTable } from "../../../model/features.js";
import type { BBox, Geometry } from "../../../model/geojson.js";
import { KIND_TABLES, matchesTags, tagKeys } from "../../../model/query.js";
import { featureId, layersAtZoom, MAX_LAYER_FEATURES, NAME_FIELD, STATUS_OK, TILE_BUFFER, TILE_EXTENT, TILE_LAYERS, type LayerAtZoom, type TileLayerRule } from "../../../model/tile-layers.js";

type Statement = BetterSqlite3.Statement;

type Ring = Array<[number, number]>;

/*
 * What this module uses of the two packages, typed here: their own declarations import their
 * files without extensions, which TypeScript does not resolve for ES modules (NodeNext).
 */
/** A feature of a cut tile, in tile coordinates: points (1), or lines (2) or rings (3). */
type CutFeature = { id?: number; tags: Record<string, unknown> | null } & ({ type: 1; geometry: Ring } | { type: 2 | 3; geometry: Ring[] });
interface CutTile {
  features: CutFeature[];
}
type Tiler = (data: unknown, z: number, x: number, y: number, options: { extent: number; buffer: number; clip: boolean; tolerance: number }) => CutTile;
type Encoder = (layers: Record<string, CutTile>, options: { version: number; extent: number }) => Uint8Array;

const PACKAGES = ["@maplibre/geojson-vt", "@maplibre/vt-pbf"];

let loaded: Promise<{ cut: Tiler; encode: Encoder }> | undefined;

function loadPackages(): Promise<{ cut: Tiler; encode: Encoder }> {
  loaded ??= Promise.all([import("@maplibre/geojson-vt"), import("@maplibre/vt-pbf")]).then(
    ([tiler, encoder]) => ({ cut: tiler.geoJSONToTile, encode: encoder.fromGeojsonVt }),
    (error: unknown) => {
      loaded = undefined;
      throw new DriverMissing({ user: "The SQLite store's vector tiles", packages: PACKAGES }, { cause: error });
    },
  );
  return loaded;
}

/** A candidate row: osm_id, tags and geometry as JSON text, and the most severe status (NULL without findings). */
type TileRow = [osmId: number, tags: string, geometry: string, status: string | null];

interface TileFeature {
  type: "Feature";
  id: number | undefined;
  /** The order of the layer's cap: the feature id, also where the feature carries none (a negative OSM id). */
  rank: number;
  geometry: Geometry;
  properties: Record<string, string | number>;
}

export class SqliteTiles {
  private readonly statements = new Map<string, Statement>();

  constructor(private readonly db: BetterSqlite3.Database) {}

  async tile(z: number, x: number, y: number): Promise<Uint8Array> {
    const layers = layersAtZoom(z);
    if (layers.length === 0) return new Uint8Array(0);
    const { cut, encode } = await loadPackages();
    const tiles: Record<string, CutTile> = {};
    for (const [layer, features] of this.candidates(layers, tileBBox(z, x, y, TILE_BUFFER / TILE_EXTENT))) {
      if (features.length === 0) continue;
      const tile = cut({ type: "FeatureCollection", features }, z, x, y, {
        extent: TILE_EXTENT,
        buffer: TILE_BUFFER,
        clip: true,
        // Not simplified: the tile keeps every vertex, snapped to its grid, as ST_AsMVTGeom does.
        tolerance: 0,
      });
      tile.features = tile.features.flatMap((feature) => withoutCollapsed(feature) ?? []).slice(0, MAX_LAYER_FEATURES);
      if (tile.features.length > 0) tiles[layer.name] = tile;
    }
    if (Object.keys(tiles).length === 0) return new Uint8Array(0);
    return encode(tiles, { version: 2, extent: TILE_EXTENT });
  }

  /**
   * Each layer's features (those its filter selects) whose box meets `box`, by rank (the feature
   * id). One read per table for all the layers it feeds: the rows are narrowed in SQL by their
   * tags' text only, which costs a fraction of a JSON filter per layer, and sorted into layers here.
   */
  private candidates(layers: LayerAtZoom[], box: BBox): Map<TileLayerRule, TileFeature[]> {
    const found = new Map(layers.map(({ layer }) => [layer, [] as TileFeature[]]));
    for (const table of new Set(layers.flatMap(({ layer }) => layerTables(layer)))) {
      const fed = layers.filter(({ layer }) => layerTables(layer).includes(table));
      const where = candidateWhere(table, box, {});
      const keys = anyKeyCondition([...new Set(fed.flatMap(({ tags }) => tagKeys(tags)))]);
      const type = osmTypeOfTable(table);
      // all(), not iterate(): a tile's rows are few, and stepping through them one call at a time costs more.
      for (const [osmId, tagsJson, geometryJson, status] of this.statement(table, `${where.sql} AND ${keys.sql}`).all(...where.parameters, ...keys.parameters) as TileRow[]) {
        const tags = JSON.parse(tagsJson) as Record<string, string>;
        let geometry: Geometry | undefined;
        for (const { layer, tags: filter } of fed) {
          if (!matchesTags(tags, filter)) continue;
          geometry ??= JSON.parse(geometryJson) as Geometry;
          if (!GEOMETRY_TYPES_OF.get(layer)!.has(geometry.type)) continue;
          const rank = featureId(type, osmId);
          found.get(layer)!.push({ type: "Feature", id: rank >= 0 ? rank : undefined, rank, geometry, properties: properties(layer, type, osmId, tags, status) });
        }
      }
    }
    for (const features of found.values()) features.sort((a, b) => a.rank - b.rank);
    return found;
  }

  private statement(table: FeatureTable, where: string): Statement {
    const sql = `SELECT t.osm_id, t.tags, t.geometry,
      (SELECT q.status FROM quality q WHERE q.feature_table = '${table}' AND q.osm_id = t.osm_id ORDER BY q.rank, q.status LIMIT 1)
      FROM ${table} t WHERE ${where}`;
    let statement = this.statements.get(sql);
    if (statement === undefined) {
      statement = this.db.prepare(sql).raw();
      this.statements.set(sql, statement);
    }
    return statement;
  }
}

const layerTables = (layer: TileLayerRule): FeatureTable[] => [...new Set(layer.geometry.flatMap((kind) => KIND_TABLES[kind]))];

/** The types of geometry each layer holds. */
const GEOMETRY_TYPES_OF = new Map(TILE_LAYERS.map((layer) => [layer, new Set(layer.geometry.flatMap((kind) => [...GEOMETRY_TYPES[kind]]))]));

function properties(layer: TileLayerRule, type: string, osmId: number, tags: Record<string, string>, status: string | null): Record<string, string | number> {
  const carried: Record<string, string | number> = { osm_type: type, osm_id: osmId, status: status ?? STATUS_OK };
  for (const key of [NAME_FIELD, ...layer.fields]) if (tags[key] !== undefined) carried[key] = tags[key];
  return carried;
}

/**
 * The feature as its tile's integer grid leaves it: repeated points removed, lines of one point
 * and rings without area dropped (with the holes of a dropped outer ring), and null when nothing
 * is left: what ST_AsMVTGeom keeps of a geometry.
 */
function withoutCollapsed(feature: CutFeature): CutFeature | null {
  if (feature.type === 1) return feature;
  const parts = feature.geometry.map(withoutRepeats);
  if (feature.type === 2) {
    const lines = parts.filter((line) => line.length >= 2);
    return lines.length === 0 ? null : { ...feature, geometry: lines };
  }
  // A ring without area is left out; so is a hole before any outer ring (a hole lies inside its
  // outer ring, which geojson-vt writes before it: when that collapses, so does the hole).
  const rings: Ring[] = [];
  for (const ring of parts) {
    const area = windingArea(ring);
    if (area > 0 || (area < 0 && rings.length > 0)) rings.push(ring);
  }
  return rings.length === 0 ? null : { ...feature, geometry: rings };
}

function withoutRepeats(points: Ring): Ring {
  return points.filter((point, index) => index === 0 || point[0] !== points[index - 1]![0] || point[1] !== points[index - 1]![1]);
}

/** Twice the ring's area, signed as geojson-vt winds rings: positive for an outer ring, negative for a hole, 0 for a ring without area. */
function windingArea(ring: Ring): number {
  let sum = 0;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) sum += (ring[j]![0] - ring[i]![0]) * (ring[i]![1] + ring[j]![1]);
  return sum;
}
