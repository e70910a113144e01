// `basemodel update` on the Andorra import, beside `osmium apply-changes` of the same change file
// to the same extract (the reference), timed by hyperfine in one run; then the data quality
// reports under load (autocannon, 1 and 50 connections) on the updated store.
// The change file moves 10,000 nodes that ways use (a deterministic sample) by about 15 cm, so
// every way and relation using them is rebuilt and checked, as after a busy mapathon.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { has, load, startServe } from "./server.mjs";

const root = new URL("..", import.meta.url).pathname;
const node = process.execPath;
const BIN = join(root, "bin/basemodel.js");
const ANDORRA = join(root, "fixtures/osm/andorra-2021-04-14.osm.pbf");
const CHANGES = 10_000;
const CHANGESET = 999_000_001;

function writeChange(db, path) {
  const sqlite = new Database(db, { readonly: true });
  const nodes = sqlite
    .prepare(
      // A tagged node keeps its tags (from its feature): a modify without them would untag it.
      `SELECT n.id, n.version, n.lon, n.lat, f.tags FROM osm_nodes n LEFT JOIN nodes f ON f.osm_id = n.id
       WHERE n.id IN (SELECT DISTINCT node_id FROM osm_way_nodes)
       ORDER BY (n.id * 2654435761) % 4294967296 LIMIT ?`,
    )
    .all(CHANGES);
  sqlite.close();
  const lines = nodes.map(({ id, version, lon, lat, tags }) => {
    const tagLines = Object.entries(tags === null ? {} : JSON.parse(tags)).map(([key, value]) => `      <tag k="${escapeXml(key)}" v="${escapeXml(value)}"/>`);
    const attributes = `id="${id}" version="${(version ?? 0) + 1}" changeset="${CHANGESET}" timestamp="2021-04-15T00:00:00Z" uid="1" user="bench" lat="${lat}" lon="${(lon + 0.000002).toFixed(7)}"`;
    return tagLines.length === 0 ? `    <node ${attributes}/>` : [`    <node ${attributes}>`, ...tagLines, "    </node>"].join("\n");
  });
  writeFileSync(path, ['<?xml version="1.0" encoding="UTF-8"?>', '<osmChange version="0.6">', "  <modify>", ...lines, "  </modify>", "</osmChange>", ""].join("\n"));
  return nodes.length;
}

const escapeXml = (text) => String(text).replace(/[<>&"]/g, (character) => `&#${character.charCodeAt(0)};`);

function writeChangesets(path) {
  writeFileSync(
    path,
    `<?xml version="1.0" encoding="UTF-8"?>\n<osm version="0.6">\n  <changeset id="${CHANGESET}" created_at="2021-04-14T23:00:00Z" closed_at="2021-04-15T00:00:00Z" open="false" user="bench" uid="1">\n    <tag k="comment" v="Benchmark #basemodel-bench"/>\n    <tag k="created_by" v="bench"/>\n  </changeset>\n</osm>\n`,
  );
}

export async function run() {
  const dir = mkdtempSync(join(tmpdir(), "basemodel-bench-update-"));
  try {
    const pristine = join(dir, "andorra.db");
    const db = join(dir, "updated.db");
    execFileSync(node, [BIN, "import", ANDORRA, "--db", pristine], { stdio: "ignore" });
    const change = join(dir, "change.osc");
    const changesets = join(dir, "changesets.osm");
    const count = writeChange(pristine, change);
    writeChangesets(changesets);

    const commands = [`${node} ${BIN} update ${change} --db ${db} --changesets ${changesets}`];
    if (has("osmium")) commands.push(`osmium apply-changes ${ANDORRA} ${change} -O -o ${join(dir, "applied.osm.pbf")}`);
    const out = join(dir, "update.json");
    execFileSync("hyperfine", ["--runs", "3", "--prepare", `cp ${pristine} ${db}`, "--export-json", out, ...commands], { stdio: ["ignore", "ignore", "inherit"] });
    const [ours, osmium] = JSON.parse(readFileSync(out, "utf8")).results.map((result) => ({ min: result.min, median: result.median }));
    // hyperfine prepares every run of every command, so `db` is pristine again: update it once
    // more for the reports below to read, and show what that update did.
    const summary = execFileSync(node, [BIN, "update", change, "--db", db, "--changesets", changesets], { encoding: "utf8" });

    const server = await startServe(db);
    const rows = [];
    try {
      for (const [path, body] of [
        ["/report/dataQualityGeo", { fromDate: "2000-01-01T00:00:00" }],
        ["/report/dataQualityTagStats", { fromDate: "2000-01-01T00:00:00" }],
      ]) {
        const sample = await fetch(server.url + path, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
        const bytes = (await sample.arrayBuffer()).byteLength;
        const single = await load(server.url, path, body, 1);
        const many = await load(server.url, path, body, 50);
        rows.push(
          `| POST ${path} (${(bytes / 1024).toFixed(0)} KB answer) | p50 ${single.latency.p50} ms, p99 ${single.latency.p99} ms | ` +
            `p50 ${many.latency.p50} ms, p99 ${many.latency.p99} ms, ${many.requests.average.toFixed(0)} req/s, ${many.errors + many.non2xx} errors |`,
        );
      }
    } finally {
      await server.stop();
    }
    const seconds = (value) => `${value.min.toFixed(2)} s (median ${value.median.toFixed(2)} s)`;
    return [
      `| Applying ${count.toLocaleString("en-US")} node moves to Andorra | Fastest of 3 (median) | Changes/s | Reference |`,
      "|---|---|---|---|",
      `| basemodel update (with data quality checks) | ${seconds(ours)} | ${Math.round(count / ours.min).toLocaleString("en-US")} | |`,
      `| osmium apply-changes (reference: the file only, no store, no geometry) | ${osmium ? seconds(osmium) : "osmium not installed"} | ${
        osmium ? Math.round(count / osmium.min).toLocaleString("en-US") : ""
      } | |`,
      "",
      "The update the reports below read:",
      "",
      "```",
      summary.trimEnd(),
      "```",
      "",
      "| Report on the updated Andorra store | 1 connection, 10 s | 50 connections, 10 s |",
      "|---|---|---|",
      ...rows,
    ].join("\n");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(await run());
