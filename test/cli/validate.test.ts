import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { afterFile } from "../support/cleanup.js";
import { basemodel, canRunUnprivileged, itemWithWarningText, ROOT, scratchDir } from "./helpers.js";

const dir = scratchDir();
const valid = itemWithWarningText();
const broken = valid.replace('"mlm:framework": "PyTorch"', '"mlm:framework": "pytorch"');
const lineOf = (text: string, needle: string) => text.slice(0, text.indexOf(needle)).split("\n").length;

function write(name: string, content: string | Buffer): string {
  const path = join(dir, name);
  mkdirSync(join(path, ".."), { recursive: true });
  writeFileSync(path, content);
  return path;
}

describe("basemodel validate: inputs and exit codes", () => {
  it("exits 0 on the shipped valid examples and prints a summary", async () => {
    const run = await basemodel(["validate", "fixtures/valid"]);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/\d+ files?/);
  });

  it("exits 1 and points at file:line:col with the rule for an invalid item", async () => {
    write("one/bad.json", broken);
    const run = await basemodel(["validate", "one/bad.json"], { cwd: dir });
    expect(run.code).toBe(1);
    const line = lineOf(broken, '"pytorch"');
    expect(run.stdout).toContain(`one/bad.json:${line}:`);
    expect(run.stdout).toContain("enum");
    expect(run.stdout).toContain('did you mean "PyTorch"?');
  });

  it("walks folders recursively for *.json, skipping node_modules and .git", async () => {
    write("tree/a/ok.json", valid);
    write("tree/b/c/bad.json", broken);
    write("tree/notes.txt", "not json");
    write("tree/node_modules/pkg/bad.json", "{");
    write("tree/b/node_modules/bad.json", "{");
    write("tree/.git/bad.json", "{");
    write("tree/node_modules_notes/ok.json", valid);
    const run = await basemodel(["validate", "tree", "--format", "json"], { cwd: dir });
    const report = JSON.parse(run.stdout);
    expect(report.files.map((file: { file: string }) => file.file)).toEqual(["tree/a/ok.json", "tree/b/c/bad.json", "tree/node_modules_notes/ok.json"]);
    expect(run.code).toBe(1);
  });

  it("honours --ignore and the configured ignore patterns in a folder walk, relative to the folder", async () => {
    write("walk/items/keep/ok.json", valid);
    write("walk/items/drafts/bad.json", broken);
    write("walk/items/deep/drafts/bad.json", broken);
    write("walk/items/x2.json", broken);
    write("walk/items/keep/node_modules/bad.json", broken);
    write("walk/basemodel.config.json", JSON.stringify({ ignore: ["**/drafts/**"] }));
    const run = await basemodel(["validate", "items", "--ignore", "x2.json", "--format", "json"], { cwd: join(dir, "walk") });
    expect(JSON.parse(run.stdout).files.map((file: { file: string }) => file.file)).toEqual(["items/keep/ok.json"]);
    expect(run.code).toBe(0);
  });

  it("expands globs and honours --ignore", async () => {
    write("glob/x1.json", valid);
    write("glob/x2.json", broken);
    const run = await basemodel(["validate", "glob/*.json", "--ignore", "**/x2.json", "--format", "json"], { cwd: dir });
    expect(JSON.parse(run.stdout).files.map((file: { file: string }) => file.file)).toEqual(["glob/x1.json"]);
    expect(run.code).toBe(0);
  });

  it("reads standard input with -", async () => {
    const ok = await basemodel(["validate", "-"], { input: valid });
    expect(ok.code).toBe(0);
    const bad = await basemodel(["validate", "-", "--format", "json"], { input: broken });
    expect(bad.code).toBe(1);
    expect(JSON.parse(bad.stdout).files[0].file).toBe("<stdin>");
  });

  it("validates every feature of a FeatureCollection with /features/N paths", async () => {
    const item = JSON.parse(valid);
    const second = structuredClone(item);
    second.properties.license = "GPL";
    write("collection.json", JSON.stringify({ type: "FeatureCollection", features: [item, second] }, null, 2));
    const run = await basemodel(["validate", "collection.json", "--format", "json"], { cwd: dir });
    const items = JSON.parse(run.stdout).files[0].items;
    expect(items).toHaveLength(2);
    expect(items[0].valid).toBe(true);
    expect(items[1].errors.map((issue: { path: string }) => issue.path)).toEqual(["/features/1/properties/license"]);
    expect(run.code).toBe(1);
  });

  it("reads .ndjson line by line and gives the real line", async () => {
    const item = JSON.parse(valid);
    const bad = structuredClone(item);
    bad.properties["fair:split_spec"].seed = 1.5;
    write("items.ndjson", `${JSON.stringify(item)}\n\n${JSON.stringify(bad)}\n{broken\n`);
    const run = await basemodel(["validate", "items.ndjson", "--format", "json"], { cwd: dir });
    const items = JSON.parse(run.stdout).files[0].items;
    expect(items.map((entry: { line: number; valid: boolean }) => [entry.line, entry.valid])).toEqual([
      [1, true],
      [3, false],
      [4, false],
    ]);
    expect(items[1].errors[0]).toMatchObject({ rule: "type", line: 3 });
    expect(items[2].errors[0]).toMatchObject({ rule: "json-syntax", line: 4 });
  });

  it("exits 1 with --strict when there are only warnings", async () => {
    write("strict/item.json", valid);
    expect((await basemodel(["validate", "strict/item.json"], { cwd: dir })).code).toBe(0);
    const strict = await basemodel(["validate", "strict/item.json", "--strict"], { cwd: dir });
    expect(strict.code).toBe(1);
    expect(strict.stdout).toContain("unknown-prefixed-property");
  });

  it("caps issues with --max-errors and says how many were left out", async () => {
    const item = JSON.parse(valid);
    item.properties["mlm:tasks"] = Array.from({ length: 50 }, () => "segmentation");
    write("many.json", JSON.stringify(item));
    const run = await basemodel(["validate", "many.json", "--max-errors", "5", "--format", "json"], { cwd: dir });
    const [entry] = JSON.parse(run.stdout).files[0].items;
    expect(entry.errors).toHaveLength(5);
    expect(entry.omitted).toBe(46);
  });

  it("exits 2 on usage errors", async () => {
    expect((await basemodel(["validate"])).code).toBe(2);
    const format = await basemodel(["validate", "fixtures/valid", "--format", "xml"]);
    expect(format.code).toBe(2);
    expect(format.stderr).toContain("argument 'xml' is invalid. Allowed choices are text, json, github, sarif, junit.");
    expect((await basemodel(["validate", "fixtures/valid", "--max-errors", "0"])).code).toBe(2);
    expect((await basemodel(["validate", "fixtures/valid", "--prefix", "not a prefix"])).code).toBe(2);
    expect((await basemodel(["validate", "--no-such-flag", "x"])).code).toBe(2);
    expect((await basemodel(["frobnicate"])).code).toBe(2);
  });

  it("exits 2 when nothing matched or a path does not exist", async () => {
    const none = await basemodel(["validate", "nothing-here/*.json"], { cwd: dir });
    expect(none.code).toBe(2);
    expect(none.stderr).toContain("no file matches nothing-here/*.json");
    const missing = await basemodel(["validate", "missing.json"], { cwd: dir });
    expect(missing.code).toBe(2);
    expect(missing.stdout).toContain("missing.json");
    expect(missing.stdout).toContain("no such file or directory");
  });

  it("prints --help with the exit codes and --version", async () => {
    const help = await basemodel(["validate", "--help"]);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain("Exit codes:");
    const version = await basemodel(["--version"]);
    expect(version.stdout.trim()).toBe(JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")).version);
  });
});

