/**
 * Drawing an area on the map with terra-draw (fAIr's choice) through its MapLibre adapter: a
 * polygon, point by point (a click on the first point, or Enter, closes it; Escape gives up), or
 * a rectangle from two corners. While it is drawn, its shape so far goes to `onShape`; once closed,
 * to `onDrawn`, and the drawing leaves the map to the page's own area layer.
 */
import type { Map as MapLibreMap } from "maplibre-gl";
import { TerraDraw, TerraDrawPolygonMode, TerraDrawRectangleMode, ValidateNotSelfIntersecting } from "terra-draw";
import { TerraDrawMapLibreGLAdapter } from "terra-draw-maplibre-gl-adapter";
import type { PolygonalGeometry } from "../../../src/model/geojson.js";
import { styleLoaded } from "../map/store-map.js";

export type DrawMode = "polygon" | "rectangle";

export interface Drawing {
  start(mode: DrawMode): void;
  stop(): void;
}

export function areaDrawing(map: MapLibreMap, onShape: (geometry: PolygonalGeometry | undefined) => void, onDrawn: (geometry: PolygonalGeometry, mode: DrawMode) => void): Drawing {
  const draw = new TerraDraw({
    adapter: new TerraDrawMapLibreGLAdapter({ map }),
    modes: [
      new TerraDrawPolygonMode({ validation: (feature, { updateType }) => (updateType === "finish" || updateType === "commit" ? ValidateNotSelfIntersecting(feature) : { valid: true }) }),
      new TerraDrawRectangleMode(),
    ],
  });
  let mode: DrawMode | undefined;
  const started = styleLoaded(map).then(() => draw.start());

  draw.on("change", (ids) => {
    if (mode === undefined) return;
    const shape = ids.map((id) => draw.getSnapshotFeature(id)).find((feature) => feature?.geometry.type === "Polygon");
    const ring = shape?.geometry.type === "Polygon" ? (shape.geometry.coordinates as Array<Array<[number, number]>>) : undefined;
    onShape(ring === undefined ? undefined : { type: "Polygon", coordinates: ring });
  });
  draw.on("finish", (id) => {
    const feature = draw.getSnapshotFeature(id);
    if (feature?.geometry.type !== "Polygon" || mode === undefined) return;
    const finished = mode;
    const coordinates = feature.geometry.coordinates as Array<Array<[number, number]>>;
    stop();
    onDrawn({ type: "Polygon", coordinates }, finished);
  });

  function stop(): void {
    mode = undefined;
    // After terra-draw's own handling of the event that got here.
    setTimeout(() => {
      if (!draw.enabled) return;
      draw.clear();
      draw.setMode("static");
    });
  }

  return {
    start(next) {
      void started.then(() => {
        draw.clear();
        mode = next;
        draw.setMode(next);
      });
    },
    stop() {
      stop();
      onShape(undefined);
    },
  };
}
