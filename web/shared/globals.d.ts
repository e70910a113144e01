/** MapLibre's worker module, relative to the page (assets/maplibre-gl-worker-<hash>.mjs): scripts/build-web.mjs defines it. */
declare const BASEMODEL_MAPLIBRE_WORKER: string;

/** The stylesheets the pages import, which esbuild bundles beside their scripts. */
declare module "*.css";
