import { parse } from "csv-parse/sync";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { csvField, csvRecord } from "../../../src/server/formats/rfc4180.js";

describe("RFC 4180 records", () => {
  it("quote only what needs it", () => {
    expect(csvRecord(["plain", 'say "hi"', "a,b", "two\r\nlines", " padded", null, undefined, 7.5, ""])).toBe(
      'plain,"say ""hi""","a,b","two\r\nlines"," padded",,,7.5,\r\n',
    );
    expect(csvField("not square: 63.4° corner at 7.44 43.73")).toBe("not square: 63.4° corner at 7.44 43.73");
  });

  it("a strict CSV reader reads back every record exactly", () => {
    const text = fc.string({ unit: fc.constantFrom("a", " ", ",", '"', "\r", "\n", "é", ";", "\t") });
    fc.assert(
      fc.property(fc.array(fc.array(text, { minLength: 1, maxLength: 5 }), { minLength: 1, maxLength: 5 }), (records) => {
        // Every row as wide as the first: a reader expects as many fields on each.
        const width = records[0]!.length;
        const rows = records.map((record) => Array.from({ length: width }, (_, index) => record[index] ?? ""));
        const csv = rows.map(csvRecord).join("");
        expect(parse(csv, { record_delimiter: "\r\n", relax_quotes: false, skip_empty_lines: false })).toEqual(rows);
      }),
    );
  });
});
