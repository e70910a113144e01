import { describe, expect, it } from "vitest";
import { jsonArray, jsonObject } from "../../src/server/json-text.js";

describe("JSON text around JSON parts", () => {
  it("adds members after the object's own, copied as they are", () => {
    const text = jsonObject({ type: "Feature", id: 7 }, { geometry: '{"type":"Point","coordinates":[1,2]}', properties: "{}" });
    expect(text).toBe('{"type":"Feature","id":7,"geometry":{"type":"Point","coordinates":[1,2]},"properties":{}}');
  });

  it("starts an empty object without a separator, and escapes member names", () => {
    const text = jsonObject({}, { 'say "hi"\n': "[1]" });
    expect(JSON.parse(text)).toEqual({ 'say "hi"\n': [1] });
  });

  it("leaves an object without members as JSON.stringify writes it", () => {
    expect(jsonObject({ a: null, b: ["x"] }, {})).toBe(JSON.stringify({ a: null, b: ["x"] }));
  });

  it("joins arrays of JSON text, the empty one included", () => {
    expect(jsonArray([])).toBe("[]");
    expect(JSON.parse(jsonArray(["1", '{"a":2}', '"three"']))).toEqual([1, { a: 2 }, "three"]);
  });
});
