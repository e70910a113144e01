/**
 * Whatever it is given, the validator answers with a result and never throws (invalid options
 * excepted: those are the caller's mistake and throw a TypeError that says what is wrong).
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it, vi } from "vitest";
import { validateDocumentText, validateItem, validateItemText, type Issue, type ValidationResult } from "../../src/index.js";
import type { EditableItem } from "../support/json-edit.js";

const here = path.dirname(fileURLToPath(import.meta.url));
const FIXTURES = path.resolve(here, "../../fixtures/valid");
const minimalText = readFileSync(path.join(FIXTURES, "minimal.json"), "utf8");
const realisticText = readFileSync(path.join(FIXTURES, "realistic-segmentation.json"), "utf8");
const minimal = (): EditableItem => JSON.parse(minimalText);

const DEPTH = 100_000;
const keys = (issues: readonly Issue[]): string[] => issues.map((issue) => `${issue.rule} ${issue.path}`).sort();

/** An array nested `depth` levels deep, built without recursion. */
function nestedArray(depth: number): unknown[] {
  let value: unknown[] = [];
  for (let level = 1; level < depth; level++) value = [value];
  return value;
}

function expectResult(result: ValidationResult): void {
  expect(result).toEqual(
    expect.objectContaining({ valid: expect.any(Boolean), errors: expect.any(Array), warnings: expect.any(Array), omitted: expect.any(Number) }),
  );
}

/** 1-based line and column of the `occurrence`-th (1-based) occurrence of `needle`. */
function positionOf(text: string, needle: string, occurrence = 1): { line: number; column: number } {
  let offset = -1;
  for (let n = 0; n < occurrence; n++) {
    offset = text.indexOf(needle, offset + 1);
    if (offset === -1) throw new Error(`${needle} not found ${occurrence} times`);
  }
  const before = text.slice(0, offset);
  return { line: before.split("\n").length, column: offset - before.lastIndexOf("\n") };
}

