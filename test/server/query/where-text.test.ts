import { describe, expect, it } from "vitest";
import { MAX_LIST_ITEMS, MAX_TAG_LENGTH } from "../../../src/server/api/limits.js";
import { parseWhere as parseWhereWithin, WhereSyntaxError } from "../../../src/server/query/where-text.js";

/** The server's bounds, as the custom export routes give them. */
const BOUNDS = { conditions: MAX_LIST_ITEMS, values: MAX_LIST_ITEMS, characters: MAX_TAG_LENGTH };
const parseWhere = (text: string) => parseWhereWithin(text, BOUNDS);

function failure(text: string): WhereSyntaxError {
  try {
    parseWhere(text);
  } catch (error) {
    if (error instanceof WhereSyntaxError) return error;
    throw error;
  }
  throw new Error(`parsed: ${text}`);
}

describe("parseWhere: the where of raw-data-api's custom exports", () => {
  it("reads every form of HOT's configurations", () => {
    expect(parseWhere("tags['highway'] IS NOT NULL")).toEqual({ conditions: [{ key: "highway", values: [] }], join: "or" });
    expect(parseWhere("tags['railway'] IN ('rail','station')")).toEqual({ conditions: [{ key: "railway", values: ["rail", "station"] }], join: "or" });
    expect(parseWhere("tags['waterway'] IS NOT NULL OR tags['water'] IS NOT NULL OR tags['natural'] IN ('water','wetland','bay')")).toEqual({
      conditions: [
        { key: "waterway", values: [] },
        { key: "water", values: [] },
        { key: "natural", values: ["water", "wetland", "bay"] },
      ],
      join: "or",
    });
    expect(parseWhere("tags['amenity'] = 'ferry_terminal' OR tags['port'] IS NOT NULL")).toEqual({
      conditions: [
        { key: "amenity", values: ["ferry_terminal"] },
        { key: "port", values: [] },
      ],
      join: "or",
    });
  });

  it("binds AND tighter than OR, keeps parentheses, and flattens a join inside the same join", () => {
    expect(parseWhere("tags['a'] IS NOT NULL OR tags['b'] = 'x' AND tags['c'] = 'y'")).toEqual({
      conditions: [
        { key: "a", values: [] },
        {
          conditions: [
            { key: "b", values: ["x"] },
            { key: "c", values: ["y"] },
          ],
          join: "and",
        },
      ],
      join: "or",
    });
    expect(parseWhere("(tags['a'] IS NOT NULL OR tags['b'] IS NOT NULL) and ((tags['c'] = '1'))")).toEqual({
      conditions: [
        {
          conditions: [
            { key: "a", values: [] },
            { key: "b", values: [] },
          ],
          join: "or",
        },
        { key: "c", values: ["1"] },
      ],
      join: "and",
    });
  });

  it("names a key as tags['k'], tags->>'k', \"k\" or bare; quotes doubled inside; numbers as text; any case of keywords", () => {
    expect(parseWhere(`tags->>'addr:city' = 'L''Aquila' or "building:levels" in (2, '3') Or highway is not null`)).toEqual({
      conditions: [
        { key: "addr:city", values: ["L'Aquila"] },
        { key: "building:levels", values: ["2", "3"] },
        { key: "highway", values: [] },
      ],
      join: "or",
    });
  });

  it("refuses what a tag filter cannot say, naming the operator and where it is", () => {
    expect(failure("tags['highway'] != 'motorway'")).toMatchObject({ offset: 16, message: expect.stringMatching(/^!= at character 17 is not supported \(a filter cannot exclude a value\); a where takes tags\['key'\] IS NOT NULL/) });
    expect(failure("tags['highway'] IS NULL").message).toMatch(/^IS NULL at character 20 is not supported/);
    expect(failure("NOT tags['highway'] IS NOT NULL").message).toMatch(/^NOT at character 1 is not supported/);
    expect(failure("tags['name'] LIKE 'A%'").message).toMatch(/^LIKE at character 14 is not supported \(values are matched whole\)/);
  });

  it("says what it expected and found on a malformed where", () => {
    expect(failure("").message).toMatch(/^the where is empty/);
    expect(failure("   ").message).toMatch(/^the where is empty/);
    expect(failure("tags['highway'] IS NOT NULL OR").message).toBe("expected a tag key such as tags['highway'] at character 31; found the end of the text");
    expect(failure("tags['highway'] IS NOT NULL tags['x'] IS NOT NULL").message).toBe('expected AND, OR or the end of the text at character 29; found "tags"');
    expect(failure("tags['highway IS NOT NULL").message).toBe("the quote opened at character 6 is never closed");
    expect(failure("tags['a'] IN ('x' 'y')").message).toBe("expected a comma or a closing parenthesis at character 19; found 'y'");
    expect(failure("(tags['a'] IS NOT NULL").message).toBe("expected a closing parenthesis at character 23; found the end of the text");
    expect(failure("tags[highway] IS NOT NULL").message).toBe(`expected a tag key in single quotes, as tags['highway'], at character 6; found "highway"`);
    // Double quotes name an identifier in SQL, not a text: tags["highway"] is no tag.
    expect(failure('tags["highway"] IS NOT NULL').message).toBe(`expected a tag key in single quotes, as tags['highway'], at character 6; found "highway"`);
    expect(failure("tags['a'] = other").message).toBe("expected a quoted value such as 'school' at character 13; found \"other\"");
    expect(failure("tags['a'] IS NOT 'x'").message).toBe("expected NULL after IS NOT at character 18; found 'x'");
    expect(failure("tags['a'] ~ 'x'").message).toBe('expected IS NOT NULL, = or IN after a tag key at character 11; found "~"');
  });

  it("bounds the text and the nesting a request can make it read", () => {
    expect(failure(`${"(".repeat(40)}tags['a'] IS NOT NULL${")".repeat(40)}`).message).toMatch(/nest deeper than 32/);
    expect(parseWhere(`${"(".repeat(32)}tags['a'] IS NOT NULL${")".repeat(32)}`)).toEqual({ conditions: [{ key: "a", values: [] }], join: "or" });
    expect(failure(`tags['a'] IN (${"'x', ".repeat(2500)}'y')`).message).toMatch(/^the where is 12,518 characters long, above the limit of 10,000$/);
  });

  it("bounds what a where asks for as every request is bounded: conditions, values of an IN list, characters of a key or value", () => {
    // 1,400 of them in 9,796 characters: SQLite refused the query.
    const ored = (count: number) => Array.from({ length: count }, () => "k=1").join(" OR ");
    expect(parseWhere(ored(100)).conditions).toHaveLength(100);
    const many = failure(ored(1400));
    expect(many.message).toBe("the condition at character 701 is one more than a where may hold: at most 100 conditions");
    expect(many.offset).toBe(700);
    // Counted across AND, OR and parentheses alike.
    expect(failure(`(${ored(60)}) AND (${ored(41)})`).message).toMatch(/^the condition at character \d+ is one more than a where may hold: at most 100 conditions$/);

    const digits = (count: number) => Array.from({ length: count }, (_, index) => String(index % 10));
    const list = (count: number) => `tags['amenity'] IN (${digits(count).join(",")})`;
    expect(parseWhere(list(100)).conditions).toEqual([{ key: "amenity", values: digits(100) }]);
    expect(failure(list(3300)).message).toBe("the IN list at character 17 holds more than 100 values; at most 100 are allowed");

    const long = "x".repeat(9900);
    expect(parseWhere(`tags['${"k".repeat(255)}'] = '${"é".repeat(255)}'`).conditions).toEqual([{ key: "k".repeat(255), values: ["é".repeat(255)] }]);
    for (const [where, message] of [
      [`tags['${long}'] IS NOT NULL`, "the tag key at character 6 is 9,900 characters long; tag keys and values have at most 255"],
      [`tags->>'${long}' IS NOT NULL`, "the tag key at character 8 is 9,900 characters long; tag keys and values have at most 255"],
      [`"${long}" IS NOT NULL`, "the tag key at character 1 is 9,900 characters long; tag keys and values have at most 255"],
      [`${long} IS NOT NULL`, "the tag key at character 1 is 9,900 characters long; tag keys and values have at most 255"],
      [`tags['a'] = '${long}'`, "the value at character 13 is 9,900 characters long; tag keys and values have at most 255"],
      [`tags['a'] IN ('b', '${long}')`, "the value at character 20 is 9,900 characters long; tag keys and values have at most 255"],
      [`tags['a'] = ${"1".repeat(256)}`, "the value at character 13 is 256 characters long; tag keys and values have at most 255"],
    ]) {
      expect(failure(where!).message, where!.slice(0, 30)).toBe(message);
    }
  });
});
