/**
 * The helpers the compiled schemas call (src/ajv-runtime.ts) count what Ajv's own count: a
 * string's length in code points, which minLength and maxLength read, on strings with and without
 * surrogate pairs, lone surrogates included.
 */
import { createRequire } from "node:module";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ucs2length } from "../src/ajv-runtime.js";

const require = createRequire(import.meta.url);
const ajvCount = (require("ajv/dist/runtime/ucs2length.js") as { default: (text: string) => number }).default;

describe("ucs2length", () => {
  it.each([
    ["", 0],
    ["plain ASCII", 11],
    ["é and ü", 7],
    ["😀", 1],
    ["a😀b😀", 4],
    ["\uD800", 1],
    ["\uD800x", 2],
    ["\uDC00\uD800", 2],
    ["\uD800\uD800\uDC00", 2],
  ])("%j is %i code points, as Ajv counts", (text, count) => {
    expect(ucs2length(text)).toBe(count);
    expect(ajvCount(text)).toBe(count);
  });

  it("counts as Ajv does on any string of UTF-16 code units", () => {
    const unit = fc.constantFrom(0x61, 0xe9, 0xd800, 0xdbff, 0xdc00, 0xdfff, 0xe000);
    fc.assert(fc.property(fc.array(unit, { maxLength: 12 }), (units) => {
      const text = String.fromCharCode(...units);
      expect(ucs2length(text)).toBe(ajvCount(text));
    }));
  });
});
