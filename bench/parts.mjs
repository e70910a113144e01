// What each part of `basemodel validate <dir> --format json` costs a whole run: copies of the
// command line's bundle, each with one part switched off, timed beside the unchanged bundle and
// the floor (read + JSON.parse), round after round with the order swapped every round. A part's
// cost is the unchanged run's time less the run without it (each side's fastest run). "Every
// part off" leaves the walk, the reading, the parse, the report's assembly and the start-up: the
// least a run of this design can cost. On fAIr's real items where ../shared exists, else (or with
// --synthetic) on the synthetic copies of the realistic fixture that bench/cli.mjs uses.
//
// A part is switched off by replacing one exact piece of the built bundle; a piece that is not
// found exactly once stops the benchmark, so a change to the code cannot leave a part on unseen.
// The output of each copy is checked to have changed as its part says (positions gone, the report
// cut to its summary, ...) before anything is timed.
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { spawnSync } from "node:child_process";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { hyperfine } from "./cli.mjs";
import { buildCorpus, buildRealCorpus } from "./corpus.mjs";

const root = new URL("..", import.meta.url).pathname;
const node = process.execPath;

const PLACED = new Set(["json-syntax", "encoding", "duplicate-key"]);

/** Each part: the pieces of the bundle that switch it off, and what its output then shows. */
export const PARTS = [
  {
    name: "duplicate-name check (every file)",
    replace: [[/return nameColons\(text\) !== memberCount\(value\);/, "return false;"]],
  },
  {
    name: "positions of every issue",
    replace: [[/place\((\w+), nearMiss === void 0 \? map\.locate\([^;]+\);/, "$1.line = -1;"]],
    // Issues that come with their place (a JSON syntax error, a duplicate name) keep it.
    shows: (report) => report.files.every((file) => file.items.every((item) => [...item.errors, ...item.warnings].every((issue) => issue.line === -1 || PLACED.has(issue.rule)))),
  },
  {
    name: "the JSON report (summary only)",
    replace: [[/JSON\.stringify\(document, null, 2\)/, "JSON.stringify({ summary: document.summary, files: [] })"]],
    shows: (report) => report.files.length === 0,
  },
  {
    name: "validation: schema, rules, issues",
    replace: [[/check\(value, base = ""\) \{/, 'check(value, base = "") {\n    return [];']],
    shows: (report) => report.summary.errors + report.summary.warnings === 0,
  },
];

/** The files of a bundle folder in which `pattern` is found, once for each time it is found. */
export function filesMatching(bundle, pattern) {
  const files = readdirSync(bundle).filter((name) => name.endsWith(".js"));
  return files.flatMap((name) => [...readFileSync(join(bundle, name), "utf8").matchAll(new RegExp(pattern, "g"))].map(() => name));
}

/** A copy of the package at `dir` whose CLI bundle has `replace` applied (everything else linked to this checkout). */
function variant(dir, replace) {
  mkdirSync(join(dir, "dist"), { recursive: true });
  // bin/ is copied: Node runs a linked script from where its link points, which would load this checkout's bundle.
  for (const entry of readdirSync(root)) if (!["dist", ".git", "bin"].includes(entry)) symlinkSync(join(root, entry), join(dir, entry));
  cpSync(join(root, "bin"), join(dir, "bin"), { recursive: true });
  for (const entry of readdirSync(join(root, "dist"))) if (entry !== "cli-bundle") symlinkSync(join(root, "dist", entry), join(dir, "dist", entry));
  const bundle = join(dir, "dist/cli-bundle");
  cpSync(join(root, "dist/cli-bundle"), bundle, { recursive: true });
  for (const [pattern, replacement] of replace) {
    const matches = filesMatching(bundle, pattern);
    if (matches.length !== 1) throw new Error(`bench/parts.mjs: ${pattern} is found ${matches.length} times in dist/cli-bundle, not once: update the part's pieces`);
    const file = join(bundle, matches[0]);
    writeFileSync(file, readFileSync(file, "utf8").replace(pattern, replacement));
  }
  return join(dir, "bin/basemodel.js");
}

export async function run({ rounds = 4, runs = 3, synthetic = false } = {}) {
  const dir = mkdtempSync(join(tmpdir(), "basemodel-bench-parts-"));
  try {
    const corpusDir = join(dir, "corpus");
    const real = synthetic ? undefined : await buildRealCorpus(corpusDir);
    const corpus = real ?? { ...buildCorpus(corpusDir), synthetic: true };
    const sides = [
      { name: "nothing off (this checkout)", bin: join(root, "bin/basemodel.js") },
      ...PARTS.map((part, index) => ({ name: `${part.name} off`, bin: variant(join(dir, `part-${index}`), part.replace), shows: part.shows })),
      { name: "every part off", bin: variant(join(dir, "all"), PARTS.flatMap((part) => part.replace)) },
    ];
    for (const side of sides.slice(1, -1)) {
      // Exit status 1: the corpus holds broken items.
      const report = JSON.parse(spawnSync(node, [side.bin, "validate", corpusDir, "--format", "json"], { encoding: "utf8", maxBuffer: 1 << 30 }).stdout);
      if (side.shows !== undefined && !side.shows(report)) throw new Error(`bench/parts.mjs: the copy with ${side.name} does not show it in its output`);
    }
    const floor = `${node} ${join(root, "bench/floor.mjs")} ${corpusDir}`;
    const commands = [floor, ...sides.map((side) => `${node} ${side.bin} validate ${corpusDir} --format json`)];
    const fastest = commands.map(() => Infinity);
    for (let round = 0; round < rounds; round++) {
      const order = commands.map((_, index) => index);
      if (round % 2 === 1) order.reverse();
      const results = hyperfine(order.map((index) => commands[index]), runs);
      order.forEach((index, position) => (fastest[index] = Math.min(fastest[index], results[position].min)));
    }
    const [floorMs, wholeMs] = fastest;
    const rows = sides.map((side, index) => {
      const ms = fastest[index + 1];
      const cost = index === 0 ? "" : `${(wholeMs - ms).toFixed(0)} ms`;
      return `| ${side.name} | ${ms.toFixed(0)} ms | ${(ms / floorMs).toFixed(2)}x | ${cost} |`;
    });
    const what = corpus.synthetic ? `${corpus.count} synthetic copies of the realistic fixture` : `${corpus.count} of fAIr's real items`;
    return [
      `Corpus: ${what}, ${(corpus.averageBytes / 1024).toFixed(1)} KB on average. ${rounds} rounds of ${runs} runs a command, the order reversed every other round; each command's fastest run.`,
      "",
      "| `validate <dir> --format json` with | Fastest run | Ratio to the floor | What the part costs |",
      "|---|---|---|---|",
      `| (floor: read + JSON.parse every file) | ${floorMs.toFixed(0)} ms | 1.00x | |`,
      ...rows,
    ].join("\n");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values } = parseArgs({ options: { rounds: { type: "string", default: "4" }, runs: { type: "string", default: "3" }, synthetic: { type: "boolean", default: false } } });
  const [rounds, runs] = [values.rounds, values.runs].map(Number);
  if (![rounds, runs].every((count) => Number.isInteger(count) && count >= 1)) {
    console.error(`bench/parts.mjs: --rounds and --runs take a whole number of at least 1 (given ${values.rounds} and ${values.runs})`);
    process.exit(2);
  }
  console.log(await run({ rounds, runs, synthetic: values.synthetic }));
}