describe("basemodel validate: bad input goes on with the rest", () => {
  const bad = join(dir, "bad");
  mkdirSync(bad, { recursive: true });

  it.runIf(canRunUnprivileged())("names each unreadable or broken file and validates the others", async () => {
    write("bad/good.json", valid);
    write("bad/empty.json", "");
    write("bad/binary.json", Buffer.from([0x7b, 0x00, 0x01, 0x02, 0xff, 0x00]));
    write("bad/latin1.json", Buffer.from('{"title": "caf\xe9"}', "latin1"));
    write("bad/locked.json", valid);
    execFileSync("chmod", ["000", join(bad, "locked.json")]);
    symlinkSync(join(bad, "does-not-exist.json"), join(bad, "dangling.json"));
    symlinkSync(join(bad, "loop-b.json"), join(bad, "loop-a.json"));
    symlinkSync(join(bad, "loop-a.json"), join(bad, "loop-b.json"));
    mkdirSync(join(bad, "closed"));
    write("bad/closed/inside.json", valid);
    execFileSync("chmod", ["000", join(bad, "closed")]);
    // Opened again before the scratch folder is removed (clean-ups run last registered first): a user other than root could not empty it.
    afterFile(() => execFileSync("chmod", ["755", join(bad, "closed")]));
    execFileSync("mkfifo", [join(bad, "pipe.json")]);

    const run = await basemodel(["validate", "bad", "--format", "json"], { cwd: dir, unprivileged: true });
    const files = Object.fromEntries(
      JSON.parse(run.stdout).files.map((file: { file: string; readError?: string; items: Array<{ errors: Array<{ rule: string; message: string }> }> }) => [
        file.file,
        file.readError ?? file.items[0]?.errors[0]?.rule ?? "valid",
      ]),
    );
    expect(files).toEqual({
      "bad/good.json": "valid",
      "bad/empty.json": "json-syntax",
      "bad/binary.json": "encoding",
      "bad/latin1.json": "encoding",
      "bad/locked.json": "permission denied",
      "bad/dangling.json": "broken symbolic link: its target does not exist",
      "bad/loop-a.json": "symbolic link loop",
      "bad/loop-b.json": "symbolic link loop",
      "bad/closed": "cannot list this folder: permission denied (--ignore 'closed/**' leaves it out)",
      "bad/pipe.json": expect.stringContaining("is a FIFO"),
    });
    expect(run.code).toBe(2);
  });

  it("validates a folder of many more files than it may hold open at once", async () => {
    // 40 descriptors is what Node itself needs plus the CLI's modules, which it opens at once
    // as it starts (one per bundle chunk, about 20): a CLI that opened the 3,000 files side by
    // side, or leaked one per file, would fail here with EMFILE.
    const files = 3_000;
    const many = join(dir, "many");
    mkdirSync(many);
    const small = JSON.stringify({ type: "Feature" });
    for (let i = 0; i < files; i++) writeFileSync(join(many, `item-${i}.json`), small);
    const run = await basemodel(["validate", "many", "--format", "json", "--max-errors", "1"], { cwd: dir, maxOpenFiles: 40 });
    expect(run.stderr).toBe("");
    const report = JSON.parse(run.stdout);
    expect(report.summary).toMatchObject({ files, items: files, invalid: files, unreadable: 0 });
    expect(run.code).toBe(1);
  }, 120_000);
});
