// The floor of --stac (issue 28): the compiled STAC schemas alone (the verdict modules of
// dist/generated/stac/, pass or fail only) over 2,000 of fAIr's real items already parsed, each
// item against the core schema of its stac_version and every bundled extension it lists, as
// --stac runs them; nothing worded, placed or reported. Each round is a fresh process, as a
// `validate` run is: its first pass over the items is cold (V8 compiles and interprets the code
// before it optimises it), the second warm. Beside it, in the same process, the read + JSON.parse
// of the same files (bench/stac.mjs's floor). Needs ../shared.
//
//   node bench/stac-schemas.mjs [--against <commit>] [--rounds 6]
// With --against, that commit's build beside this checkout's, alternating round by round.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { parseArgs } from "node:util";
import { buildCommit, commitLabels } from "./commit.mjs";
import { buildRealCorpus } from "./corpus.mjs";

const root = new URL("..", import.meta.url).pathname;

/** One round, in this (fresh) process: milliseconds of the read + parse, the cold pass and the warm pass. */
async function measure(dist, corpus) {
  const start = performance.now();
  const items = readdirSync(corpus).map((name) => JSON.parse(readFileSync(join(corpus, name), "utf8")));
  const read = performance.now() - start;
  const { bundledSchemas } = await import(join(dist, "generated/stac-registry.js"));
  const byUrl = new Map(bundledSchemas.map((schema) => [schema.url, schema]));
  const require = createRequire(import.meta.url);
  const checks = new Map();
  const checkOf = (schema) => {
    if (!checks.has(schema.module)) checks.set(schema.module, require(join(dist, `generated/stac/verdict/${schema.module}.js`)).validate);
    return checks.get(schema.module);
  };
  const loadStart = performance.now();
  const plans = items.map((item) =>
    [`https://schemas.stacspec.org/v${item.stac_version}/item-spec/json-schema/item.json`, ...(item.stac_extensions ?? [])]
      .map((url) => byUrl.get(url))
      .filter((schema) => schema !== undefined)
      .map(checkOf),
  );
  const load = performance.now() - loadStart;
  const pass = () => {
    const [passStart, cpuStart] = [performance.now(), process.cpuUsage()];
    let failed = 0;
    items.forEach((item, i) => plans[i].forEach((check) => (failed += check(item) ? 0 : 1)));
    const cpu = process.cpuUsage(cpuStart);
    // CPU of the whole process (V8 compiles on threads of its own): on a shared machine, wall time also counts waiting for a core.
    return { ms: performance.now() - passStart, cpu: (cpu.user + cpu.system) / 1000, failed };
  };
  const cold = pass();
  const warm = pass();
  return { read, load, cold: cold.ms, coldCpu: cold.cpu, warm: warm.ms, warmCpu: warm.cpu, failed: cold.failed };
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

async function main({ against, rounds }) {
  const dir = mkdtempSync(join(tmpdir(), "basemodel-bench-stac-schemas-"));
  try {
    const corpus = join(dir, "corpus");
    if ((await buildRealCorpus(corpus)) === undefined) return "bench/stac-schemas.mjs: skipped, ../shared/data/fair-models/corpus is not there";
    const sides = [{ label: commitLabels("HEAD").current, dist: join(root, "dist") }];
    if (against !== undefined) sides.unshift({ label: `commit ${commitLabels(against).commit}`, dist: join(dirname(buildCommit(commitLabels(against).commit, dir)), "../dist") });
    const results = sides.map(() => []);
    for (let round = 0; round < rounds; round++) {
      const order = round % 2 === 0 ? sides.map((_, i) => i) : sides.map((_, i) => i).reverse();
      for (const side of order) {
        const output = execFileSync(process.execPath, [new URL(import.meta.url).pathname, "--measure", sides[side].dist, corpus], { encoding: "utf8" });
        results[side].push(JSON.parse(output));
      }
    }
    const ms = (side, figure) => `${median(side.map((result) => result[figure])).toFixed(0)} ms`;
    return [
      `2,000 real items, ${rounds} rounds (a fresh process each), medians; the schemas failed ${results[0][0].failed} times in a pass.`,
      "",
      "| Build | read + JSON.parse (reference) | loading the verdict modules | first pass (cold): wall; CPU | second pass (warm): wall; CPU |",
      "|---|---|---|---|---|",
      ...sides.map((side, i) => `| ${side.label} | ${ms(results[i], "read")} | ${ms(results[i], "load")} | ${ms(results[i], "cold")}; ${ms(results[i], "coldCpu")} | ${ms(results[i], "warm")}; ${ms(results[i], "warmCpu")} |`),
    ].join("\n");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const { values, positionals } = parseArgs({ allowPositionals: true, options: { against: { type: "string" }, rounds: { type: "string", default: "6" }, measure: { type: "boolean" } } });
if (values.measure) console.log(JSON.stringify(await measure(positionals[0], positionals[1])));
else console.log(await main({ against: values.against, rounds: Number(values.rounds) }));
