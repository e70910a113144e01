import { spawnSync } from "node:child_process";
import { cpSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { basemodel, ROOT, scratchDir } from "./helpers.js";

/**
 * The package as a user has it who installed none of the optional dependencies: bin, dist,
 * schema and rules, and a node_modules holding only what the validator depends on (linked to
 * the repository's copies).
 */
function packageWithoutOptionalDependencies(): string {
  const dir = scratchDir();
  for (const part of ["bin", "dist", "schema", "rules", "package.json"]) cpSync(join(ROOT, part), join(dir, part), { recursive: true });
  const manifest = (name: string) => JSON.parse(readFileSync(join(ROOT, "node_modules", name, "package.json"), "utf8")) as { dependencies?: Record<string, string> };
  const needed = Object.keys(manifest("..").dependencies ?? {});
  const linked = new Set<string>();
  while (needed.length > 0) {
    const name = needed.pop()!;
    if (linked.has(name)) continue;
    linked.add(name);
    mkdirSync(join(dir, "node_modules", name, ".."), { recursive: true });
    symlinkSync(join(ROOT, "node_modules", name), join(dir, "node_modules", name));
    needed.push(...Object.keys(manifest(name).dependencies ?? {}));
  }
  return dir;
}

const installed = packageWithoutOptionalDependencies();
const bin = join(installed, "bin/basemodel.js");
const peers = (JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { peerDependencies: Record<string, string> }).peerDependencies;
const install = (names: string[]) => names.map((name) => `${name}@${/\d+/.exec(peers[name]!)![0]}`).join(" ");

// Files the commands check before they load anything; their content does not matter here.
writeFileSync(join(installed, "change.osc"), "");
writeFileSync(join(installed, "store.db"), "");

/** The installed copy's CLI, from its own folder. */
const run = (args: string[]) => basemodel(args, { cwd: installed, bin });

describe("a command whose optional dependencies are missing", () => {
  const commands: Array<[string, string[], string[]]> = [
    ["import", ["import", "change.osc", "--db", "new.db"], ["pbf", "saxes", "better-sqlite3"]],
    ["update", ["update", "change.osc", "--db", "store.db"], ["better-sqlite3", "saxes", "pbf", "geos-wasm"]],
    ["update --no-quality", ["update", "change.osc", "--db", "store.db", "--no-quality"], ["better-sqlite3", "saxes", "pbf"]],
    ["check", ["check", "--db", "store.db"], ["better-sqlite3", "saxes", "pbf", "geos-wasm"]],
    ["serve", ["serve", "--port", "0"], ["fastify", "@fastify/swagger", "@fastify/swagger-ui", "@fastify/static", "better-sqlite3", "geos-wasm", "yazl", "flatgeobuf", "hyparquet-writer", "yaml", "@maplibre/geojson-vt", "@maplibre/vt-pbf"]],
    ["serve --queue", ["serve", "--port", "0", "--queue", "redis://127.0.0.1:6379"], ["fastify", "@fastify/swagger", "@fastify/swagger-ui", "@fastify/static", "better-sqlite3", "geos-wasm", "yazl", "flatgeobuf", "hyparquet-writer", "yaml", "@maplibre/geojson-vt", "@maplibre/vt-pbf", "bullmq", "ioredis"]],
    ["worker", ["worker", "--queue", "redis://127.0.0.1:6379", "--db", "store.db", "--exports", "exports"], ["bullmq", "ioredis", "better-sqlite3", "geos-wasm", "yazl", "flatgeobuf", "hyparquet-writer"]],
    ["worker on PostGIS", ["worker", "--queue", "redis://127.0.0.1:6379", "--db", "postgres://nobody@127.0.0.1:1/none", "--exports", "exports"], ["bullmq", "ioredis", "pg", "better-sqlite3", "geos-wasm", "yazl", "flatgeobuf", "hyparquet-writer"]],
  ];

  it.each(commands)("%s lists every missing package in one line, exit 2", async (command, args, missing) => {
    const result = await run(args);
    expect(result.stdout).toBe("");
    const name = command.split(" ")[0];
    expect(result.stderr).toBe(`basemodel: ${name} needs the optional dependencies ${missing.join(", ")}: run \`npm install ${install(missing)}\`\n`);
    expect(result.code).toBe(2);
  });

  it("replicate, which looks for nothing before its store loads pg, says so in the same words", async () => {
    const result = await run(["replicate", "--db", "postgres://nobody@127.0.0.1:1/none"]);
    expect(result.stderr).toBe(`basemodel: replicate needs the optional dependency pg: run \`npm install ${install(["pg"])}\`\n`);
    expect(result.code).toBe(2);
  });

  it("validate works without them: it loads none of the server's code", async () => {
    const valid = await run(["validate", join(ROOT, "fixtures/valid")]);
    expect(valid.stderr).toBe("");
    expect(valid.code).toBe(0);
    // Another schema identifier is compiled with Ajv, one of the validator's own dependencies.
    const other = await run(["validate", join(ROOT, "fixtures/valid/minimal.json"), "--schema-url", "https://example.org/schema.json", "--format", "json"]);
    expect(other.code).toBe(1);
    expect(JSON.parse(other.stdout).files[0].items[0].errors.map((issue: { rule: string }) => issue.rule)).toEqual(["schema-url"]);
  });

  it("import(\"basemodel/server\") lists every missing package in one line", async () => {
    const script = 'try { await import("basemodel/server"); } catch (error) { console.log(error.message); }';
    const result = spawnSync(process.execPath, ["--input-type=module", "-e", script], { cwd: installed, encoding: "utf8" });
    const missing = ["fastify", "@fastify/swagger", "@fastify/swagger-ui", "@fastify/static", "better-sqlite3", "geos-wasm", "yazl", "flatgeobuf", "hyparquet-writer", "yaml", "@maplibre/geojson-vt", "@maplibre/vt-pbf"];
    expect(result.stderr).toBe("");
    expect(result.stdout).toBe(`basemodel/server needs the optional dependencies ${missing.join(", ")}: run \`npm install ${install(missing)}\`\n`);
  });

  it("validate --stac works without them: the compiled STAC schemas need only the validator's dependencies", async () => {
    const valid = await run(["validate", "--stac", join(ROOT, "fixtures/valid/realistic-segmentation.json")]);
    expect(valid.stderr).toBe("");
    expect(valid.code).toBe(0);
  });
});

describe("basemodel/server with its optional dependencies", () => {
  it("exports, through import(), what the server's module exports", async () => {
    const entry = (await import(join(ROOT, "dist/server/entry.js"))) as Record<string, unknown>;
    const server = (await import(join(ROOT, "dist/server/index.js"))) as Record<string, unknown>;
    expect(Object.keys(entry).sort()).toEqual(Object.keys(server).sort());
    for (const name of Object.keys(server)) expect(entry[name]).toBe(server[name]);
  });
});