describe("validateItem with values that are not items", () => {
  it.each([
    ["undefined", undefined, "found undefined"],
    ["null", null, "found null"],
    ["0", 0, "found a number (0)"],
    ["NaN", Number.NaN, "found a number (NaN)"],
    ["true", true, "found a boolean (true)"],
    ['""', "", "found an empty string"],
    ["a string", "Feature", 'found a string ("Feature")'],
    ["[]", [], "found an empty array"],
    ["an array", [minimal()], "found an array of 1 item"],
  ])("%s: a type error at the item itself", (_label, value, found) => {
    const result = validateItem(value);
    expect(result.valid).toBe(false);
    expect(result.warnings).toEqual([]);
    expect(result.errors).toHaveLength(1);
    expect(result.errors[0]).toMatchObject({ rule: "type", severity: "error", path: "", expected: "object" });
    expect(result.errors[0]!.message).toBe(`the item must be an object; ${found}`);
  });

  it.each([
    ["a bigint", 10n],
    ["a symbol", Symbol("item")],
    ["a function", () => minimal()],
  ])("%s: a type error at the item itself", (_label, value) => {
    const result = validateItem(value);
    expect(keys(result.errors)).toEqual(["type "]);
  });

  it.each([
    ["a Map", new Map([["type", "Feature"]])],
    ["a Set", new Set(["Feature"])],
    ["a Date", new Date(0)],
    ["a RegExp", /Feature/],
    ["an Error", new Error("Feature")],
    ["a class instance", new (class Item {})()],
  ])("%s: a result (an object without the members of an item), no throw", (_label, value) => {
    const result = validateItem(value);
    expectResult(result);
    expect(result.valid).toBe(false);
  });

  it("an object without prototype is read like any object", () => {
    expect(validateItem(Object.assign(Object.create(null), minimal())).valid).toBe(true);
  });

  it("an object whose members are getters is read through them", () => {
    const source = minimal();
    const item = {};
    for (const [name, value] of Object.entries(source)) {
      Object.defineProperty(item, name, { get: () => value, enumerable: true, configurable: true });
    }
    expect(validateItem(item)).toEqual({ valid: true, errors: [], warnings: [], omitted: 0 });
    Object.defineProperty(item, "type", { get: () => "feature", enumerable: true, configurable: true });
    expect(keys(validateItem(item).errors)).toEqual(["const /type"]);
  });

  // Reading the value is the caller's code: its own exception reaches the caller unchanged
  // (documented in README), rather than being dressed up as a rule the item broke.
  it("an object whose getter throws passes the getter's own exception to the caller", () => {
    const item = minimal();
    delete item.type;
    Object.defineProperty(item, "type", {
      get() {
        throw new Error("getter failed");
      },
      enumerable: true,
    });
    expect(() => validateItem(item)).toThrow("getter failed");
  });

  it("a circular object where an object belongs is valid (it is never looked into)", () => {
    const item = minimal();
    const loop: Record<string, unknown> = { name: "loop" };
    loop.self = loop;
    item.properties["mlm:hyperparameters"] = loop;
    expect(validateItem(item).valid).toBe(true);
  });

  it("a circular array where an object belongs: a type error that describes it", () => {
    const item = minimal();
    const array: unknown[] = [];
    array.push(array);
    item.properties["mlm:hyperparameters"] = array;
    const result = validateItem(item);
    expect(keys(result.errors)).toEqual(["type /properties/mlm:hyperparameters"]);
    expect(result.errors[0]!.message).toBe("properties.mlm:hyperparameters must be an object; found an array of 1 item");
  });

  it("a circular object where an array belongs: a type error", () => {
    const item = minimal();
    const loop: Record<string, unknown> = { name: "loop" };
    loop.self = loop;
    item.properties["mlm:tasks"] = loop;
    const result = validateItem(item);
    expect(keys(result.errors)).toEqual(["type /properties/mlm:tasks"]);
    expect(result.errors[0]!.message).toBe("properties.mlm:tasks must be an array; found an object");
  });

  it(`${DEPTH.toLocaleString("en")} nested arrays as the whole item: a type error at the item`, () => {
    const result = validateItem(nestedArray(DEPTH));
    expect(keys(result.errors)).toEqual(["type "]);
    expect(result.errors[0]!.message).toBe("the item must be an object; found an array of 1 item");
  });

  it(`${DEPTH.toLocaleString("en")} nested arrays inside mlm:hyperparameters: valid`, () => {
    const item = minimal();
    item.properties["mlm:hyperparameters"] = { "training.schedule": nestedArray(DEPTH) };
    expect(validateItem(item)).toEqual({ valid: true, errors: [], warnings: [], omitted: 0 });
  });

  it(`${DEPTH.toLocaleString("en")} nested arrays as mlm:hyperparameters: a type error there`, () => {
    const item = minimal();
    item.properties["mlm:hyperparameters"] = nestedArray(DEPTH);
    const result = validateItem(item);
    expect(keys(result.errors)).toEqual(["type /properties/mlm:hyperparameters"]);
    expect(result.errors[0]!.message).toBe("properties.mlm:hyperparameters must be an object; found an array of 1 item");
  });
});

