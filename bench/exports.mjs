// Asynchronous exports (issue 5): time from POST /latest/snapshot/ to SUCCESS for all of Andorra,
// beside the same work done by standard tools in the same run:
//   geojson: `osmium export` then `zip`;  shp, gpkg: `ogr2ogr` (from osmium's GeoJSON) then `zip`.
// Each export runs in a fresh `basemodel serve` process, so its peak RSS (VmHWM) is the export's.
// Target: geojson within 2x of osmium + zip; every format under 300 MB peak RSS.
// BENCH_EXPORT_FORMATS=geojson,parquet runs only those formats (and only their reference tools).
import { execFileSync, spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const root = new URL("..", import.meta.url).pathname;
const node = process.execPath;
const BIN = join(root, "bin/basemodel.js");
const ANDORRA = join(root, "fixtures/osm/andorra-2021-04-14.osm.pbf");
/** The extract's bounds (osmium fileinfo), as the export polygon. */
const AREA = { type: "Polygon", coordinates: [[[1.4, 42.4], [1.8, 42.4], [1.8, 42.7], [1.4, 42.7], [1.4, 42.4]]] };
const OSMIUM_CONFIG = { attributes: { type: true, id: true, version: true, timestamp: true }, linear_tags: false, area_tags: true };
const FORMATS = (process.env.BENCH_EXPORT_FORMATS ?? "geojson,shp,gpkg,fgb,kml,csv,parquet").split(",");
const RUNS = Number(process.env.BENCH_EXPORT_RUNS ?? 3);

export function startServe(db, exportsDir) {
  // Warnings and errors only: a line per request and export would be most of what the benchmark prints.
  const child = spawn(node, [BIN, "serve", "--db", db, "--port", "0", "--exports", exportsDir, "--workers", "1", "--log-level", "warn"], { stdio: ["ignore", "pipe", "inherit"] });
  return new Promise((resolve, reject) => {
    let text = "";
    child.stdout.on("data", (chunk) => {
      text += chunk;
      const match = /(http:\/\/[^\s]+)/.exec(text);
      if (match) resolve({ url: match[1], child });
    });
    child.on("exit", (code) => reject(new Error(`basemodel serve exited with ${code}`)));
  });
}

function peakRssMb(pid) {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  return Number(/VmHWM:\s+(\d+) kB/.exec(status)[1]) / 1024;
}

/** POST to SUCCESS, in ms (polling every 20 ms, as fast as a client could notice). */
export async function timeExport(url, outputType) {
  const started = performance.now();
  const accepted = await (await fetch(`${url}/latest/snapshot/`, { method: "POST", body: JSON.stringify({ geometry: AREA, outputType }) })).json();
  for (;;) {
    const status = await (await fetch(`${url}/latest${accepted.trackLink}`)).json();
    if (status.status === "SUCCESS") return { ms: performance.now() - started, result: status.result };
    if (status.status === "FAILURE") throw new Error(`${outputType}: ${status.result.error}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

function timeCommand(commands) {
  const started = performance.now();
  for (const [command, args, cwd] of commands) execFileSync(command, args, { stdio: "ignore", cwd });
  return performance.now() - started;
}

const best = (values) => Math.min(...values);
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const seconds = (ms) => `${(ms / 1000).toFixed(2)} s`;

export async function run() {
  const dir = mkdtempSync(join(tmpdir(), "basemodel-bench-exports-"));
  try {
    const db = join(dir, "andorra.db");
    execFileSync(node, [BIN, "import", ANDORRA, "--db", db], { stdio: "ignore" });
    const config = join(dir, "osmium.json");
    writeFileSync(config, JSON.stringify(OSMIUM_CONFIG));

    const ours = {};
    for (const format of FORMATS) {
      const times = [];
      let peak = 0;
      let result;
      for (let i = 0; i < (["geojson", "shp", "gpkg", "parquet"].includes(format) ? RUNS : 1); i++) {
        const exportsDir = join(dir, `exports-${format}-${i}`);
        const server = await startServe(db, exportsDir);
        try {
          ({ ms: times[i], result } = await timeExport(server.url, format));
          peak = Math.max(peak, peakRssMb(server.child.pid));
        } finally {
          server.child.kill("SIGTERM");
        }
        rmSync(exportsDir, { recursive: true, force: true });
      }
      ours[format] = { times, peak, zipMb: result.zipFileSizeBytes / 1e6, fileMb: parseFloat(result.bindedFileSize) };
    }

    // The standard tools, each from scratch into a fresh folder.
    const reference = { geojson: [], shp: [], gpkg: [] };
    const osmiumGeojson = join(dir, "osmium-source.geojson");
    if (FORMATS.includes("shp") || FORMATS.includes("gpkg")) execFileSync("osmium", ["export", "-c", config, "-f", "geojson", "-O", "-o", osmiumGeojson, ANDORRA], { stdio: "ignore" });
    for (let i = 0; i < RUNS; i++) {
      const work = join(dir, `reference-${i}`);
      mkdirSync(work);
      if (FORMATS.includes("geojson")) reference.geojson.push(
        timeCommand([
          ["osmium", ["export", "-c", config, "-f", "geojson", "-O", "-o", join(work, "Export.geojson"), ANDORRA]],
          ["zip", ["-q", "-j", join(work, "geojson.zip"), join(work, "Export.geojson")]],
        ]),
      );
      if (FORMATS.includes("shp")) reference.shp.push(
        timeCommand([
          ["ogr2ogr", ["-f", "ESRI Shapefile", "-lco", "ENCODING=UTF-8", "-nlt", "POINT", "-where", "OGR_GEOMETRY='Point'", join(work, "Export_point.shp"), osmiumGeojson]],
          ["ogr2ogr", ["-f", "ESRI Shapefile", "-lco", "ENCODING=UTF-8", "-nlt", "MULTILINESTRING", "-where", "OGR_GEOMETRY IN ('LineString','MultiLineString')", join(work, "Export_line.shp"), osmiumGeojson]],
          ["ogr2ogr", ["-f", "ESRI Shapefile", "-lco", "ENCODING=UTF-8", "-nlt", "MULTIPOLYGON", "-where", "OGR_GEOMETRY IN ('Polygon','MultiPolygon')", join(work, "Export_poly.shp"), osmiumGeojson]],
          ["sh", ["-c", 'zip -q -j shp.zip Export_*'], work],
        ]),
      );
      if (FORMATS.includes("gpkg")) reference.gpkg.push(
        timeCommand([
          ["ogr2ogr", ["-f", "GPKG", join(work, "Export.gpkg"), osmiumGeojson]],
          ["zip", ["-q", "-j", join(work, "gpkg.zip"), join(work, "Export.gpkg")]],
        ]),
      );
      rmSync(work, { recursive: true, force: true });
    }

    const lines = [
      `All of Andorra (${ANDORRA.split("/").pop()}), POST to SUCCESS with one worker, fastest of ${RUNS} runs (median in brackets); peak RSS of the server process.`,
      "",
      "| Format | basemodel serve | Reference (same run) | Ratio | Peak RSS | File | Zip | Target |",
      "|---|---|---|---|---|---|---|---|",
    ];
    const referenceName = { geojson: "osmium export + zip", shp: "ogr2ogr ×3 + zip", gpkg: "ogr2ogr + zip" };
    for (const format of FORMATS) {
      const mine = ours[format];
      const theirs = reference[format]?.length ? reference[format] : undefined;
      const ratio = theirs ? `${(best(mine.times) / best(theirs)).toFixed(2)}x` : "";
      const target = format === "geojson" ? "≤ 2x osmium + zip; < 300 MB" : "< 300 MB";
      lines.push(
        `| ${format} | ${seconds(best(mine.times))}${mine.times.length > 1 ? ` (${seconds(median(mine.times))})` : ""} | ${theirs ? `${referenceName[format]}: ${seconds(best(theirs))} (${seconds(median(theirs))})` : "n/a"} | ${ratio} | ${mine.peak.toFixed(0)} MB | ${mine.fileMb.toFixed(1)} MB | ${mine.zipMb.toFixed(1)} MB | ${target} |`,
      );
    }
    lines.push("", "ogr2ogr reads osmium's GeoJSON of the same extract (made once, outside the timing), as HOT's service runs ogr2ogr on its database.");
    return lines.join("\n");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(await run());
