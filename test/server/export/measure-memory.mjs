#!/usr/bin/env node
// Peak RSS of exporting all of Andorra in each format (not a test: run after `npm run build`):
//   node test/server/export/measure-memory.mjs
// Each format runs in its own process, so each peak is that export's alone. Columns: osm_id and
// the 50 most frequent tag keys (an export's attribute list must be known before the first row).
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const dist = new URL("../../../dist/", import.meta.url);
const { createWriter, EXPORT_FORMATS } = await import(new URL("server/formats/index.js", dist).href);
const { sqliteStoreFactory } = await import(new URL("server/store/sqlite/store.js", dist).href);
const { FEATURE_TABLES } = await import(new URL("model/features.js", dist).href);
const { EVERYWHERE } = await import(new URL("server/query/everywhere.js", dist).href);
const [, , role, format, dbPath, outDir, keysJson] = process.argv;

if (role === "child") {
  const store = await sqliteStoreFactory.open(dbPath);
  const keys = JSON.parse(keysJson);
  const columns = [{ name: "osm_id", type: "integer" }, ...keys.map((name) => ({ name, type: "text" }))];
  const writer = await createWriter(format, outDir, "Export", { columns });
  const started = Date.now();
  let count = 0;
  for (const table of FEATURE_TABLES) {
    for await (const feature of store.candidates(table, EVERYWHERE)) {
      const properties = { osm_id: feature.osmId };
      for (const key of keys) properties[key] = feature.tags[key] ?? null;
      await writer.write({ geometry: feature.geometry, properties });
      count++;
    }
  }
  const files = await writer.finish();
  await store.close();
  const bytes = files.reduce((sum, file) => sum + statSync(file).size, 0);
  const peakMb = process.resourceUsage().maxRSS / 1024;
  console.log(JSON.stringify({ format, features: count, files: files.length, mb: +(bytes / 1e6).toFixed(1), seconds: (Date.now() - started) / 1000, peakRssMb: Math.round(peakMb) }));
} else {
  const { importOsm } = await import(new URL("server/fill/import.js", dist).href);
  const work = mkdtempSync(join(tmpdir(), "basemodel-measure-"));
  try {
    const db = join(work, "andorra.db");
    await importOsm(fileURLToPath(new URL("../../../fixtures/osm/andorra-2021-04-14.osm.pbf", import.meta.url)), db);
    const store = await sqliteStoreFactory.open(db);
    const frequency = new Map();
    for (const table of FEATURE_TABLES)
      for await (const feature of store.candidates(table, EVERYWHERE))
        for (const key of Object.keys(feature.tags)) frequency.set(key, (frequency.get(key) ?? 0) + 1);
    await store.close();
    const keys = [...frequency].sort((a, b) => b[1] - a[1]).slice(0, 50).map(([key]) => key);
    for (const format of process.argv[2] ? [process.argv[2]] : EXPORT_FORMATS) {
      const out = mkdtempSync(join(work, `${format}-`));
      const line = execFileSync(process.execPath, [fileURLToPath(import.meta.url), "child", format, db, out, JSON.stringify(keys)], { encoding: "utf8" });
      process.stdout.write(line);
      if (existsSync(out)) rmSync(out, { recursive: true, force: true });
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