describe("validateItemText with bad text", () => {
  it("accepts a byte-order mark, as text and as bytes", () => {
    const valid = { valid: true, errors: [], warnings: [], omitted: 0 };
    expect(validateItemText(`\uFEFF${minimalText}`)).toEqual(valid);
    const bytes = new Uint8Array([0xef, 0xbb, 0xbf, ...new TextEncoder().encode(minimalText)]);
    expect(validateItemText(bytes)).toEqual(valid);
    expect(validateItemText(Buffer.from(minimalText))).toEqual(valid);
  });

  it("keeps positions right after a byte-order mark", () => {
    const text = minimalText.replace('"mlm:framework": "PyTorch"', '"mlm:framework": "pytorch"');
    const at = positionOf(text, '"pytorch"');
    for (const input of [`\uFEFF${text}`, new Uint8Array([0xef, 0xbb, 0xbf, ...new TextEncoder().encode(text)])]) {
      const result = validateItemText(input);
      expect(keys(result.errors)).toEqual(["enum /properties/mlm:framework"]);
      expect(result.errors[0]).toMatchObject({ line: at.line, column: at.column });
    }
  });

  it("reports bytes that are not UTF-8 with their offset", () => {
    const text = minimalText.replace("Minimal base model", "Minimal b\u00e9se model");
    const bytes = new Uint8Array(Buffer.from(text, "latin1")); // é as the lone byte 0xe9
    const offset = bytes.indexOf(0xe9);
    expect(offset).toBeGreaterThan(0);
    const result = validateItemText(bytes);
    expect(result.valid).toBe(false);
    expect(result.errors).toHaveLength(1);
    const at = positionOf(text, "\u00e9");
    expect(result.errors[0]).toMatchObject({ rule: "encoding", path: "", line: at.line, column: at.column });
    expect(result.errors[0]!.message).toBe(`the text is not valid UTF-8 (byte 0xe9 at offset ${offset})`);
  });

  it("reads bytes without Node's Buffer, as in a browser", () => {
    const text = minimalText.replace("Minimal base model", "Minimal b\u00e9se model");
    const latin1 = new Uint8Array(Buffer.from(text, "latin1"));
    const [utf8Result, latin1Result] = [validateItemText(new TextEncoder().encode(text)), validateItemText(latin1)];
    vi.stubGlobal("Buffer", undefined);
    try {
      expect(validateItemText(new TextEncoder().encode(text))).toEqual(utf8Result);
      expect(validateItemText(latin1)).toEqual(latin1Result);
      expect(validateDocumentText(new TextEncoder().encode(`${JSON.stringify(JSON.parse(text))}\n{"type":`), { format: "ndjson" }).map((item) => item.valid)).toEqual([true, false]);
    } finally {
      vi.unstubAllGlobals();
    }
    expect(latin1Result.errors.map((issue) => issue.rule)).toEqual(["encoding"]);
  });

  it.each([
    ["a truncated continuation byte", [0x7b, 0x22, 0xc3, 0x22, 0x7d], 2],
    ["an overlong encoding", [0x7b, 0x22, 0xc0, 0xaf, 0x22, 0x7d], 2],
    ["a UTF-16 surrogate", [0x7b, 0x22, 0xed, 0xa0, 0x80, 0x22, 0x7d], 2],
    ["bytes cut in the middle of a character", [0x7b, 0x22, 0xe2, 0x82], 2],
  ])("reports %s as an encoding error at the right offset", (_label, bytes, offset) => {
    const result = validateItemText(new Uint8Array(bytes));
    expect(keys(result.errors)).toEqual(["encoding "]);
    expect(result.errors[0]!.message).toContain(`at offset ${offset})`);
  });

  /** The minimal item cut just after `marker`. */
  const cutAfter = (marker: string): string => {
    const at = minimalText.indexOf(marker);
    expect(at).toBeGreaterThan(0);
    return minimalText.slice(0, at + marker.length);
  };

  it.each([
    ["in a member name", cutAfter('"mlm:inp')],
    ["in a string value", cutAfter('"mlm:architecture": "UN')],
    ["just before the last brace", minimalText.slice(0, minimalText.lastIndexOf("}"))],
    ["after a value", cutAfter('"version": "1"')],
    ["after a colon", cutAfter('"version":')],
    ["after a comma", cutAfter('"mlm:pretrained": false,')],
    ["after a comma and the line break", cutAfter('"mlm:pretrained": false,\n    ')],
    ["after an opening brace", cutAfter('"post_processing_function": {\n')],
    ["after an opening bracket", cutAfter('"mlm:tasks": [')],
  ])("reports JSON truncated %s as unexpected end of input, at the end of the text", (_label, text) => {
    const end = (of: string) => {
      const lines = of.split("\n");
      return { line: lines.length, column: lines.at(-1)!.length + 1 };
    };
    const result = validateItemText(text);
    expect(result.valid).toBe(false);
    expect(result.errors).toHaveLength(1);
    const { rule, path: pointer, line, column } = result.errors[0]!;
    expect({ rule, path: pointer }).toEqual({ rule: "json-syntax", path: "" });
    // Where the text ends, or just after its last token when only white space follows.
    expect([end(text), end(text.trimEnd())]).toContainEqual({ line, column });
    expect(result.errors[0]!.message).toMatch(/^JSON syntax error: .*end of input/i);
  });

  it("reports a syntax error where it is", () => {
    const text = minimalText.replace('"version": "1",', '"version": "1",,');
    const at = positionOf(text, ",,");
    const result = validateItemText(text);
    expect(keys(result.errors)).toEqual(["json-syntax "]);
    expect(result.errors[0]).toMatchObject({ line: at.line, column: at.column + 1 });
  });

  it.each([
    ["an empty string", ""],
    ["white space", " \n\t\r\n"],
    ["no bytes", new Uint8Array(0)],
  ])("reports %s as empty", (_label, input) => {
    const result = validateItemText(input);
    expect(result.errors).toEqual([
      expect.objectContaining({ rule: "json-syntax", path: "", message: "the text is empty; a base model item is a JSON object", line: 1, column: 1 }),
    ]);
  });

  it("reports binary bytes holding NUL, at the first NUL", () => {
    const bytes = new Uint8Array([0x7b, 0x0a, 0x20, 0x20, 0x00, 0x01, 0x02, 0x03, 0x7d]);
    const result = validateItemText(bytes);
    expect(result.errors).toEqual([
      expect.objectContaining({ rule: "encoding", path: "", message: "the file is binary (it holds NUL bytes), not JSON text", line: 2, column: 3 }),
    ]);
    // A PNG header is binary too: its first byte is already no UTF-8.
    const png = validateItemText(new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d]));
    expect(keys(png.errors)).toEqual(["encoding "]);
  });

  describe(`${DEPTH.toLocaleString("en")} nested arrays as text`, () => {
    const deep = "[".repeat(DEPTH) + "]".repeat(DEPTH);
    const inside = minimalText.replace('"mlm:hyperparameters": {}', `"mlm:hyperparameters": {"training.schedule": ${deep}}`);

    it("as the whole text: a type error at the item", () => {
      const result = validateItemText(deep);
      expect(keys(result.errors)).toEqual(["type "]);
      expect(result.errors[0]).toMatchObject({ line: 1, column: 1 });
    });

    it("inside mlm:hyperparameters: valid", () => {
      expect(inside).not.toBe(minimalText);
      expect(validateItemText(inside)).toEqual({ valid: true, errors: [], warnings: [], omitted: 0 });
    });

    it("inside mlm:hyperparameters, with an error elsewhere: the error is reported", () => {
      // The position parser may give up on the depth; the validator may not.
      const elsewhere = inside.replace('"mlm:framework": "PyTorch"', '"mlm:framework": "pytorch"');
      expect(keys(validateItemText(elsewhere).errors)).toEqual(["enum /properties/mlm:framework"]);
    });

    it("as mlm:hyperparameters: a type error there", () => {
      const asValue = minimalText.replace('"mlm:hyperparameters": {}', `"mlm:hyperparameters": ${deep}`);
      expect(keys(validateItemText(asValue).errors)).toEqual(["type /properties/mlm:hyperparameters"]);
    });

    it("never closed: a syntax error", () => {
      expect(keys(validateItemText("[".repeat(DEPTH)).errors)).toEqual(["json-syntax "]);
    });
  });

  describe("a 50 MB item", () => {
    // realistic-segmentation.json with a large array of strings in mlm:hyperparameters.
    const anchor = '"mlm:hyperparameters": {\n';
    const row = `        "${"0123456789abcdef".repeat(62)}"`; // about 1 KB per line
    const rows = Math.ceil(50_000_000 / (row.length + 2));
    const big = realisticText.replace(
      anchor,
      `${anchor}      "training.replay_buffer": [\n${Array.from({ length: rows }, () => row).join(",\n")}\n      ],\n`,
    );

    it("is at least 50 MB", () => {
      expect(big.length).toBeGreaterThanOrEqual(50_000_000);
    });

    it("is validated", { timeout: 600_000 }, () => {
      expect(validateItemText(big)).toEqual({ valid: true, errors: [], warnings: [], omitted: 0 });
    });

    it("with one error, which is located", { timeout: 600_000 }, () => {
      const broken = big.replace('"default_ratio": 0.15', '"default_ratio": 1.5');
      const at = positionOf(broken, '"default_ratio": 1.5');
      expect(at.line).toBeGreaterThan(rows);
      const result = validateItemText(broken);
      expect(keys(result.errors)).toEqual(["exclusive-range /properties/fair:split_spec/default_ratio"]);
      expect(result.errors[0]).toMatchObject({ line: at.line, column: at.column + '"default_ratio": '.length });
    });
  });

  it("warns about a duplicate key at the second occurrence; strict makes it an error", () => {
    const text = minimalText.replace('"version": "1",', '"version": "1",\n    "version": "2",');
    const second = positionOf(text, '"version"', 2);
    expect(second.line).toBe(positionOf(text, '"version"').line + 1);
    const result = validateItemText(text);
    expect(result.valid).toBe(true);
    expect(result.errors).toEqual([]);
    expect(result.warnings).toEqual([
      {
        rule: "duplicate-key",
        severity: "warning",
        path: "/properties/version",
        message: '"version" appears more than once in properties; JSON readers keep only the last value',
        actual: "version",
        line: second.line,
        column: second.column,
        endLine: second.line,
        endColumn: second.column + '"version"'.length,
      },
    ]);
    const strict = validateItemText(text, { strict: true });
    expect(strict.valid).toBe(false);
    expect(keys(strict.errors)).toEqual(["duplicate-key /properties/version"]);
    expect(strict.errors[0]).toMatchObject({ severity: "error", line: second.line });
  });

  it("reports a duplicate key together with the schema errors, deep inside arrays too", () => {
    const text = minimalText
      .replace('"name": "IoU"', '"name": "IoU", "name": ""')
      .replace('"type": "Feature"', '"type": "feature"');
    const result = validateItemText(text);
    expect(keys(result.errors)).toEqual(["const /type", "min-length /properties/fair:metrics_spec/0/name"]);
    expect(keys(result.warnings)).toEqual(["duplicate-key /properties/fair:metrics_spec/0/name"]);
    expect(result.warnings[0]).toMatchObject(positionOf(text, '"name": ""'));
  });
});

