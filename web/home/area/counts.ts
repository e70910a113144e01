/** How many features of each kind of the map an area holds, counted by the server before any export. */
import type { LayerCounts } from "basemodel/api";
import { postJson } from "../../shared/http.js";

/** The route that counts the store's tile layers in an area. */
export const COUNTS_PATH = "/layers/count/";

export function countLayers(request: unknown, signal: AbortSignal): Promise<LayerCounts> {
  return postJson<LayerCounts>(COUNTS_PATH, { geometry: request }, {}, signal);
}
