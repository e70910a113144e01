// Where a /raw/all request's CPU goes, beside the server of another commit (issue 29 point 11):
// each server in turn under the same load (a warm-up, then `--requests` at 50 connections, Monaco's
// centre, SQLite, the default --log-level) with `node --cpu-prof`; then self and inclusive time
// per request of each function, and of each kind of code, with the difference between the two.
// Sampled time counts time a process waited for a core: on a shared machine, read differences.
//   node bench/profile.mjs --against 3cb087b [--requests 3000] [--top 30]
import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { buildCommit } from "./commit.mjs";
import { load, rawAllBody, startServe } from "./server.mjs";

const root = new URL("..", import.meta.url).pathname;
const BIN = join(root, "bin/basemodel.js");
const MONACO = join(root, "fixtures/osm/monaco-2025-01-01.osm.pbf");

/** A profile's samples, each with the frames of its stack (innermost first) and its duration. */
function readProfile(dir) {
  const file = readdirSync(dir).find((name) => name.endsWith(".cpuprofile"));
  const profile = JSON.parse(readFileSync(join(dir, file), "utf8"));
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
  const parents = new Map();
  for (const node of profile.nodes) for (const child of node.children ?? []) parents.set(child, node.id);
  const ms = (profile.endTime - profile.startTime) / 1000 / profile.samples.length;
  return { nodes, parents, samples: profile.samples, ms };
}

/** A frame's name, the same in two builds: a bundle chunk's hashed name is left out. */
function frameName({ callFrame: { functionName, url } }) {
  const where = url.includes("/dist/") ? "ours" : url.includes("node_modules/") ? url.split("node_modules/").pop().split("/")[0] : url.startsWith("node:") ? "node" : "";
  return `${functionName || "(anonymous)"}${where ? ` [${where}]` : ""}`;
}

/** Self and inclusive milliseconds per request of each function, and self of each kind of code. */
function perRequest(profile, requests) {
  const self = new Map();
  const inclusive = new Map();
  const kinds = new Map();
  const add = (map, key, value) => map.set(key, (map.get(key) ?? 0) + value);
  const share = profile.ms / requests;
  for (const id of profile.samples) {
    const leaf = profile.nodes.get(id);
    add(self, frameName(leaf), share);
    add(kinds, /\[(.*)\]$/.exec(frameName(leaf))?.[1] ?? frameName(leaf), share);
    const seen = new Set();
    for (let at = id; at !== undefined; at = profile.parents.get(at)) {
      const name = frameName(profile.nodes.get(at));
      if (!seen.has(name)) add(inclusive, name, share);
      seen.add(name);
    }
  }
  return { self, inclusive, kinds };
}

async function profileServer(bin, db, dir, requests) {
  const server = await startServe(db, 1, join(dir, "exports"), bin, { nodeOptions: ["--cpu-prof", `--cpu-prof-dir=${dir}`] });
  try {
    await load(server.url, "/raw/all", rawAllBody(), 50, undefined, 500);
    await load(server.url, "/raw/all", rawAllBody(), 50, undefined, requests);
  } finally {
    // The profile is written as the process exits.
    await server.stop();
  }
  return readProfile(dir);
}

function table(title, reference, current, top) {
  const names = [...new Set([...reference.keys(), ...current.keys()])];
  const rows = names.map((name) => [name, reference.get(name) ?? 0, current.get(name) ?? 0]).sort((a, b) => Math.abs(b[2] - b[1]) - Math.abs(a[2] - a[1]));
  return [`| ${title} | reference | current | difference |`, "|---|---|---|---|", ...rows.slice(0, top).map(([name, a, b]) => `| ${name} | ${a.toFixed(3)} | ${b.toFixed(3)} | ${(b - a >= 0 ? "+" : "") + (b - a).toFixed(3)} |`)].join("\n");
}

const { values } = parseArgs({ options: { against: { type: "string" }, requests: { type: "string", default: "3000" }, top: { type: "string", default: "30" } } });
if (values.against === undefined) {
  console.error("usage: node bench/profile.mjs --against <commit> [--requests 3000] [--top 30]");
  process.exit(2);
}
const dir = mkdtempSync(join(tmpdir(), "basemodel-bench-profile-"));
try {
  const db = join(dir, "monaco.db");
  execFileSync(process.execPath, [BIN, "import", MONACO, "--db", db], { stdio: "ignore" });
  const commit = execFileSync("git", ["-C", root, "rev-parse", "--short", values.against], { encoding: "utf8" }).trim();
  const requests = Number(values.requests);
  const reference = perRequest(await profileServer(buildCommit(commit, dir), db, mkdtempSync(join(dir, "reference-")), requests), requests);
  const current = perRequest(await profileServer(BIN, db, mkdtempSync(join(dir, "current-")), requests), requests);
  const top = Number(values.top);
  console.log(`ms per request, ${requests} requests at 50 connections; reference: commit ${commit}\n`);
  console.log(table("Kind of code (self)", reference.kinds, current.kinds, top), "\n");
  console.log(table("Function (self)", reference.self, current.self, top), "\n");
  console.log(table("Function (inclusive)", reference.inclusive, current.inclusive, top));
} finally {
  rmSync(dir, { recursive: true, force: true });
}
