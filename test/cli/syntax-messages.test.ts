/**
 * JSON syntax errors in words and NDJSON piped to standard input without --stdin-filename, as the
 * real CLI prints them (text and JSON).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { basemodel, jsonIssues, ROOT, scratchDir, writeIn } from "./helpers.js";

const dir = scratchDir();
const write = (name: string, content: string) => writeIn(dir, name, content);

describe("JSON syntax errors in words", () => {
  it.each([
    ["a trailing comma", '{\n  "type": "Feature",\n}\n', "2:20", "trailing comma before `}`; JSON allows no comma after the last member of an object", undefined],
    ["a missing comma", '{\n  "type": "Feature"\n  "id": "x"\n}\n', "2:20", 'missing comma after the value of "type", before "id"', undefined],
    ["a comment", '{\n  // the model\n  "type": "Feature"\n}\n', "2:3", "a comment; JSON has no comments", "remove it"],
    ["an unclosed object", '{\n  "type": "Feature",\n  "id": "x"\n', "3:12", "unexpected end of input: the object opened at 1:1 is not closed (a `}` is missing)", undefined],
  ])("%s: text and json", async (label, text, at, message, suggestion) => {
    const file = write(`syntax/${label.replace(/ /g, "-")}.json`, text);
    const run = await basemodel(["validate", file, "--no-color"], { cwd: dir });
    expect(run.code).toBe(1);
    expect(run.stdout).toContain(`  ${file}:${at}  error  json-syntax  JSON syntax error: ${message}${suggestion ? ` (${suggestion})` : ""}\n`);
    const json = await basemodel(["validate", file, "--format", "json"], { cwd: dir });
    const [line, column] = at.split(":").map(Number);
    expect(jsonIssues(json.stdout)).toEqual([
      { rule: "json-syntax", severity: "error", path: "", message: `JSON syntax error: ${message}`, ...(suggestion && { suggestion }), line, column, endLine: line, endColumn: column! + 1 },
    ]);
  });
});

describe("NDJSON piped to - without --stdin-filename", () => {
  const lines = readFileSync(join(ROOT, "fixtures/valid/minimal.json"), "utf8");
  const ndjson = `${JSON.stringify(JSON.parse(lines))}\n${JSON.stringify(JSON.parse(lines))}\n`;

  it("gets a hint to pass --stdin-filename, in text and json", async () => {
    const run = await basemodel(["validate", "-", "--no-color"], { input: ndjson });
    expect(run.code).toBe(1);
    expect(run.stdout).toContain(
      "  <stdin>:2:1  error  json-syntax  JSON syntax error: several JSON documents, one per line; a second one starts here (pass --stdin-filename items.ndjson to read it as NDJSON)\n",
    );
    const json = await basemodel(["validate", "-", "--format", "json"], { input: ndjson });
    expect(jsonIssues(json.stdout)[0]).toMatchObject({ line: 2, column: 1, suggestion: "pass --stdin-filename items.ndjson to read it as NDJSON" });
  });

  it("which reads it as NDJSON", async () => {
    const run = await basemodel(["validate", "-", "--stdin-filename", "items.ndjson"], { input: ndjson });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("1 file, 2 items: 2 valid, 0 invalid");
  });

  it("a .json file holding NDJSON is told to take the .ndjson name", async () => {
    const file = write("lines.json", ndjson);
    const run = await basemodel(["validate", file, "--format", "json"], { cwd: dir });
    expect(jsonIssues(run.stdout)[0]!.suggestion).toBe("name the file .ndjson or .jsonl to read it as NDJSON");
  });
});
