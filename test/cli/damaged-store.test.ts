/**
 * `check`, `update` and `serve` given a --db that is no store or a damaged one: one line
 * naming the file, exit 2, never a stack trace, and the file left as it was.
 */
import { copyFileSync, mkdirSync, readFileSync, truncateSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { beforeAll, describe, expect, it } from "vitest";
import { monacoStorePath } from "../support/monaco.js";
import { updateFixture } from "../server/fill/helpers.js";
import { basemodel, scratchDir } from "./helpers.js";

const dir = scratchDir();
const NOT_A_STORE = "is not a feature store";
const DAMAGED = "is damaged (database disk image is malformed): restore it from a copy, or import the OSM file again";

/** Bytes that are no SQLite file, the same on every run. */
const junk = (length: number): Buffer => Buffer.from(Array.from({ length }, (_, i) => (i * 7919 + 13) % 251));

describe("a --db that is no store, or a damaged one", { timeout: 300_000 }, () => {
  const files: Array<{ name: string; path: string; says: string }> = [];

  beforeAll(async () => {
    const monaco = await monacoStorePath();
    const at = (name: string) => join(dir, name);

    writeFileSync(at("garbage.db"), junk(8192));
    files.push({ name: "garbage bytes", path: at("garbage.db"), says: NOT_A_STORE });

    const other = new Database(at("other.db"));
    other.exec("CREATE TABLE notes (body TEXT); INSERT INTO notes VALUES ('keep me')");
    other.close();
    files.push({ name: "an SQLite file that is not a store", path: at("other.db"), says: NOT_A_STORE });

    copyFileSync(monaco, at("truncated.db"));
    truncateSync(at("truncated.db"), Math.floor(readFileSync(monaco).length / 2));
    files.push({ name: "a store cut in half", path: at("truncated.db"), says: DAMAGED });

    // The first pages (the schema, the meta table's) intact: only reading the features finds the damage.
    copyFileSync(monaco, at("overwritten.db"));
    const bytes = readFileSync(at("overwritten.db"));
    junk(bytes.length / 2).copy(bytes, bytes.length / 4);
    writeFileSync(at("overwritten.db"), bytes);
    files.push({ name: "a store overwritten in the middle", path: at("overwritten.db"), says: DAMAGED });
  });

  /** One line naming the file, exit 2, and the file unchanged. */
  async function expectRefused(args: string[], path: string, says: string): Promise<void> {
    const before = readFileSync(path);
    const run = await basemodel(args);
    expect(run.stderr.trimEnd().split("\n"), run.stderr).toHaveLength(1);
    expect(run.stderr).toBe(`basemodel: ${path} ${says}\n`);
    expect(run.code).toBe(2);
    expect(readFileSync(path).equals(before)).toBe(true);
  }

  it("check", async () => {
    for (const { path, says } of files) await expectRefused(["check", "--db", path], path, says);
  });

  it("update", async () => {
    for (const { path, says } of files) await expectRefused(["update", updateFixture("monaco-mapathon-1.osc"), "--db", path], path, says);
  });

  it("serve, for every file that opening it shows to be no store or damaged", async () => {
    const exports = join(dir, "exports");
    mkdirSync(exports);
    for (const { path, says } of files.filter((file) => file.name !== "a store overwritten in the middle")) {
      await expectRefused(["serve", "--db", path, "--port", "0", "--exports", exports], path, says);
    }
  });
});
