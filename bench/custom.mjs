// Custom exports (issue 19, point 7): TM-Extractor's request (its config.json: buildings, roads,
// waterways, land use, each in geojson, shp and kml: 18 zips) for all of Andorra, POST to SUCCESS
// with one worker, beside the same features exported the way a client without custom exports
// would get them in the same run: one /snapshot/ per category and format (12), posted at once.
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startServe } from "./exports.mjs";

const root = new URL("..", import.meta.url).pathname;
const node = process.execPath;
const BIN = join(root, "bin/basemodel.js");
const ANDORRA = join(root, "fixtures/osm/andorra-2021-04-14.osm.pbf");
const AREA = { type: "Polygon", coordinates: [[[1.4, 42.4], [1.8, 42.4], [1.8, 42.7], [1.4, 42.7], [1.4, 42.4]]] };
const RUNS = Number(process.env.BENCH_CUSTOM_RUNS ?? 3);
const FORMATS = ["geojson", "shp", "kml"];

/** TM-Extractor's categories, with the tags each `where` names, for the /snapshot/ equivalent. */
const CATEGORIES = [
  { name: "Buildings", types: ["polygons"], select: ["name", "building", "building:levels", "building:materials", "addr:full", "addr:housenumber", "addr:street", "addr:city", "office", "source"], where: "tags['building'] IS NOT NULL", tags: { building: [] } },
  { name: "Roads", types: ["lines"], select: ["name", "highway", "surface", "smoothness", "width", "lanes", "oneway", "bridge", "layer", "source"], where: "tags['highway'] IS NOT NULL", tags: { highway: [] } },
  {
    name: "Waterways",
    types: ["lines", "polygons"],
    select: ["name", "waterway", "covered", "width", "depth", "layer", "blockage", "tunnel", "natural", "water", "source"],
    where: "tags['waterway'] IS NOT NULL OR tags['water'] IS NOT NULL OR tags['natural'] IN ('water','wetland','bay')",
    tags: { waterway: [], water: [], natural: ["water", "wetland", "bay"] },
  },
  { name: "Landuse", types: ["points", "polygons"], select: ["name", "amenity", "landuse", "leisure"], where: "tags['landuse'] IS NOT NULL", tags: { landuse: [] } },
];
const GEOMETRY_TYPES = { points: "point", lines: "line", polygons: "polygon" };

const customRequest = {
  geometry: AREA,
  queue: "raw_daemon",
  dataset: { dataset_prefix: "hotosm_project_1", dataset_folder: "TM" },
  categories: CATEGORIES.map(({ name, types, select, where }) => ({ [name]: { types, select, where, formats: FORMATS } })),
};

const snapshotRequests = CATEGORIES.flatMap(({ name, types, select, tags }) =>
  FORMATS.map((outputType) => ({
    geometry: AREA,
    outputType,
    fileName: name,
    useStWithin: false,
    geometryType: types.map((type) => GEOMETRY_TYPES[type]),
    filters: { tags: { allGeometry: tags }, attributes: { allGeometry: select } },
  })),
);

async function finished(url, trackLink) {
  for (;;) {
    const status = await (await fetch(`${url}/latest${trackLink}`)).json();
    if (status.status === "SUCCESS") return status.result;
    if (status.status === "FAILURE") throw new Error(status.result.error);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** POSTs every body at once, then waits for all: ms from the first POST to the last SUCCESS. */
async function timeAll(url, path, bodies) {
  const started = performance.now();
  const accepted = await Promise.all(bodies.map(async (body) => (await fetch(`${url}${path}`, { method: "POST", body: JSON.stringify(body) })).json()));
  const results = await Promise.all(accepted.map(({ track_link }) => finished(url, track_link)));
  return { ms: performance.now() - started, results };
}

const best = (values) => Math.min(...values);
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const seconds = (ms) => `${(ms / 1000).toFixed(2)} s`;

export async function run() {
  const dir = mkdtempSync(join(tmpdir(), "basemodel-bench-custom-"));
  try {
    const db = join(dir, "andorra.db");
    execFileSync(node, [BIN, "import", ANDORRA, "--db", db], { stdio: "ignore" });
    const custom = [];
    const snapshots = [];
    let zips = 0;
    let bytes = 0;
    // Alternating, each in a fresh server, so that both see the machine alike.
    for (let i = 0; i < RUNS; i++) {
      for (const [times, path, bodies] of [
        [custom, "/latest/custom/snapshot/", [customRequest]],
        [snapshots, "/latest/snapshot/", snapshotRequests],
      ]) {
        const exportsDir = join(dir, `exports-${i}-${times === custom ? "custom" : "snapshot"}`);
        const server = await startServe(db, exportsDir);
        try {
          const { ms, results } = await timeAll(server.url, path, bodies);
          times.push(ms);
          if (times === custom) {
            const resources = results[0].datasets.flatMap((dataset) => Object.values(dataset)[0].resources);
            zips = resources.length;
            bytes = resources.reduce((sum, resource) => sum + resource.size, 0);
          }
        } finally {
          server.child.kill("SIGTERM");
        }
        rmSync(exportsDir, { recursive: true, force: true });
      }
    }
    return [
      `TM-Extractor's request for all of Andorra (${ANDORRA.split("/").pop()}): 4 categories × 3 formats, ${zips} zips (${(bytes / 1e6).toFixed(1)} MB), one worker, POST to SUCCESS, fastest of ${RUNS} runs (median in brackets).`,
      "",
      "| Export | basemodel serve | Ratio |",
      "|---|---|---|",
      `| one \`/custom/snapshot/\` | ${seconds(best(custom))} (${seconds(median(custom))}) | ${(best(custom) / best(snapshots)).toFixed(2)}x |`,
      `| reference: 12 \`/snapshot/\` (a category and format each), posted at once | ${seconds(best(snapshots))} (${seconds(median(snapshots))}) | 1.00x |`,
    ].join("\n");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(await run());
