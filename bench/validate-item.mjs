// Throughput of validateItem() and validateItemText() from the BUILT library (dist/), on one core.
//
//   node bench/validate-item.mjs            prints a Markdown table
//   import { run } from "./validate-item.mjs"; const rows = await run({ seconds: 2 });
//
// Items: the real fAIr UNet item (~13 KB, read from ../shared, never copied into the repo) as it is
// (valid, with one warning: it carries fair:hyperparameters_spec), the same item without that
// member (valid, no issue), the same item with 5 broken members (invalid), and
// fixtures/valid/realistic-segmentation.json when it exists (valid and broken the same way).
//
// Each case is warmed up, then run for a fixed time (2 s, BENCH_SECONDS to change) next to its
// floor, measured in the same run on the same value: the two take turns in 40 short slices, and
// the row shows the best slice's items/s and µs/item (other load on the machine only ever slows
// a slice down) with the median slice in brackets. The floors:
//   validateItem      vs  a bare Ajv validator, new Ajv({ allErrors: true }).compile(schema)
//                         (what the engine itself costs; ours adds issue shaping on failures)
//   validateItemText  vs  JSON.parse of the same text (what reading the text costs)
// Target: at least 200,000 valid items/s for validateItem.
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, "..");
const require = createRequire(import.meta.url);

export const TARGET_VALID_PER_SECOND = 200_000;

const UNET = path.resolve(repo, "../shared/data/fair-models/models/unet_segmentation/stac-item.json");
const REALISTIC = path.join(repo, "fixtures/valid/realistic-segmentation.json");

/** Five broken members: an enum, a range, a missing member, an empty array, an empty string. */
function broken(item) {
  const copy = structuredClone(item);
  const prefix = Object.keys(copy.properties).some((key) => key.startsWith("fair:")) ? "fair:" : "svc:";
  copy.properties["mlm:framework"] = "pytorch";
  copy.properties[`${prefix}split_spec`].default_ratio = 1.5;
  delete copy.properties.license;
  copy.properties.keywords = [];
  copy.assets.model.href = "";
  return copy;
}

/** The item without the fair: members the v1.0.0 schema does not define (so that it passes with no warning). */
function withoutUnknownPrefixed(item) {
  const copy = structuredClone(item);
  for (const key of Object.keys(copy.properties)) {
    if (/^fair:(?!(metrics_spec|split_spec)$)/u.test(key)) delete copy.properties[key];
  }
  return copy;
}

let sink = 0;

/** Milliseconds for 10 million integer additions: ~10 ms on an idle core; far more means a busy or throttled machine. */
function calibrate() {
  const start = performance.now();
  let total = 0;
  for (let i = 0; i < 10_000_000; i++) total = (total + i) | 0;
  sink ^= total & 1;
  return performance.now() - start;
}

/** Calls fn for about `ms` milliseconds (checking the clock every 64 calls); returns calls and time. */
function loop(fn, ms) {
  const batch = 64;
  let count = 0;
  const start = performance.now();
  let now = start;
  while (now - start < ms) {
    for (let i = 0; i < batch; i++) sink ^= fn() ? 1 : 0;
    count += batch;
    now = performance.now();
  }
  return { count, ms: now - start };
}

const ROUNDS = 40;

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

/**
 * Measures `fn` and its floor in the same stretch of time: after a warm-up of both, they take
 * turns, ROUNDS slices each of seconds/ROUNDS. The rate reported is that of the best slice
 * (other work on the machine can only slow a slice down, never speed it up: the best slice is
 * the closest to one free core); the median slice is kept too.
 */
function measurePair(fn, floor, seconds, warmupSeconds) {
  loop(fn, (warmupSeconds * 1000) / 2);
  loop(floor, (warmupSeconds * 1000) / 2);
  const rates = { fn: [], floor: [] };
  let iterations = 0;
  for (let round = 0; round < ROUNDS; round++) {
    for (const [key, f] of [["fn", fn], ["floor", floor]]) {
      const { count, ms } = loop(f, (seconds * 1000) / ROUNDS);
      rates[key].push((count / ms) * 1000);
      if (key === "fn") iterations += count;
    }
  }
  const rate = (values) => {
    const itemsPerSecond = Math.max(...values);
    return { itemsPerSecond, microsPerItem: 1e6 / itemsPerSecond, medianItemsPerSecond: median(values) };
  };
  return { mine: { ...rate(rates.fn), iterations }, base: rate(rates.floor) };
}

async function loadLibrary() {
  const entry = path.join(repo, "dist/index.js");
  if (!existsSync(entry)) throw new Error(`${entry} is missing: build the library first (npm run build)`);
  return import(pathToFileURL(entry).href);
}

/**
 * Runs every case and returns one row per case (also printed as a Markdown table when `print`).
 * @param {{ seconds?: number, warmupSeconds?: number, print?: boolean }} [options]
 */
