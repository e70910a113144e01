/** The home page: the store's map, the age of its data, and the way to the API's docs. */
import "maplibre-gl/dist/maplibre-gl.css";
import "../shared/page.css";
import "./home.css";
import { ServerError } from "../shared/http.js";
import { watchDataAge } from "./data-age.js";
import { homeLayout } from "./layout.js";
import { storeMap } from "./map/store-map.js";
import { storeTiles, type StoreTiles } from "./map/tilejson.js";

async function start(): Promise<void> {
  document.title = "basemodel: the map of the data";
  const layout = homeLayout();
  watchDataAge(layout.dataAge, layout.banner);
  let tiles: StoreTiles | undefined;
  try {
    tiles = await storeTiles();
  } catch (error) {
    if (!(error instanceof ServerError)) throw error;
    layout.mapNotice.textContent = `The map has no data layers: ${error.path} answered ${error.message}.`;
    layout.mapNotice.hidden = false;
  }
  storeMap(layout.map, tiles);
}

void start();
