/** The store's TileJSON (GET /tiles.json), as a MapLibre source with tile addresses the worker can fetch. */
import type { TileJson } from "basemodel/api";
import type { VectorSourceSpecification } from "maplibre-gl";
import { getJson } from "../../shared/http.js";

export const TILEJSON_PATH = "/tiles.json";

/**
 * A tile address on this page's own server, absolute, as the worker needs it (it would resolve a
 * relative one against its own script). The TileJSON names the host its request was sent to, or
 * --public-url's; the tiles are this server's either way, and the page asks nothing elsewhere.
 * (Not new URL(): it would encode the braces of {z}/{x}/{y}.)
 */
function onThisServer(template: string): string {
  const path = template.replace(/^[a-z][a-z0-9+.-]*:\/\/[^/]*/i, "");
  return `${window.location.origin}${path.startsWith("/") ? "" : "/"}${path}`;
}

export interface StoreTiles {
  source: VectorSourceSpecification;
  /** [longitude, latitude, zoom]: the view a map of these tiles starts at. */
  center: [number, number, number];
}

export async function storeTiles(): Promise<StoreTiles> {
  const tileJson = await getJson<TileJson>(TILEJSON_PATH);
  const source: VectorSourceSpecification = {
    type: "vector",
    tiles: tileJson.tiles.map(onThisServer),
    minzoom: tileJson.minzoom,
    maxzoom: tileJson.maxzoom,
    attribution: tileJson.attribution,
  };
  return { source, center: tileJson.center as StoreTiles["center"] };
}
