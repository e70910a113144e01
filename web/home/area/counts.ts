/** How many features of each kind of the map an area holds, counted by the server before any export. */
import { postJson } from "../../shared/http.js";
import type { StoreLayer } from "../map/style.js";

/** The route that counts the store's tile layers in an area. */
export const COUNTS_PATH = "/layers/count/";

export type LayerCounts = Record<StoreLayer, number>;

export function countLayers(request: unknown, signal: AbortSignal): Promise<LayerCounts> {
  return postJson<LayerCounts>(COUNTS_PATH, { geometry: request }, {}, signal);
}