describe("maxErrors", () => {
  const manyTasks = () => {
    const item = minimal();
    item.properties["mlm:tasks"] = Array.from({ length: 500 }, (_, index) => `task-${index}`);
    return item;
  };

  it("caps the list and counts the rest in omitted", () => {
    const result = validateItem(manyTasks(), { maxErrors: 10 });
    expect(result.valid).toBe(false);
    expect(result.errors).toHaveLength(10);
    expect(result.omitted).toBe(490);
    expect(result.errors.map((issue) => issue.path)).toEqual(Array.from({ length: 10 }, (_, index) => `/properties/mlm:tasks/${index}`));
    expect(result.errors.every((issue) => issue.rule === "enum")).toBe(true);
  });

  it("is 100 by default, and Infinity keeps everything", () => {
    const capped = validateItem(manyTasks());
    expect(capped.errors).toHaveLength(100);
    expect(capped.omitted).toBe(400);
    const all = validateItem(manyTasks(), { maxErrors: Infinity });
    expect(all.errors).toHaveLength(500);
    expect(all.omitted).toBe(0);
  });

  it("keeps errors before warnings and counts omitted warnings", () => {
    const item = manyTasks();
    item.properties["fair:notes"] = "an undefined prefixed property: a warning";
    const result = validateItem(item, { maxErrors: 10 });
    expect(result.errors).toHaveLength(10);
    expect(result.warnings).toEqual([]);
    expect(result.omitted).toBe(491);
    const few = minimal();
    few.type = "feature";
    few.properties["fair:notes"] = "x";
    const both = validateItem(few, { maxErrors: 2 });
    expect(keys(both.errors)).toEqual(["const /type"]);
    expect(keys(both.warnings)).toEqual(["unknown-prefixed-property /properties/fair:notes"]);
    expect(both.omitted).toBe(0);
  });

  it("applies to validateItemText as well", () => {
    const text = JSON.stringify(manyTasks(), null, 2);
    const result = validateItemText(text, { maxErrors: 10 });
    expect(result.errors).toHaveLength(10);
    expect(result.omitted).toBe(490);
    expect(result.errors[0]).toMatchObject(positionOf(text, '"task-0"'));
  });
});

