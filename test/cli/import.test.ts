import { execFileSync, spawn } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { FEATURE_TABLES } from "../../src/model/features.js";
import { ANDORRA, MONACO } from "../server/osm/helpers.js";
import { hasTool } from "../support/requirements.js";
import { basemodel, BIN, canRunUnprivileged, ROOT, scratchDir, withoutPackages } from "./helpers.js";

const FIXTURE = join(ROOT, "fixtures/osm/assembly.osm");
const dir = scratchDir();

function rowCounts(db: string): Record<string, number> {
  const sqlite = new Database(db, { readonly: true, fileMustExist: true });
  try {
    return Object.fromEntries(FEATURE_TABLES.map((table) => [table, sqlite.prepare(`SELECT count(*) FROM ${table}`).pluck().get() as number]));
  } finally {
    sqlite.close();
  }
}

/** A failure is one line naming what went wrong, never a stack trace. */
function expectOneLine(stderr: string, ...parts: string[]): void {
  expect(stderr.trimEnd().split("\n")).toHaveLength(1);
  expect(stderr).toMatch(/^basemodel: /);
  expect(stderr).not.toMatch(/\n\s+at /);
  for (const part of parts) expect(stderr).toContain(part);
}

const garbage = Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 7919 + 13) % 251));

describe("basemodel import", () => {
  it("imports the Monaco extract with the importer's counts, and summarises it on stdout", { timeout: 300_000 }, async () => {
    const db = join(dir, "monaco.db");
    const run = await basemodel(["import", MONACO, "--db", db]);
    expect(run.code).toBe(0);
    // Not a terminal: no progress bar, nothing at all on stderr.
    expect(run.stderr).toBe("");
    expect(rowCounts(db)).toEqual({ nodes: 3654, ways_line: 3477, ways_poly: 2162, relations: 228 });
    expect(run.stdout).toMatch(/^Imported .*monaco-2025-01-01\.osm\.pbf into .*monaco\.db in \d+\.\d s$/m);
    expect(run.stdout).toMatch(/^ {2}nodes +3,654$/m);
    expect(run.stdout).toMatch(/^ {2}ways_line +3,477$/m);
    expect(run.stdout).toMatch(/^ {2}ways_poly +2,162$/m);
    expect(run.stdout).toMatch(/^ {2}relations +228$/m);
    expect(run.stdout).toMatch(/^ {2}total +9,521$/m);
    expect(run.stdout).toContain("Replication timestamp: 2025-01-01T21:21:00Z");
    // The extract is clipped: relations lose members at its edges.
    expect(run.stdout).toMatch(/^ +86 {2}relations missing member ways/m);
    expect(run.stdout).toMatch(/^ +32 {2}area relations whose rings do not close/m);
    expect(readdirSync(dir).filter((name) => name.endsWith(".importing"))).toEqual([]);
  });

  it("reads .osm and .osm.gz", async () => {
    writeFileSync(join(dir, "assembly.osm.gz"), gzipSync(readFileSync(FIXTURE)));
    for (const input of [FIXTURE, join(dir, "assembly.osm.gz")]) {
      const db = join(dir, `${input.endsWith(".gz") ? "gz" : "xml"}.db`);
      const run = await basemodel(["import", input, "--db", db]);
      expect(run.code).toBe(0);
      expect(rowCounts(db)).toEqual({ nodes: 2, ways_line: 2, ways_poly: 1, relations: 3 });
      expect(run.stdout).toContain("Replication timestamp: 2024-06-30T12:34:56Z");
    }
  });

  it("draws a progress bar on a terminal", async () => {
    const db = join(dir, "tty.db");
    // script(1) gives the CLI a pseudo-terminal, as an interactive shell would.
    const output = execFileSync("script", ["-qec", `"${process.execPath}" "${BIN}" import "${FIXTURE}" --db "${db}"`, "/dev/null"], { encoding: "utf8" });
    expect(output).toMatch(/\r\x1b\[Kimporting assembly\.osm \[[#-]{30}\] \d+% {2}pass [12]\/2/);
    // The bar is erased before the summary.
    expect(output).toMatch(/\r\x1b\[KImported /);
  });
});

describe("basemodel import: the store beside other processes", () => {
  it("is in WAL mode, so that updates commit while the server reads, and has nothing beside it once written", async () => {
    const folder = join(dir, "wal");
    mkdirSync(folder);
    const db = join(folder, "assembly.db");
    const run = await basemodel(["import", FIXTURE, "--db", db]);
    expect(run.code).toBe(0);
    // Closed before it was renamed: no -wal or -shm file, under either name.
    expect(readdirSync(folder)).toEqual(["assembly.db"]);
    const sqlite = new Database(db);
    expect(sqlite.pragma("journal_mode", { simple: true })).toBe("wal");
    sqlite.close();
    expect(readdirSync(folder)).toEqual(["assembly.db"]);
  });
});

describe("basemodel import: bad input", () => {
  it("a missing input file is a usage error", async () => {
    const db = join(dir, "never.db");
    const run = await basemodel(["import", join(dir, "nope.osm.pbf"), "--db", db]);
    expect(run.code).toBe(2);
    expectOneLine(run.stderr, "nope.osm.pbf", "does not exist");
    expect(existsSync(db)).toBe(false);
  });

  it("a folder as input is a usage error", async () => {
    const run = await basemodel(["import", dir, "--db", join(dir, "never.db")]);
    expect(run.code).toBe(2);
    expectOneLine(run.stderr, "is a folder");
  });

  it("garbage bytes fail the import: exit 1, one line naming the file, nothing left behind", async () => {
    writeFileSync(join(dir, "garbage.osm.pbf"), garbage);
    const before = readdirSync(dir).sort();
    const run = await basemodel(["import", join(dir, "garbage.osm.pbf"), "--db", join(dir, "garbage.db")]);
    expect(run.code).toBe(1);
    expectOneLine(run.stderr, "garbage.osm.pbf", "not an OSM PBF file");
    expect(readdirSync(dir).sort()).toEqual(before);
  });

  it("a truncated .pbf fails the import", async () => {
    writeFileSync(join(dir, "cut.osm.pbf"), readFileSync(MONACO).subarray(0, 300_000));
    const run = await basemodel(["import", join(dir, "cut.osm.pbf"), "--db", join(dir, "cut.db")]);
    expect(run.code).toBe(1);
    expectOneLine(run.stderr, "cut.osm.pbf", "truncated PBF file");
    expect(existsSync(join(dir, "cut.db"))).toBe(false);
  });

  it("a file of unknown type fails the import, naming the types it reads", async () => {
    writeFileSync(join(dir, "data.csv"), "id,lat,lon\n");
    const run = await basemodel(["import", join(dir, "data.csv"), "--db", join(dir, "csv.db")]);
    expect(run.code).toBe(1);
    expectOneLine(run.stderr, "data.csv", "unknown file type", ".osm.pbf");
  });

  it("--db in a missing folder is a usage error", async () => {
    const run = await basemodel(["import", FIXTURE, "--db", join(dir, "no/such/folder/x.db")]);
    expect(run.code).toBe(2);
    expectOneLine(run.stderr, "does not exist", join(dir, "no/such/folder"));
  });

  it.runIf(canRunUnprivileged())("a --db that cannot be written fails the import in one line", async () => {
    const readOnly = join(dir, "read-only");
    mkdirSync(readOnly, { mode: 0o555 });
    const run = await basemodel(["import", FIXTURE, "--db", join(readOnly, "x.db")], { unprivileged: true });
    expect(run.code).toBe(1);
    expectOneLine(run.stderr, `cannot write ${join(readOnly, "x.db")}`);
    expect(readdirSync(readOnly)).toEqual([]);
  });

  it("no --db, and no input, are usage errors", async () => {
    const noDb = await basemodel(["import", FIXTURE]);
    expect(noDb.code).toBe(2);
    expect(noDb.stderr).toContain("--db");
    const noInput = await basemodel(["import", "--db", join(dir, "x.db")]);
    expect(noInput.code).toBe(2);
    expect(noInput.stderr).toContain("missing required argument 'file'");
  });

  it("an existing --db is kept without --force; with --force it is replaced only by a successful import", async () => {
    const db = join(dir, "existing.db");
    writeFileSync(db, "precious");
    const refused = await basemodel(["import", FIXTURE, "--db", db]);
    expect(refused.code).toBe(2);
    expectOneLine(refused.stderr, db, "exists", "--force");
    expect(readFileSync(db, "utf8")).toBe("precious");

    writeFileSync(join(dir, "bad.osm.pbf"), garbage);
    const failed = await basemodel(["import", join(dir, "bad.osm.pbf"), "--db", db, "--force"]);
    expect(failed.code).toBe(1);
    expect(readFileSync(db, "utf8")).toBe("precious");

    const replaced = await basemodel(["import", FIXTURE, "--db", db, "--force"]);
    expect(replaced.code).toBe(0);
    expect(rowCounts(db)).toEqual({ nodes: 2, ways_line: 2, ways_poly: 1, relations: 3 });
  });

  it("an object or the file dated after tomorrow, or an id that is no OSM id, fails the import in one line naming the line and the object", async () => {
    const osm = (header: string, node: string) =>
      `<?xml version="1.0" encoding="UTF-8"?>\n<osm version="0.6"${header}>\n<node id="1" lat="0" lon="0" timestamp="2024-01-01T00:00:00Z"><tag k="amenity" v="bench"/></node>\n${node}\n</osm>\n`;
    const cases: Array<[string, string, string]> = [
      ["future.osm", osm("", '<node id="2" lat="0" lon="1" timestamp="9999-12-31T23:59:59Z"><tag k="shop" v="bakery"/></node>'), 'line 4: node 2 with timestamp="9999-12-31T23:59:59Z" (a time no later than a day from now is required)'],
      ["future-header.osm", osm(' timestamp="9999-12-31T23:59:59Z"', ""), 'line 2: <osm> with timestamp="9999-12-31T23:59:59Z" (a time no later than a day from now is required)'],
      ["negative.osm", osm("", '<node id="-2" lat="0" lon="1"><tag k="shop" v="bakery"/></node>'), `line 4: <node> with id="-2" (negative ids are an editor's placeholders for objects not uploaded yet)`],
      ["zero.osm", osm("", '<way id="0"><nd ref="1"/><nd ref="1"/></way>'), 'line 4: <way> with id="0" (ids start at 1)'],
    ];
    for (const [name, text, problem] of cases) {
      const input = join(dir, name);
      writeFileSync(input, text);
      const db = join(dir, `${name}.db`);
      const run = await basemodel(["import", input, "--db", db]);
      expect(run.code, name).toBe(1);
      expectOneLine(run.stderr, `Cannot import ${input}: invalid OSM XML at ${problem}`);
      expect(existsSync(db)).toBe(false);
    }
  });

  it.skipIf(!hasTool(["osmium"], "osmium-tool"))("the same in a .pbf, naming the object and its block", async () => {
    for (const [name, node, problem] of [
      ["negative", '<node id="-2" lat="0" lon="1"/>', "node -2: negative ids are an editor's placeholders for objects not uploaded yet"],
      ["future", '<node id="2" lat="0" lon="1" version="1" timestamp="2100-01-01T00:00:00Z"/>', "node 2 is dated later than a day from now"],
    ]) {
      const xml = join(dir, `${name}-pbf.osm`);
      writeFileSync(xml, `<osm version="0.6"><node id="1" lat="0" lon="0"><tag k="amenity" v="bench"/></node>${node}</osm>`);
      const input = join(dir, `${name}.osm.pbf`);
      execFileSync("osmium", ["cat", "--overwrite", xml, "-o", input]);
      const run = await basemodel(["import", input, "--db", join(dir, `${name}-pbf.db`)]);
      expect(run.code, name).toBe(1);
      expectOneLine(run.stderr, `Cannot import ${input}: invalid data in the block at byte `, problem!);
    }
  });

  it("--db naming a folder or the input file is a usage error, even with --force", async () => {
    const folder = await basemodel(["import", FIXTURE, "--db", dir, "--force"]);
    expect(folder.code).toBe(2);
    expectOneLine(folder.stderr, "is a folder");
    const itself = await basemodel(["import", FIXTURE, "--db", FIXTURE, "--force"]);
    expect(itself.code).toBe(2);
    expectOneLine(itself.stderr, "is the input file");
  });
});

describe("basemodel import interrupted", () => {
  it("Ctrl-C stops the import: exit 130, the old store untouched, no temporary file left", { timeout: 300_000 }, async () => {
    const folder = join(dir, "interrupt");
    mkdirSync(folder);
    const db = join(folder, "andorra.db");
    writeFileSync(db, "the previous store");
    const child = spawn(process.execPath, [BIN, "import", ANDORRA, "--db", db, "--force"], { stdio: ["ignore", "pipe", "pipe"] });
    let stderr = "";
    child.stderr.on("data", (chunk) => (stderr += chunk));
    const exited = new Promise<number | null>((resolve) => child.on("exit", resolve));
    // Interrupt once the temporary store exists: the case where there is something to clean up.
    while (child.exitCode === null && !readdirSync(folder).some((name) => name.endsWith(".importing"))) await new Promise((resolve) => setTimeout(resolve, 20));
    child.kill("SIGINT");
    expect(await exited).toBe(130);
    expect(stderr).toContain("interrupted");
    expect(readFileSync(db, "utf8")).toBe("the previous store");
    expect(readdirSync(folder)).toEqual(["andorra.db"]);
  });
});

describe("basemodel import without its optional dependencies", () => {
  it.each([
    ["pbf", "5"],
    ["saxes", "6"],
    ["better-sqlite3", "12"],
  ])("without %s it says what to install", async (name, major) => {
    const db = join(dir, `without-${name}.db`);
    const run = await basemodel(["import", FIXTURE, "--db", db], withoutPackages([name]));
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(`basemodel: import needs the optional dependency ${name}: run \`npm install ${name}@${major}\`\n`);
    expect(existsSync(db)).toBe(false);
  });

  it("validate works without any of them: it never loads the importer", async () => {
    const run = await basemodel(["validate", "fixtures/valid"], withoutPackages(["pbf", "saxes", "better-sqlite3"]));
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
  });
});
