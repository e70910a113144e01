/**
 * Drawing an area on the map with terra-draw (fAIr's choice) through its MapLibre adapter: a
 * polygon, point by point (a click on the first point, or Enter, closes it; Escape gives up), or
 * a rectangle from two corners. While it is drawn, its shape so far goes to `onShape`; once closed,
 * to `onDrawn`, and the drawing leaves the map to the page's own area layer. terra-draw is loaded,
 * and adds its layers to the map, when a drawing first starts: the page loads faster without it.
 */
import type { Map as MapLibreMap } from "maplibre-gl";
import type { TerraDraw } from "terra-draw";
import type { PolygonalGeometry } from "../../../src/model/geojson.js";
import { styleLoaded } from "../map/style-loaded.js";

export type DrawMode = "polygon" | "rectangle";

export interface Drawing {
  /** Resolves once the map takes the drawing (terra-draw loaded and started). */
  start(mode: DrawMode): Promise<void>;
  stop(): void;
}

type Listeners = { onShape: (geometry: PolygonalGeometry | undefined) => void; onDrawn: (geometry: PolygonalGeometry, mode: DrawMode) => void };

/** terra-draw on the map, started, its events going to `listeners` while `current()` names a mode. */
async function startTerraDraw(map: MapLibreMap, current: () => DrawMode | undefined, finished: () => void, listeners: Listeners): Promise<TerraDraw> {
  const { TerraDraw, TerraDrawPolygonMode, TerraDrawRectangleMode, ValidateNotSelfIntersecting, TerraDrawMapLibreGLAdapter } = await import("./terra-draw-parts.js");
  await styleLoaded(map);
  const draw = new TerraDraw({
    adapter: new TerraDrawMapLibreGLAdapter({ map }),
    modes: [
      new TerraDrawPolygonMode({ validation: (feature, { updateType }) => (updateType === "finish" || updateType === "commit" ? ValidateNotSelfIntersecting(feature) : { valid: true }) }),
      new TerraDrawRectangleMode(),
    ],
  });
  draw.start();
  draw.on("change", (ids) => {
    if (current() === undefined) return;
    const shape = ids.map((id) => draw.getSnapshotFeature(id)).find((feature) => feature?.geometry.type === "Polygon");
    const ring = shape?.geometry.type === "Polygon" ? (shape.geometry.coordinates as Array<Array<[number, number]>>) : undefined;
    listeners.onShape(ring === undefined ? undefined : { type: "Polygon", coordinates: ring });
  });
  draw.on("finish", (id) => {
    const feature = draw.getSnapshotFeature(id);
    const mode = current();
    if (feature?.geometry.type !== "Polygon" || mode === undefined) return;
    const coordinates = feature.geometry.coordinates as Array<Array<[number, number]>>;
    finished();
    listeners.onDrawn({ type: "Polygon", coordinates }, mode);
  });
  return draw;
}

export function areaDrawing(map: MapLibreMap, listeners: Listeners): Drawing {
  let mode: DrawMode | undefined;
  let started: Promise<TerraDraw> | undefined;

  function stop(): void {
    mode = undefined;
    // After terra-draw's own handling of the event that got here.
    setTimeout(() => {
      void started?.then((draw) => {
        draw.clear();
        draw.setMode("static");
      });
    });
  }

  return {
    async start(next) {
      mode = next;
      started ??= startTerraDraw(map, () => mode, stop, listeners);
      const draw = await started;
      draw.clear();
      draw.setMode(next);
    },
    stop() {
      stop();
      listeners.onShape(undefined);
    },
  };
}
