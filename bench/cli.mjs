// `basemodel validate <dir>` beside its floor (read + JSON.parse) and its peer (ajv-cli 5 + ajv-formats),
// timed in one run by hyperfine; plus the wall-clock of validating one file from process start.
// Ratios use each command's fastest run: on a shared machine other load only ever slows a run
// down, so the minimum is the figure that repeats (the median is printed beside it).
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildCorpus } from "./corpus.mjs";

const root = new URL("..", import.meta.url).pathname;
const node = process.execPath;

export function hyperfine(commands, runs) {
  const out = join(mkdtempSync(join(tmpdir(), "bench-")), "result.json");
  execFileSync("hyperfine", ["--warmup", "2", "--runs", String(runs), "-N", "--ignore-failure", "--export-json", out, ...commands], {
    stdio: ["ignore", "ignore", "inherit"],
  });
  // cpu: the mean user + system time of a run, which other load on the machine inflates far less than the wall-clock.
  return JSON.parse(readFileSync(out, "utf8")).results.map((result) => ({ min: result.min * 1000, median: result.median * 1000, cpu: (result.user + result.system) * 1000 }));
}

export function run() {
  try {
    execFileSync("hyperfine", ["--version"], { stdio: "ignore" });
  } catch {
    throw new Error("bench/cli.mjs needs hyperfine (Debian: apt-get install hyperfine)");
  }
  const dir = mkdtempSync(join(tmpdir(), "basemodel-corpus-"));
  const corpus = buildCorpus(dir);
  const schema = join(root, "schema/base-model-item.schema.json");
  const ajv = join(root, "node_modules/.bin/ajv");
  const [floor, ours, peer] = hyperfine(
    [
      `${node} ${join(root, "bench/floor.mjs")} ${dir}`,
      `${node} ${join(root, "bin/basemodel.js")} validate ${dir} --format json`,
      `${ajv} validate -s ${schema} -d ${dir}/*.json -c ajv-formats --all-errors --errors=json`,
    ],
    10,
  );
  const [single, bare] = hyperfine(
    [`${node} ${join(root, "bin/basemodel.js")} validate ${join(root, "fixtures/valid/realistic-segmentation.json")}`, `${node} -e 0`],
    30,
  );
  rmSync(dir, { recursive: true, force: true });
  const ms = (value) => `${value.min.toFixed(0)} ms (median ${value.median.toFixed(0)})`;
  return [
    `Corpus: ${corpus.count} items of ${(corpus.averageBytes / 1024).toFixed(1)} KB, 10% invalid.`,
    "",
    "| Command | Fastest run (median) | Ratio | Target |",
    "|---|---|---|---|",
    `| (a) floor: read + JSON.parse every file | ${ms(floor)} | 1.00x | |`,
    `| (b) basemodel validate <dir> --format json | ${ms(ours)} | ${(ours.min / floor.min).toFixed(2)}x floor | (b) within 1.5x of (a) |`,
    `| (c) ajv-cli 5 + ajv-formats (peer) | ${ms(peer)} | ${(peer.min / ours.min).toFixed(2)}x (b) | (b) faster than (c) |`,
    `| one file, from process start | ${ms(single)} | node -e 0: ${ms(bare)}, ${(single.min / bare.min).toFixed(2)}x | one file within 1.6x of node -e 0 |`,
  ].join("\n");
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(run());
