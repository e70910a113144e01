/**
 * JSON syntax errors in words, at the place to look, and NDJSON given as one JSON text, from the
 * library (the CLI's output: test/cli/syntax-messages.test.ts).
 */
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { findSyntaxProblem } from "../../../src/validator/item/syntax.js";
import { validateDocumentText, validateItemText } from "../../../src/index.js";

const minimal = readFileSync(join(resolve(__dirname, "../../.."), "fixtures/valid/minimal.json"), "utf8");

describe("JSON syntax errors in words, at the place to look", () => {
  it.each([
    ["a trailing comma, at the comma", '{"a": 1,}', "1:8", "trailing comma before `}`; JSON allows no comma after the last member of an object"],
    ["a trailing comma in an array", '{"a": [1, 2,\n]}', "1:12", "trailing comma before `]`; JSON allows no comma after the last item of an array"],
    ["a missing comma, where it belongs", '{\n  "a": 1\n  "b": 2\n}', "2:9", 'missing comma after the value of "a", before "b"'],
    ["a missing comma in an array", "[1 2]", "1:3", "missing comma between two items of an array"],
    ["a missing colon", '{"a" 1}', "1:5", 'missing colon after the member name "a"'],
    ["= for a colon", '{"a" = 1}', "1:6", 'write a colon between the member name "a" and its value, not `=`'],
    ["a member name in single quotes", "{'a': 1}", "1:2", "a member name in single quotes; JSON member names take double quotes"],
    ["a string in single quotes", "{\"a\": 'x'}", "1:7", "a string in single quotes; JSON strings take double quotes"],
    ["an unquoted member name", "{\n  title: 1}", "2:3", "the member name title is not quoted; JSON member names take double quotes", 'write "title"'],
    ["unquoted text", '{"license": MIT}', "1:13", "unquoted text MIT; JSON strings take double quotes", 'write "MIT"'],
    ["a line comment", '{\n  // the model\n  "a": 1}', "2:3", "a comment; JSON has no comments", "remove it"],
    ["a block comment", '{"a": 1 /* one */}', "1:9", "a comment; JSON has no comments", "remove it"],
    ["a string left open at the end", '{"a": "abc', "1:11", 'unexpected end of input inside the string that starts at 1:7 (a `"` is missing)'],
    ["a string left open at the end of its line", '{"a": "abc,\n "b": 1}', "1:12", "the string that starts at 1:7 is not closed on its line", 'end it with `"`; a line break inside a string is written \\n'],
    ["an object left open", '{"a": {"b": 1}\n', "1:15", "unexpected end of input: the object opened at 1:1 is not closed (a `}` is missing)"],
    ["an array left open", '{"a": [1, 2', "1:12", "unexpected end of input: the array opened at 1:7 is not closed (a `]` is missing)"],
    ["the text ending after a colon", '{"version":', "1:12", 'unexpected end of input: the value of "version" is missing'],
    ["NaN", '{"a": NaN}', "1:7", "NaN is not a JSON number; JSON has no NaN or infinity", "write null, or a number"],
    ["-Infinity", '{"a": -Infinity}', "1:7", "-Infinity is not a JSON number; JSON has no NaN or infinity", "write null, or a number"],
    ["Python's True", '{"a": True}', "1:7", "True is not a JSON value", "did you mean true?"],
    ["Python's None", '{"a": None}', "1:7", "None is not a JSON value", "did you mean null?"],
    ["a leading zero", '{"seed": 042}', "1:10", "042 is not a JSON number: JSON numbers have no leading zeros"],
    ["a number without its leading digit", '{"a": .5}', "1:7", ".5 is not a JSON number: a digit must come before the decimal point"],
    ["a backslash that starts no escape", '{"path": "C:\\Users"}', "1:13", "\\U is not a JSON escape", "write a backslash itself as \\\\"],
    ["a tab inside a string", '{"a": "x\ty"}', "1:9", "a tab inside a string must be written \\t"],
    ["a no-break space", '{"a":\u00a01}', "1:6", "a no-break space (U+00A0) is not JSON white space", "use a plain space"],
    ["a bracket closed by the other kind", '{"a": [1, 2}', "1:12", "the array opened at 1:7 is not closed: a `]` is missing before this `}`"],
    ["a missing value", '{"a": }', "1:7", 'the value of "a" is missing before this `}`'],
    ["two commas", "[1,,2]", "1:4", "an item of the array is missing before this comma"],
    ["a closing bracket too many", "{}}", "1:3", "`}` closes nothing: no object or array is open here"],
    ["text after the value", "{} x", "1:4", "text after the end of the JSON value, which ended at 1:3"],
  ])("%s", (_label, text, at, message, suggestion?: string) => {
    const result = validateItemText(text);
    expect(result.errors).toHaveLength(1);
    const [line, column] = at.split(":").map(Number);
    expect(result.errors[0]).toEqual({
      rule: "json-syntax",
      severity: "error",
      path: "",
      message: `JSON syntax error: ${message}`,
      ...(suggestion !== undefined && { suggestion }),
      line,
      column,
      endLine: line,
      endColumn: column! + 1,
    });
  });

  it("counts lines as editors do: LF, CR LF and CR", () => {
    for (const lineBreak of ["\n", "\r\n", "\r"]) {
      expect(validateItemText(`{${lineBreak}"a": 1,${lineBreak}}`).errors[0]).toMatchObject({ line: 2, column: 7 });
    }
  });

  it("finds a problem in exactly the texts JSON.parse rejects (1,500 random edits of items, seed 20251123)", () => {
    const bases = [minimal, '{"a": [1, 2.5e3, "x\\u00e9\\n", true, null, {"b": -0}], "c": {}}', "[]"];
    const pieces = ["{", "}", "[", "]", ",", ":", '"', "'", "\\", "/", "*", "a", "1", "-", ".", "e", "+", "0", " ", "\n", "\t", "\u00a0", "\u0001", "n", "u", "x"];
    const edit = fc.record({ at: fc.nat(), remove: fc.integer({ min: 0, max: 2 }), insert: fc.constantFrom("", ...pieces) });
    fc.assert(
      fc.property(fc.constantFrom(...bases), fc.array(edit, { minLength: 1, maxLength: 3 }), (base, edits) => {
        let text = base;
        for (const { at, remove, insert } of edits) {
          const where = at % (text.length + 1);
          text = text.slice(0, where) + insert + text.slice(where + remove);
        }
        let parses = true;
        try {
          JSON.parse(text);
        } catch {
          parses = false;
        }
        expect(findSyntaxProblem(text) === undefined).toBe(parses);
      }),
      { seed: 20251123, numRuns: 1500 },
    );
  });
});

describe("NDJSON given as one JSON text", () => {
  const ndjson = `${JSON.stringify(JSON.parse(minimal))}\n${JSON.stringify(JSON.parse(minimal))}\n`;

  it("gets a hint to read it as NDJSON, at the start of the second document", () => {
    const result = validateItemText(ndjson);
    expect(result.errors).toEqual([
      {
        rule: "json-syntax",
        severity: "error",
        path: "",
        message: "JSON syntax error: several JSON documents, one per line; a second one starts here",
        suggestion: 'read it as NDJSON, one item per line: validateDocumentText(text, { format: "ndjson" })',
        line: 2,
        column: 1,
        endLine: 2,
        endColumn: 2,
      },
    ]);
    expect(validateDocumentText(ndjson, { format: "ndjson" }).map((item) => item.valid)).toEqual([true, true]);
  });

  it("a second value on the same line, or one that is no document of its own, gets no such hint", () => {
    expect(validateItemText("{} {}").errors[0]!.suggestion).toBeUndefined();
    expect(validateItemText('{}\n"a": 1').errors[0]!.suggestion).toBeUndefined();
  });
});
