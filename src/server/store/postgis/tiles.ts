/**
 * The PostGIS store's vector tiles, made in one statement: per layer, the features whose box meets
 * the tile and its buffer (ST_TileEnvelope's margin), each cut and snapped to the tile's grid by
 * ST_AsMVTGeom, those that collapse there left out, the first MAX_LAYER_FEATURES by feature id
 * encoded by ST_AsMVT; the layers' tiles concatenated (a tile is its layers, one after another).
 */
import { KIND_TABLES, type TagFilter } from "../../../model/query.js";
import { osmTypeOfTable } from "../../../model/features.js";
import { FEATURE_ID_TYPES, layersAtZoom, MAX_LAYER_FEATURES, NAME_FIELD, STATUS_OK, TILE_BUFFER, TILE_EXTENT, type TileLayerRule } from "../../../model/tile-layers.js";
import type { Parameters } from "./parameters.js";
import { checkedTable, kindCondition, tagCondition } from "./where.js";

/** The statement of tile z/x/y as its parameters fill it; undefined for a zoom without layers (the tile is empty). */
export function tileStatement(z: number, x: number, y: number, parameters: Parameters): string | undefined {
  const layers = layersAtZoom(z);
  if (layers.length === 0) return undefined;
  const envelope = `ST_TileEnvelope(${parameters.add(z)}::int, ${parameters.add(x)}::int, ${parameters.add(y)}::int`;
  const bounds = `SELECT ${envelope}) AS tile, ST_Transform(${envelope}, margin => ${parameters.add(TILE_BUFFER / TILE_EXTENT)}::float8), 4326) AS box`;
  return `WITH bounds AS (${bounds}) SELECT ${layers.map(({ layer, tags }) => layerTile(layer, tags, parameters)).join(" || ")}`;
}

/** A tag key as a column name: the names of the layer rules are ours, quoted all the same. */
const column = (key: string): string => `"${key.replaceAll('"', '""')}"`;

/** One layer's tile, of the features `select` selects: no bytes when it has none. */
function layerTile(layer: TileLayerRule, select: TagFilter, parameters: Parameters): string {
  const fields = [NAME_FIELD, ...layer.fields];
  const tables = [...new Set(layer.geometry.flatMap((kind) => KIND_TABLES[kind]))];
  const candidates = tables.map((table) => {
    const from = checkedTable(table);
    const tags = tagCondition(select, parameters);
    const status = `coalesce((SELECT q.status FROM quality q WHERE q.feature_table = ${parameters.add(from)} AND q.osm_id = t.osm_id ORDER BY q.rank, q.status COLLATE "C" LIMIT 1), ${parameters.add(STATUS_OK)})`;
    const type = osmTypeOfTable(table);
    return `SELECT t.osm_id * 3 + ${FEATURE_ID_TYPES[type]} AS id, ${parameters.add(type)}::text AS osm_type, t.osm_id, ${status} AS status,
        ${fields.map((key) => `t.tags ->> ${parameters.add(key)} AS ${column(key)}`).join(", ")},
        ST_AsMVTGeom(ST_Transform(t.geom, 3857), bounds.tile, ${TILE_EXTENT}, ${TILE_BUFFER}, true) AS geom
      FROM ${from} t, bounds WHERE t.geom && bounds.box AND ${tags} AND ${kindCondition(layer.geometry, parameters)}`;
  });
  // ST_AsMVT leaves a negative id out, as the feature id rule wants (src/model/tile-layers.ts).
  const features = `SELECT id, osm_type, osm_id, status, ${fields.map(column).join(", ")}, geom
    FROM (${candidates.join(" UNION ALL ")}) candidates WHERE geom IS NOT NULL ORDER BY id LIMIT ${MAX_LAYER_FEATURES}`;
  return `(SELECT coalesce(ST_AsMVT(f, ${parameters.add(layer.name)}, ${TILE_EXTENT}, 'geom', 'id'), ''::bytea) FROM (${features}) f)`;
}
