// Issue 18's speed targets, on 2,000 of fAIr's real items as they are (each with its warning;
// 10% broken): `basemodel validate <dir>` and `--stac` beside the floor (read + JSON.parse) and
// stac-node-validator 2 given the same official schemas locally (--schemaMap), timed in one run
// by hyperfine. Ratios use each command's fastest run (see bench/cli.mjs). Needs ../shared.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { hyperfine } from "./cli.mjs";
import { buildRealCorpus } from "./corpus.mjs";

const root = new URL("..", import.meta.url).pathname;
const node = process.execPath;
const runs = Number(process.env.BENCH_RUNS ?? 10);

/** stac-node-validator's --schemaMap for every host of the bundled schemas, and fAIr's published one (reference data). */
function schemaMap() {
  const bundled = ["schemas.stacspec.org", "stac-extensions.github.io", "crim-ca.github.io", "geojson.org", "proj.org"].map((host) => `https://${host}/=${join(root, "schema/stac", host)}/`);
  const fair = `https://hotosm.github.io/=${join(root, "../shared/data/stac-schemas/hotosm.github.io")}/`;
  return [...bundled, fair].map((entry) => `--schemaMap ${entry}`).join(" ");
}

export async function run() {
  const dir = mkdtempSync(join(tmpdir(), "basemodel-real-corpus-"));
  const corpus = await buildRealCorpus(dir);
  if (corpus === undefined) return "bench/stac.mjs: skipped, ../shared/data/fair-models/corpus is not there";
  const basemodel = `${node} ${join(root, "bin/basemodel.js")} validate ${dir} --format json`;
  const [floor, base, stac, peer] = hyperfine(
    [`${node} ${join(root, "bench/floor.mjs")} ${dir}`, basemodel, `${basemodel} --stac`, `${node} ${join(root, "node_modules/stac-node-validator/bin/cli.js")} ${dir} ${schemaMap()}`],
    runs,
  );
  rmSync(dir, { recursive: true, force: true });
  const ms = (value) => `${value.min.toFixed(0)} ms (median ${value.median.toFixed(0)})`;
  return [
    `Corpus: ${corpus.count} real items (${corpus.sources} of fAIr's items that the base model rules pass, in turn) of ${(corpus.averageBytes / 1024).toFixed(1)} KB, 10% broken.`,
    "",
    "| Command | Fastest run (median) | Ratio | Target |",
    "|---|---|---|---|",
    `| (a) floor: read + JSON.parse every file | ${ms(floor)} | 1.00x | |`,
    `| (b) basemodel validate <dir> --format json | ${ms(base)} | ${(base.min / floor.min).toFixed(2)}x (a) | <= 1.5x (a) |`,
    `| (c) the same with --stac | ${ms(stac)} | ${(stac.min / floor.min).toFixed(2)}x (a) | <= 2x (a) |`,
    `| (d) stac-node-validator 2, the same schemas local | ${ms(peer)} | ${(peer.min / stac.min).toFixed(2)}x (c) | (c) at least 5x faster |`,
  ].join("\n");
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(await run());
