/** Vector tiles read back by an independent decoder (@mapbox/vector-tile, pbf), as a map reads them. */
import { VectorTile } from "@mapbox/vector-tile";
import { PbfReader } from "pbf";

export type TileProperties = Record<string, string | number | boolean>;

/** Each layer's features, by feature id, with their properties and geometry type (1 point, 2 line, 3 polygon). */
export type DecodedTile = Record<string, Map<number, { properties: TileProperties; type: number }>>;

export function decodeTile(bytes: Uint8Array): DecodedTile {
  const tile = new VectorTile(new PbfReader(bytes));
  const layers: DecodedTile = {};
  for (const [name, layer] of Object.entries(tile.layers)) {
    const features = new Map<number, { properties: TileProperties; type: number }>();
    for (let index = 0; index < layer.length; index++) {
      const feature = layer.feature(index);
      if (feature.id === undefined) throw new Error(`a feature of layer ${name} has no id`);
      if (features.has(feature.id)) throw new Error(`layer ${name} has feature ${feature.id} twice`);
      features.set(feature.id, { properties: feature.properties, type: feature.type });
    }
    layers[name] = features;
  }
  return layers;
}

/** The ids of each layer, sorted. */
export function layerIds(tile: DecodedTile): Record<string, number[]> {
  return Object.fromEntries(Object.entries(tile).map(([name, features]) => [name, [...features.keys()].sort((a, b) => a - b)]));
}

/** The tile of zoom `z` that holds the point. */
export function tileAt(lon: number, lat: number, z: number): [number, number, number] {
  const size = 2 ** z;
  const radians = (lat * Math.PI) / 180;
  return [z, Math.floor(((lon + 180) / 360) * size), Math.floor(((1 - Math.log(Math.tan(radians) + 1 / Math.cos(radians)) / Math.PI) / 2) * size)];
}
