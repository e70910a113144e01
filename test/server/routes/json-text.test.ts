import { describe, expect, it } from "vitest";
import { featureJson, JsonArrayBytes } from "../../../src/server/http/json-text.js";

describe("JSON text around JSON parts", () => {
  it("writes a feature around its geometry and properties text, copied as they are", () => {
    const text = featureJson(7, '{"type":"Point","coordinates":[1,2]}', "{}");
    expect(text).toBe('{"type":"Feature","id":7,"geometry":{"type":"Point","coordinates":[1,2]},"properties":{}}');
  });

});

describe("a JSON array written item by item, as a member of an object", () => {
  const array = (items: readonly string[]): JsonArrayBytes => {
    const bytes = new JsonArrayBytes();
    for (const item of items) bytes.add(JSON.stringify(item));
    return bytes;
  };

  it("is the bytes of the same object serialised whole, the empty array, the empty head and an escaped name included", () => {
    expect(array([]).memberOf({}, "features").toString()).toBe('{"features":[]}');
    const bytes = array(["a", "b"]).memberOf({ type: "FeatureCollection", hasMore: false }, 'say "hi"');
    expect(bytes.equals(Buffer.from(JSON.stringify({ type: "FeatureCollection", hasMore: false, 'say "hi"': ["a", "b"] })))).toBe(true);
  });

  it("grows past its first buffer without losing or cutting a character, whatever the width of the text", () => {
    // Items of one, two, three and four bytes per character (the last a surrogate pair), about 1 MB
    // in all, so that the buffer doubles several times and characters fall on its boundaries.
    const items = Array.from({ length: 4_000 }, (_, index) => ["a", "\u00e9", "\u20ac", "\u{1F3E0}"][index % 4]!.repeat(37 + (index % 101)));
    const bytes = array(items).memberOf({ page: 0 }, "features");
    const expected = Buffer.from(JSON.stringify({ page: 0, features: items }));
    expect(bytes.length).toBe(expected.length);
    expect(bytes.equals(expected)).toBe(true);
  });
});
