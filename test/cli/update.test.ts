import { writeFileSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { beforeAll, describe, expect, it } from "vitest";
import { monacoStoreCopy } from "../support/monaco.js";
import { differingTables, findingsOf, snapshotStore, updateFixture } from "../server/fill/helpers.js";
import { basemodel, scratchDir } from "./helpers.js";

const FIRST = updateFixture("monaco-mapathon-1.osc");
const SECOND = updateFixture("monaco-mapathon-2.osc");
const CHANGESETS = updateFixture("monaco-mapathon-changesets.osm");
const dir = scratchDir();

/** A failure is one line naming what went wrong, never a stack trace. */
function expectOneLine(stderr: string, ...parts: string[]): void {
  expect(stderr.trimEnd().split("\n")).toHaveLength(1);
  expect(stderr).toMatch(/^basemodel: /);
  for (const part of parts) expect(stderr).toContain(part);
}

describe("basemodel update", () => {
  let db: string;
  beforeAll(async () => {
    db = await monacoStoreCopy();
  });

  it("applies a change file with its changesets and summarises it; again, it skips everything", async () => {
    const run = await basemodel(["update", FIRST, "--db", db, "--changesets", CHANGESETS]);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(new RegExp(`^Applied monaco-mapathon-1\\.osc to ${db.replaceAll(".", "\\.")} in [\\d.]+ s\\n`));
    expect(run.stdout).toContain("  created     20 nodes, 5 ways, 0 relations\n");
    expect(run.stdout).toContain("  modified    1 node, 0 ways, 0 relations\n");
    expect(run.stdout).toContain("  features    6 written, 0 removed\n");
    expect(run.stdout).toMatch(/ {2}quality {5}\d+ checked, \d+ with findings \(rules: the default\)\n/);
    expect(run.stdout).toContain("  changesets  3 loaded\n");
    expect(run.stdout).toContain("Replication timestamp: 2025-01-10T11:40:00Z\n");

    const again = await basemodel(["update", FIRST, "--db", db, "--changesets", CHANGESETS]);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain("  skipped     26 (the store had that version or a newer one)\n");
    expect(again.stdout).toContain("  features    0 written, 0 removed\n");
  });

  it("--no-quality applies the change without checking it; --quality-rules takes YAML quality rules", async () => {
    const unchecked = await monacoStoreCopy();
    const run = await basemodel(["update", FIRST, "--db", unchecked, "--no-quality"]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("  quality     not checked (--no-quality)\n");
    expect(findingsOf(unchecked, "ways_poly", 1_200_000_005)).toEqual([]);

    const rules = join(dir, "houes.yaml");
    writeFileSync(rules, "sources:\n  building:\n    values:\n      building: [houes, house, yes, residential]\n");
    const custom = await monacoStoreCopy();
    const checked = await basemodel(["update", FIRST, "--db", custom, "--quality-rules", rules]);
    expect(checked.code).toBe(0);
    expect(checked.stdout).toContain(`(rules: ${rules})`);
    // Under these rules "houes" is allowed and nothing checks squareness or overlap.
    expect(findingsOf(custom, "ways_poly", 1_200_000_005)).toEqual([]);
    expect(findingsOf(custom, "ways_poly", 1_200_000_002)).toEqual([]);
  });

  it("exit 1 and one line when the change cannot be applied; the store is unchanged", async () => {
    const fresh = await monacoStoreCopy();
    const before = snapshotStore(fresh);
    // The second file modifies the first file's objects, which this store does not have yet.
    const run = await basemodel(["update", SECOND, "--db", fresh]);
    expect(run.code).toBe(1);
    expectOneLine(run.stderr, `cannot apply ${SECOND}: the change modifies node 12000000013, which the store does not have; ${fresh} was not changed`);
    expect(differingTables(fresh, before)).toEqual([]);

    const malformed = join(dir, "malformed.osc");
    writeFileSync(malformed, "<osmChange><create><node id='1'");
    const bad = await basemodel(["update", malformed, "--db", fresh]);
    expect(bad.code).toBe(1);
    expectOneLine(bad.stderr, malformed, "was not changed");
    expect(differingTables(fresh, before)).toEqual([]);
  });

  it("exit 1 and one line naming the file, line and object for a date after tomorrow or an id that is no OSM id; the store unchanged", async () => {
    const fresh = await monacoStoreCopy();
    const before = snapshotStore(fresh);
    const node = (attributes: string) =>
      `<osmChange version="0.6">\n<create>\n<node ${attributes} version="1" lat="43.74" lon="7.44"><tag k="amenity" v="bench"/></node>\n</create>\n</osmChange>\n`;
    const way = (ref: string) =>
      `<osmChange version="0.6">\n<create>\n<way id="12000000901" version="1">\n<nd ref="12000000011"/>\n<nd ref="${ref}"/>\n</way>\n</create>\n</osmChange>\n`;
    const cases: Array<[string, string, string]> = [
      ["future.osc", node('id="12000000900" timestamp="9999-12-31T23:59:59Z"'), 'line 3: node 12000000900 with timestamp="9999-12-31T23:59:59Z" (a time no later than a day from now is required)'],
      ["negative.osc", node('id="-1"'), `line 3: <node> with id="-1" (negative ids are an editor's placeholders for objects not uploaded yet)`],
      ["zero.osc", node('id="0"'), 'line 3: <node> with id="0" (ids start at 1)'],
      ["fraction.osc", node('id="12000000900.5"'), 'line 3: <node> with id="12000000900.5" (an integer is required)'],
      ["huge.osc", node('id="9007199254740993"'), 'line 3: <node> with id="9007199254740993" (an id is an integer below 2^53)'],
      ["ref.osc", way("-7"), `line 5: <nd> with ref="-7" (negative ids are an editor's placeholders for objects not uploaded yet)`],
    ];
    for (const [name, text, problem] of cases) {
      const file = join(dir, name);
      writeFileSync(file, text);
      const run = await basemodel(["update", file, "--db", fresh]);
      expect(run.code, name).toBe(1);
      expectOneLine(run.stderr, `${file}: invalid OSM change at ${problem}; ${fresh} was not changed`);
    }
    expect(differingTables(fresh, before)).toEqual([]);
  });

  it("the same for a changeset file dated after tomorrow or with a negative id; a clock an hour ahead is allowed", async () => {
    const fresh = await monacoStoreCopy();
    const before = snapshotStore(fresh);
    const changeset = (attributes: string) => `<osm version="0.6">\n<changeset ${attributes} uid="1" user="a"><tag k="comment" v="#x"/></changeset>\n</osm>\n`;
    for (const [name, text, problem] of [
      ["future.osm", changeset('id="160000001" created_at="9999-01-01T00:00:00Z"'), 'line 2: changeset 160000001 with created_at="9999-01-01T00:00:00Z" (a time no later than a day from now is required)'],
      ["negative.osm", changeset('id="-4" created_at="2025-01-10T10:02:11Z"'), `line 2: <changeset> with id="-4" (negative ids are an editor's placeholders for objects not uploaded yet)`],
    ]) {
      const file = join(dir, `changesets-${name}`);
      writeFileSync(file, text!);
      const run = await basemodel(["update", FIRST, "--db", fresh, "--changesets", file]);
      expect(run.code, name).toBe(1);
      expectOneLine(run.stderr, `${file}: invalid OSM changeset file at ${problem}; ${fresh} was not changed`);
    }
    expect(differingTables(fresh, before)).toEqual([]);

    const soon = new Date(Date.now() + 3_600_000).toISOString().replace(/\.\d{3}Z$/, "Z");
    const ahead = join(dir, "ahead.osc");
    writeFileSync(ahead, `<osmChange version="0.6"><create><node id="12000000902" version="1" timestamp="${soon}" lat="43.74" lon="7.44"/></create></osmChange>`);
    const run = await basemodel(["update", ahead, "--db", fresh]);
    expect(run.stderr).toBe("");
    expect(run.stdout).toContain(`Replication timestamp: ${soon}\n`);
  });

  it.each([
    [["update", FIRST], "required option '--db <path>' not specified"],
    [["update", join(dir, "missing.osc"), "--db", join(dir, "x.db")], "the change file"],
    [["update", FIRST, "--db", join(dir, "missing.db")], "--db"],
    [["update", FIRST, "--db", dir], "is a folder"],
  ])("exit 2 for %j", async (args, message) => {
    const run = await basemodel(args);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(message);
  });

  it("exit 2 for a store that is not one, and for quality rules that are wrong, naming the member (--rules is an alias of --quality-rules)", async () => {
    const notAStore = join(dir, "not-a-store.db");
    writeFileSync(notAStore, "x".repeat(4096));
    const run = await basemodel(["update", FIRST, "--db", notAStore]);
    expect(run.code).toBe(2);
    expectOneLine(run.stderr, `${notAStore} is not a feature store`);

    const rules = join(dir, "bad-rules.json");
    writeFileSync(rules, JSON.stringify({ sources: { building: { squareness: { threshold: -5 } } } }));
    const badRules = await basemodel(["update", FIRST, "--db", db, "--rules", rules]);
    expect(badRules.code).toBe(2);
    expect(badRules.stderr).toContain("sources.building.squareness.threshold");
    for (const command of ["update", "check", "replicate"]) {
      const help = (await basemodel([command, "--help"])).stdout;
      expect(help, command).toMatch(/^ {2}--quality-rules <file> +data quality rules, JSON or YAML/m);
      expect(help, command).toMatch(/^ {2}--rules <file> +alias of --quality-rules$/m);
    }
  });
});

describe("basemodel check", () => {
  it("checks every feature of the store, and says how many have findings", { timeout: 600_000 }, async () => {
    const db = await monacoStoreCopy();
    const run = await basemodel(["check", "--db", db]);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    const [, checked, withFindings] = /^Checked ([\d,]+) features of .+ in [\d.]+ s: ([\d,]+) with findings \(rules: the default\)\n$/.exec(run.stdout) ?? [];
    expect(checked).toBe("9,521");
    expect(Number(withFindings!.replace(/,/g, ""))).toBeGreaterThan(0);
    expect(findingRows(db)).toBeGreaterThan(0);
  });

  it("exit 2 without a store", async () => {
    const run = await basemodel(["check", "--db", join(dir, "missing.db")]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("--db");
  });
});

function findingRows(db: string): number {
  const sqlite = new Database(db, { readonly: true });
  try {
    return sqlite.prepare("SELECT count(*) FROM quality").pluck().get() as number;
  } finally {
    sqlite.close();
  }
}
