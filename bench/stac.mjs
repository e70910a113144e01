// Issue 18's speed targets, on 2,000 of fAIr's real items as they are (each with its warning;
// 10% broken): `basemodel validate <dir>` and `--stac` beside the floor (read + JSON.parse) and
// stac-node-validator 2 given the same official schemas locally (--schemaMap), and the base rules
// beside ajv-cli with the same schema, timed in one run by hyperfine. Ratios use each command's
// fastest run (see bench/cli.mjs). Needs ../shared.
//
// A/B: `node bench/stac.mjs --against <commit>` builds <commit> beside this checkout (as
// bench/server.mjs does) and times both, with and without --stac, round after round (--rounds 6,
// --runs 3 a command each round), the order swapped every round: each side beside the other in
// the same minutes.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { ajvCli, checkEachCounts, counted, hyperfine } from "./cli.mjs";
import { buildCommit, commitLabels } from "./commit.mjs";
import { buildRealCorpus } from "./corpus.mjs";
import { benchPeer } from "./peer.mjs";

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
  const [floor, base, ajv, stac, peer] = hyperfine(
    checkEachCounts(
      [
        { command: `${node} ${join(root, "bench/floor.mjs")} ${dir}`, count: counted.floor },
        { command: basemodel, count: counted.basemodel },
        { command: ajvCli(join(root, "schema/base-model-item.schema.json"), dir), count: counted.ajvCli },
        { command: `${basemodel} --stac`, count: counted.basemodel },
        { command: `${node} ${benchPeer("stac-node-validator", "2.0.0", "bin/cli.js")} ${dir} ${schemaMap()}`, count: counted.stacNodeValidator },
      ],
      corpus.count,
    ),
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
    `| (b') ajv-cli 5 + ajv-formats, the same schema as (b) | ${ms(ajv)} | ${(ajv.min / base.min).toFixed(2)}x (b) | (b) faster |`,
    `| (c) the same with --stac | ${ms(stac)} | ${(stac.min / floor.min).toFixed(2)}x (a) | <= 2x (a) |`,
    `| (d) stac-node-validator 2, the same schemas local | ${ms(peer)} | ${(peer.min / stac.min).toFixed(2)}x (c) | (c) at least 5x faster |`,
  ].join("\n");
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

/** `validate <real items>` with and without --stac, of <against> and of this checkout, alternating (see the top of this file). */
export async function runAB({ against, rounds, runs }) {
  const dir = mkdtempSync(join(tmpdir(), "basemodel-bench-stac-ab-"));
  try {
    const corpusDir = join(dir, "corpus");
    const corpus = await buildRealCorpus(corpusDir);
    if (corpus === undefined) return "bench/stac.mjs: skipped, ../shared/data/fair-models/corpus is not there";
    const { commit, current } = commitLabels(against);
    const sides = [
      { label: `commit ${commit}`, bin: buildCommit(commit, dir) },
      { label: current, bin: join(root, "bin/basemodel.js") },
    ];
    const variants = [
      { label: "--stac", flags: " --stac" },
      { label: "without --stac", flags: "" },
    ];
    // Per variant and side: the fastest and the median of each round.
    const rows = variants.map(() => sides.map(() => []));
    for (let round = 0; round < rounds; round++) {
      const order = round % 2 === 0 ? [0, 1] : [1, 0];
      const commands = variants.flatMap((variant) => order.map((side) => `${node} ${sides[side].bin} validate ${corpusDir} --format json${variant.flags}`));
      const results = hyperfine(commands, runs);
      variants.forEach((_variant, v) => order.forEach((side, i) => rows[v][side].push(results[v * 2 + i])));
    }
    const ms = (value) => `${value.toFixed(0)} ms`;
    const fastest = (side) => ms(Math.min(...side.map((result) => result.min)));
    const medianOf = (side, figure) => ms(median(side.map((result) => result[figure])));
    const spread = (ratios) => `${median(ratios).toFixed(2)}x (${Math.min(...ratios).toFixed(2)}-${Math.max(...ratios).toFixed(2)})`;
    const table = variants.map((variant, v) => {
      const [reference, ours] = rows[v];
      const byRound = (figure) => spread(reference.map((a, round) => a[figure] / ours[round][figure]));
      return `| ${variant.label} | ${fastest(reference)} (${medianOf(reference, "median")}); CPU ${medianOf(reference, "cpu")} | ${fastest(ours)} (${medianOf(ours, "median")}); CPU ${medianOf(ours, "cpu")} | ${byRound("min")} | ${byRound("cpu")} |`;
    });
    return [
      `Corpus: ${corpus.count} real items (${corpus.sources} of fAIr's items in turn) of ${(corpus.averageBytes / 1024).toFixed(1)} KB, 10% broken. ${rounds} rounds, ${runs} runs of each command a round, the order swapped every round.`,
      "",
      `| \`basemodel validate <dir> --format json\` | ${sides[0].label}: fastest (median of round medians); user + system CPU a run, median of rounds | ${sides[1].label}: the same | ${sides[0].label} ÷ this, each round's fastest: median of rounds (range) | the same, CPU a run |`,
      "|---|---|---|---|---|",
      ...table,
    ].join("\n");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values } = parseArgs({ options: { against: { type: "string" }, rounds: { type: "string", default: "6" }, runs: { type: "string", default: "3" } } });
  console.log(values.against === undefined ? await run() : await runAB({ against: values.against, rounds: Number(values.rounds), runs: Number(values.runs) }));
}