export async function run({ seconds = 2, warmupSeconds = 0.5, print = false } = {}) {
  const calibrationMs = calibrate();
  const { validateItem, validateItemText } = await loadLibrary();
  const Ajv = require("ajv").default;
  const schema = JSON.parse(readFileSync(path.join(repo, "schema/base-model-item.schema.json"), "utf8"));
  const bareAjv = new Ajv({ allErrors: true }).compile(schema);

  const sources = [];
  for (const [name, file] of [["unet_segmentation (real)", UNET], ["realistic-segmentation (fixture)", REALISTIC]]) {
    if (!existsSync(file)) continue;
    const text = readFileSync(file, "utf8");
    sources.push({ name, text, item: JSON.parse(text) });
  }
  if (sources.length === 0) throw new Error(`no item to measure: neither ${UNET} nor ${REALISTIC} exists`);

  const variants = [];
  // Texts: the file as it is, or the changed value written with the file's indentation.
  for (const { name, text, item } of sources) {
    const indent = /\n( +)"/.exec(text)?.[1].length ?? 2;
    const textOf = (value) => `${JSON.stringify(value, null, indent)}\n`;
    const clean = withoutUnknownPrefixed(item);
    const hasUnknown = JSON.stringify(clean) !== JSON.stringify(item);
    if (hasUnknown) variants.push({ item: `${name}, as published`, value: item, text, expect: "valid, 1 warning" });
    variants.push({ item: hasUnknown ? `${name}, no unknown fair:` : name, value: clean, text: hasUnknown ? textOf(clean) : text, expect: "valid" });
    const bad = broken(clean);
    variants.push({ item: `${name}, 5 broken members`, value: bad, text: textOf(bad), expect: "invalid" });
  }

  const rows = [];
  const add = (api, variant, text, ours, floorName, floor) => {
    const result = api === "validateItem" ? validateItem(variant.value) : validateItemText(text);
    const valid = result.valid;
    if ((variant.expect !== "invalid") !== valid) throw new Error(`${variant.item}: expected ${variant.expect}, got valid=${valid}`);
    const { mine, base } = measurePair(ours, floor, seconds, warmupSeconds);
    const targeted = api === "validateItem" && valid;
    rows.push({
      api,
      item: variant.item,
      bytes: Buffer.byteLength(text),
      verdict: `${valid ? "valid" : "invalid"} (${result.errors.length} errors, ${result.warnings.length} warnings)`,
      itemsPerSecond: mine.itemsPerSecond,
      microsPerItem: mine.microsPerItem,
      medianItemsPerSecond: mine.medianItemsPerSecond,
      floor: { name: floorName, itemsPerSecond: base.itemsPerSecond, microsPerItem: base.microsPerItem, medianItemsPerSecond: base.medianItemsPerSecond },
      timesFloor: mine.microsPerItem / base.microsPerItem,
      target: targeted ? TARGET_VALID_PER_SECOND : undefined,
      meetsTarget: targeted ? mine.itemsPerSecond >= TARGET_VALID_PER_SECOND : undefined,
    });
  };

  for (const variant of variants) {
    const { text } = variant;
    add("validateItem", variant, text, () => validateItem(variant.value).valid, "bare Ajv (allErrors)", () => bareAjv(variant.value));
    add("validateItemText", variant, text, () => validateItemText(text).valid, "JSON.parse", () => JSON.parse(text) !== null);
  }

  if (print) console.log(markdown(rows, { seconds, warmupSeconds, calibrationMs }));
  return rows;
}

const int = (n) => Math.round(n).toLocaleString("en-US");
const micros = (n) => (n < 10 ? n.toFixed(2) : n.toFixed(1));

/** The rows as a Markdown table, with the conditions of the run. */
export function markdown(rows, { seconds = 2, warmupSeconds = 0.5, calibrationMs } = {}) {
  const calibration = calibrationMs === undefined ? "" : ` Calibration: 10M integer additions took ${calibrationMs.toFixed(0)} ms (~10 ms on an idle core).`;
  const lines = [
    `Node ${process.version}, one core; per case ${warmupSeconds} s warm-up, then ${seconds} s for the API and ${seconds} s for its floor in ${ROUNDS} alternating slices; best slice (median slice in brackets).${calibration}`,
    "",
    "| API | Item | Bytes | Verdict | items/s | µs/item | Floor | Floor items/s | Floor µs/item | × floor | Target |",
    "|---|---|---:|---|---:|---:|---|---:|---:|---:|---|",
  ];
  for (const row of rows) {
    const target = row.target === undefined ? "n/a" : `≥ ${int(row.target)}/s: ${row.meetsTarget ? "met" : "NOT met"}`;
    lines.push(
      `| ${row.api} | ${row.item} | ${row.bytes} | ${row.verdict} | ${int(row.itemsPerSecond)} (${int(row.medianItemsPerSecond)}) | ${micros(row.microsPerItem)} | ${row.floor.name} | ${int(row.floor.itemsPerSecond)} (${int(row.floor.medianItemsPerSecond)}) | ${micros(row.floor.microsPerItem)} | ${row.timesFloor.toFixed(2)} | ${target} |`,
    );
  }
  return lines.join("\n");
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  const seconds = Number(process.env.BENCH_SECONDS ?? 2);
  run({ seconds, print: true }).then(
    () => {
      if (sink === -1) console.log(""); // keep the results alive
    },
    (error) => {
      console.error(error.message);
      process.exitCode = 1;
    },
  );
}
