import { describe, expect, it } from "vitest";
import { parseWhere, WhereSyntaxError } from "../../../src/server/query/where-text.js";

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
});
