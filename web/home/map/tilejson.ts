/** The store's TileJSON (GET /tiles.json), as a MapLibre source with tile addresses the worker can fetch. */
import type { VectorSourceSpecification } from "maplibre-gl";
import { getJson, serverUrl } from "../../shared/http.js";

export const TILEJSON_PATH = "/tiles.json";

interface TileJson {
  tiles: string[];
  bounds?: [number, number, number, number];
  /** [longitude, latitude, zoom]: the view a map of these tiles starts at. */
  center?: [number, number, number];
  minzoom?: number;
  maxzoom?: number;
  attribution?: string;
}

/**
 * A template as the worker needs it: absolute. (new URL() would encode the braces of {z}/{x}/{y};
 * the worker resolves a relative address against its own script, not the page.)
 */
function absoluteTemplate(template: string): string {
  if (/^[a-z][a-z0-9+.-]*:/i.test(template)) return template;
  return template.startsWith("/") ? `${window.location.origin}${template}` : `${serverUrl(TILEJSON_PATH).replace(/[^/]*$/, "")}${template}`;
}

export interface StoreTiles {
  source: VectorSourceSpecification;
  bounds: [number, number, number, number] | undefined;
  center: [number, number, number] | undefined;
}

export async function storeTiles(): Promise<StoreTiles> {
  const tileJson = await getJson<TileJson>(TILEJSON_PATH);
  const source: VectorSourceSpecification = {
    type: "vector",
    tiles: tileJson.tiles.map(absoluteTemplate),
    ...(tileJson.minzoom !== undefined && { minzoom: tileJson.minzoom }),
    ...(tileJson.maxzoom !== undefined && { maxzoom: tileJson.maxzoom }),
    ...(tileJson.bounds !== undefined && { bounds: tileJson.bounds }),
    attribution: tileJson.attribution ?? "© OpenStreetMap contributors",
  };
  return { source, bounds: tileJson.bounds, center: tileJson.center };
}
