// `basemodel validate <dir>` beside its floor (read + JSON.parse) and its peer (ajv-cli 5 + ajv-formats),
// timed in one run by hyperfine; plus the wall-clock of validating one file from process start.
// Ratios use each command's fastest run: on a shared machine other load only ever slows a run
// down, so the minimum is the figure that repeats (the median is printed beside it).
import { execFileSync, spawnSync } from "node:child_process";
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from "node:fs";
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

/** How many files each kind of command said it checked, read from its output. */
export const counted = {
  floor: (output) => Number(output.trim()),
  basemodel: (output) => JSON.parse(output).summary.files,
  // ajv-cli prints "<file> valid" or "<file> invalid" for each file.
  ajvCli: (output) => output.split("\n").filter((line) => / (in)?valid$/.test(line)).length,
  stacNodeValidator: (output) => Number(/Summary \((\d+)\)/.exec(output)?.[1]),
};

/**
 * Each command run once, before any is timed, and its output read for the number of files it
 * checked. The commands are timed with --ignore-failure (a validator finding broken items exits
 * 1), so a command that stops early would otherwise pass for a fast one: from 59d7eb5 (session
 * 17) to session 20, ajv-cli refused our schema in strict mode and was timed doing nothing.
 */
export function checkEachCounts(commands, files) {
  const dir = mkdtempSync(join(tmpdir(), "bench-output-"));
  try {
    for (const { command, count } of commands) {
      // Into files, not pipes: stac-node-validator exits before a pipe has taken all its output.
      const output = join(dir, "stdout");
      const errors = join(dir, "stderr");
      const [file, ...args] = command.split(" ");
      const [out, err] = [openSync(output, "w"), openSync(errors, "w")];
      spawnSync(file, args, { stdio: ["ignore", out, err] });
      closeSync(out);
      closeSync(err);
      const stderr = readFileSync(errors, "utf8");
      let seen;
      try {
        seen = count(`${readFileSync(output, "utf8")}\n${stderr}`);
      } catch {
        seen = undefined;
      }
      if (seen !== files) throw new Error(`bench: \`${command}\` checked ${seen ?? "no"} files of ${files}:\n${stderr.slice(0, 400)}`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return commands.map(({ command }) => command);
}

/**
 * ajv-cli 5 with ajv-formats checking every *.json of `dir` against `schema`, all errors as JSON.
 * --strict=false: the schema's editor annotations (markdownDescription, for VS Code's hovers) are
 * keywords Ajv does not know, and in strict mode ajv-cli refuses the schema before reading a file.
 */
export function ajvCli(schema, dir) {
  return `${join(root, "node_modules/.bin/ajv")} validate -s ${schema} -d ${dir}/*.json -c ajv-formats --all-errors --errors=json --strict=false`;
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
  const [floor, ours, peer] = hyperfine(
    checkEachCounts(
      [
        { command: `${node} ${join(root, "bench/floor.mjs")} ${dir}`, count: counted.floor },
        { command: `${node} ${join(root, "bin/basemodel.js")} validate ${dir} --format json`, count: counted.basemodel },
        { command: ajvCli(schema, dir), count: counted.ajvCli },
      ],
      corpus.count,
    ),
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
