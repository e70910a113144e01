/**
 * basemodel validate --jobs: the files spread over worker threads give the report one thread
 * gives, byte for byte in every format (timings aside), with the same standard error and exit
 * code; every option that changes the verdict reaches the workers; --check-links and standard
 * input beside threads. A preload (test/support/worker-chunks.mjs) records the chunks the workers
 * validated, so that no comparison passes with the workers idle.
 */
import { readFileSync, readdirSync, rmSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { THREADS_FROM, threadCount } from "../../src/cli/validate-files.js";
import { localServer } from "../support/local-http.js";
import { basemodel, ROOT, scratchDir, writeIn, type Run, type RunOptions } from "./helpers.js";

const dir = scratchDir();
const PRELOAD = join(ROOT, "test/support/worker-chunks.mjs");
const FORMATS = ["text", "json", "github", "sarif", "junit"] as const;

const fixtureTexts = ["valid", "warning", "invalid", "stac-invalid"].flatMap((folder) =>
  readdirSync(join(ROOT, "fixtures", folder))
    .filter((name) => name.endsWith(".json") && name !== "expected.json")
    .map((name) => readFileSync(join(ROOT, "fixtures", folder, name), "utf8")),
);

/**
 * A few hundred files in nested folders, of every kind the reports tell apart: the fixtures'
 * items (valid, with warnings, invalid, STAC faults) under new ids, collections of three of them,
 * NDJSON text in a .json file, text that is not JSON, and NDJSON files for a glob.
 */
function generatedSet(): void {
  for (let i = 0; i < 320; i++) {
    const text = fixtureTexts[i % fixtureTexts.length]!;
    const name = `generated/${String(i % 7)}/${String(i).padStart(3, "0")}.json`;
    let item: Record<string, unknown> | undefined;
    try {
      item = JSON.parse(text);
    } catch {
      item = undefined;
    }
    if (item === undefined || i % 40 === 39) writeIn(dir, name, i % 40 === 39 ? `${text.slice(0, text.length / 2)}` : text);
    else if (i % 25 === 0) writeIn(dir, name, JSON.stringify({ type: "FeatureCollection", features: [item, JSON.parse(fixtureTexts[(i + 1) % fixtureTexts.length]!), item] }, null, 2));
    else if (i % 33 === 0) writeIn(dir, name, `${JSON.stringify(item)}\n${JSON.stringify(item)}\n`);
    else writeIn(dir, name, JSON.stringify({ ...item, id: `generated-${i}` }, null, i % 2 === 0 ? 2 : 1));
  }
  for (let i = 0; i < 12; i++) writeIn(dir, `generated/lines/${i}.ndjson`, fixtureTexts.slice(i, i + 3).map((text) => JSON.stringify(JSON.parse(text))).join("\n"));
}
generatedSet();
const INPUTS = [join(ROOT, "fixtures"), "generated", "generated/lines/*.ndjson"];

/** The report with its timings (which no two runs share) blanked. */
function untimed(stdout: string): string {
  return stdout
    .replace(/"durationMs": \d+/, '"durationMs": 0')
    .replace(/ \(\d+ ms\)$/m, " (0 ms)")
    .replace(/(<testsuites [^>]*time=")[\d.]+"/, '$10"');
}

let runs = 0;
/** A run with the worker preload; its chunks are the lines "<thread> <first file>" the workers validated. */
async function validate(args: string[], options: RunOptions = {}): Promise<Run & { chunks: string[] }> {
  const log = join(dir, `chunks-${runs++}.log`);
  const run = await basemodel(["validate", ...args], { cwd: dir, ...options, env: { ...options.env, NODE_OPTIONS: `--import ${PRELOAD}`, BASEMODEL_TEST_CHUNKS: log } });
  let chunks: string[] = [];
  try {
    chunks = readFileSync(log, "utf8").trim().split("\n");
    rmSync(log);
  } catch {
    // No worker validated a chunk: no log.
  }
  return { ...run, chunks };
}

const threadsOf = (chunks: readonly string[]) => new Set(chunks.map((line) => line.split(" ")[0])).size;

/** Runs the arguments with --jobs 1 and with each of `jobs`, expects the same run from each, and returns the one-thread run. */
async function sameOnThreads(args: string[], jobs: number[], options: RunOptions = {}): Promise<Run> {
  const single = await validate([...args, "--jobs", "1"], options);
  expect(single.chunks).toEqual([]);
  for (const count of jobs) {
    const spread = await validate([...args, "--jobs", String(count)], options);
    expect(threadsOf(spread.chunks), `--jobs ${count}: worker threads that validated a chunk`).toBe(count - 1);
    expect({ code: spread.code, stderr: spread.stderr, stdout: untimed(spread.stdout) }, `--jobs ${count}`).toEqual({ code: single.code, stderr: single.stderr, stdout: untimed(single.stdout) });
  }
  return single;
}

describe("basemodel validate --jobs: the same report from every thread count", () => {
  for (const format of FORMATS) {
    it(`${format}: fixtures/ and ${320 + 12} generated files give the same output, standard error and exit code on 1, 2 and 4 threads`, async () => {
      const run = await sameOnThreads([...INPUTS, "--format", format], [2, 4]);
      expect(run.code).toBe(1);
      expect(run.stdout.length).toBeGreaterThan(100_000);
    });
  }

  it("runs on one thread per core but one by default when the files are many, with the same report", async () => {
    const single = await validate([...INPUTS, "--format", "json", "--jobs", "1"]);
    const byDefault = await validate([...INPUTS, "--format", "json"]);
    expect(threadsOf(byDefault.chunks)).toBe(threadCount(1000, undefined) - 1);
    expect(untimed(byDefault.stdout)).toBe(untimed(single.stdout));
  });

  it("keeps a few files on one thread by default", async () => {
    const run = await validate(["generated/1", "--format", "json"]);
    expect(JSON.parse(run.stdout).files.length).toBeLessThan(THREADS_FROM);
    expect(run.chunks).toEqual([]);
  });

  it("exits 2 alike when a file cannot be read, reported in its place", async () => {
    symlinkSync(join(dir, "no-such-target.json"), join(dir, "generated/3/broken-link.json"));
    try {
      const run = await sameOnThreads(["generated", "--format", "json"], [2]);
      expect(run.code).toBe(2);
      expect(JSON.parse(run.stdout).files.find((file: { file: string }) => file.file === "generated/3/broken-link.json").readError).toMatch(/broken symbolic link/);
    } finally {
      rmSync(join(dir, "generated/3/broken-link.json"));
    }
  });

  it("gives the workers every option that changes the verdict: --stac, --schema-map, --rules, --fair-checks, --strict, --max-errors", async () => {
    const mlm = "https://stac-extensions.github.io/mlm/v1.5.1/schema.json";
    const mapped = writeIn(dir, "schemas/mlm.json", JSON.stringify({ $schema: "http://json-schema.org/draft-07/schema#", $id: mlm, type: "object", required: ["never-there"] }));
    const options = ["--stac", "--schema-map", `${mlm}=${mapped}`, "--rules", "auto", "--fair-checks", "--strict", "--max-errors", "3"];
    const plain = await validate(["generated", "--format", "json", "--jobs", "1"]);
    const run = await sameOnThreads(["generated", "--format", "json", ...options], [2]);
    expect(untimed(run.stdout)).not.toBe(untimed(plain.stdout));
    const issues = (JSON.parse(run.stdout) as { files: Array<{ items: Array<{ errors: Array<{ rule: string; schema?: string }> }> }> }).files.flatMap((file) => file.items.flatMap((item) => item.errors));
    expect(issues.some((issue) => issue.schema === mlm && issue.rule === "stac-extension")).toBe(true);
  });

  it("gives the workers --prefix and --schema-url", async () => {
    const run = await sameOnThreads(["generated", "--format", "json", "--prefix", "hot:", "--schema-url", "https://example.com/schema.json"], [2]);
    expect(JSON.parse(run.stdout).settings).toMatchObject({ prefix: "hot:", schemaUrl: "https://example.com/schema.json" });
  });

  it("checks links once, after the files validated on threads, and puts each unreachable href in its place", async () => {
    const server = await localServer({ "/ok": (_request, response) => response.writeHead(200).end() });
    const links = join(dir, "links");
    for (let i = 0; i < 150; i++) {
      const item = JSON.parse(fixtureTexts[0]!);
      for (const [key, asset] of Object.entries(item.assets as Record<string, { href: string }>)) asset.href = `${server.url}/${i % 3 === 0 && key === "model" ? "gone" : "ok"}`;
      writeIn(links, `${i}.json`, JSON.stringify(item, null, 2));
    }
    const run = await sameOnThreads(["links", "--check-links", "--format", "json"], [2]);
    expect(run.code).toBe(1);
    expect(run.stdout.match(/link-unreachable/g)).toHaveLength(50);
    expect(server.count("HEAD", "/gone")).toBe(2);
  });

  it("validates standard input in this thread, first, beside files on threads", async () => {
    const input = fixtureTexts[3]!;
    const run = await sameOnThreads(["-", "generated", "--stdin-filename", "piped.json"], [2], { input });
    expect(run.stdout.indexOf("piped.json")).toBeLessThan(run.stdout.indexOf("generated/"));
  });

  it("refuses a --jobs that is not an integer of at least 1", async () => {
    for (const jobs of ["0", "1.5", "many"]) {
      const run = await basemodel(["validate", "generated", "--jobs", jobs], { cwd: dir });
      expect(run.code).toBe(2);
      expect(run.stderr).toContain("option '-j, --jobs <n>' argument");
      expect(run.stderr).toContain("expected an integer of at least 1");
    }
  });
});

describe("threadCount", () => {
  it("is one thread per core but one from THREADS_FROM files on, one below", () => {
    expect(threadCount(THREADS_FROM - 1, undefined, 8)).toBe(1);
    expect(threadCount(THREADS_FROM, undefined, 8)).toBe(7);
    expect(threadCount(THREADS_FROM, undefined, 2)).toBe(1);
    expect(threadCount(THREADS_FROM, undefined, 1)).toBe(1);
    expect(threadCount(1, undefined, 8)).toBe(1);
  });

  it("takes --jobs as given, but never more threads than files", () => {
    expect(threadCount(3, 4, 2)).toBe(3);
    expect(threadCount(1000, 4, 2)).toBe(4);
    expect(threadCount(1000, 1, 8)).toBe(1);
    expect(threadCount(0, 4, 8)).toBe(1);
  });
});