describe("invalid options", () => {
  const item = minimal();

  it.each([
    ["maxErrors 0", { maxErrors: 0 }, /^maxErrors must be an integer of at least 1 \(or Infinity\); found a number \(0\)$/],
    ["maxErrors -1", { maxErrors: -1 }, /^maxErrors must be an integer of at least 1 .*found a number \(-1\)$/],
    ["maxErrors 1.5", { maxErrors: 1.5 }, /^maxErrors must be an integer of at least 1 .*found a number \(1\.5\)$/],
    ["maxErrors NaN", { maxErrors: Number.NaN }, /^maxErrors must be an integer of at least 1 .*found a number \(NaN\)$/],
    ["maxErrors -Infinity", { maxErrors: -Infinity }, /^maxErrors must be an integer of at least 1 .*found a number \(-Infinity\)$/],
    ['maxErrors "10"', { maxErrors: "10" }, /^maxErrors must be an integer of at least 1 .*found a string \("10"\)$/],
    ['prefix "bad prefix!"', { prefix: "bad prefix!" }, /^prefix must be a name such as "fair:" or "svc:" .*found a string \("bad prefix!"\)$/],
    ['prefix ""', { prefix: "" }, /^prefix must be a name/],
    ['schemaUrl ""', { schemaUrl: "" }, /^schemaUrl must be a non-empty identifier/],
    ['strict "yes"', { strict: "yes" }, /^strict must be a boolean; found a string \("yes"\)$/],
    ["an unknown option", { strcit: true }, /^unknown member "strcit" in the validator options; the known members are prefix, schemaUrl, strict, maxErrors, stac, schemaMap, schemaCache, rules, fairChecks and profile \(did you mean "strict"\?\)$/],
    ["null", null, /^validator options must be an object/],
    ["a string", "strict", /^validator options must be an object/],
  ])("%s throws a TypeError that says what is wrong", (_label, options, message) => {
    for (const call of [() => validateItem(item, options as never), () => validateItemText(minimalText, options as never)]) {
      expect(call).toThrow(TypeError);
      expect(call).toThrow(message);
    }
  });

  it("are rejected even after a validator with other options was created and cached", () => {
    // Infinity, -Infinity and NaN are all null in JSON: a cache keyed on JSON text must not mix them up.
    expect(validateItem(item, { maxErrors: Infinity }).valid).toBe(true);
    expect(() => validateItem(item, { maxErrors: Number.NaN })).toThrow(TypeError);
    expect(() => validateItem(item, { maxErrors: -Infinity })).toThrow(TypeError);
  });

  it("valid options do not throw", () => {
    expect(validateItem(item, { maxErrors: 1, prefix: "fair", strict: false, schemaUrl: item.stac_extensions[0] }).valid).toBe(true);
    expect(validateItem(item, {}).valid).toBe(true);
    expect(validateItem(item, undefined).valid).toBe(true);
  });
});
