import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { parse, type AnyNode, type LocationRange } from "@humanwhocodes/momoa";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { joinPointer } from "../../../src/diagnostics/pointer.js";
import { mayHaveDuplicateKeys } from "../../../src/validator/item/decode.js";
import { SourceMap, type Span } from "../../../src/validator/item/positions.js";
import { fairModelsFolder } from "../../support/requirements.js";

const root = new URL("../../..", import.meta.url).pathname;

/** Every item of the project's fixtures, and fAIr's real items where ../shared exists. */
function texts(): Array<{ name: string; text: string }> {
  const found: Array<{ name: string; text: string }> = [];
  for (const folder of ["fixtures/valid", "fixtures/warning", "fixtures/invalid"]) {
    for (const name of readdirSync(join(root, folder))) {
      if (name.endsWith(".json")) found.push({ name: `${folder}/${name}`, text: readFileSync(join(root, folder, name), "utf8") });
    }
  }
  const real = fairModelsFolder();
  for (const entry of real === undefined ? [] : readdirSync(real, { recursive: true, encoding: "utf8" })) {
    if (entry.endsWith("stac-item.json")) found.push({ name: entry, text: readFileSync(join(real!, entry), "utf8") });
  }
  return found;
}

function spanOf(loc: LocationRange): Span {
  return { line: loc.start.line, column: loc.start.column, endLine: loc.end.line, endColumn: loc.end.column };
}

/** Every pointer of a momoa tree, with the span of the value and, for members, of the name (the last duplicate wins, as in JSON.parse). */
function oracle(text: string): Map<string, { value: Span; key?: Span }> {
  const spans = new Map<string, { value: Span; key?: Span }>();
  const stack: Array<{ node: AnyNode; pointer: string }> = [{ node: parse(text, { mode: "json" }).body, pointer: "" }];
  spans.set("", { value: spanOf(stack[0]!.node.loc) });
  while (stack.length > 0) {
    const { node, pointer } = stack.pop()!;
    if (node.type === "Object") {
      for (const member of node.members) {
        const name = member.name.type === "String" ? member.name.value : member.name.name;
        const child = joinPointer(pointer, name);
        spans.set(child, { value: spanOf(member.value.loc), key: spanOf(member.name.loc) });
        stack.push({ node: member.value, pointer: child });
      }
    } else if (node.type === "Array") {
      node.elements.forEach((element, index) => {
        const child = joinPointer(pointer, index);
        spans.set(child, { value: spanOf(element.value.loc) });
        stack.push({ node: element.value, pointer: child });
      });
    }
  }
  return spans;
}

/** The same document written three more ways: minified, with CR LF line breaks, with lone CR line breaks. */
function variants(text: string): string[] {
  const value = JSON.parse(text);
  const pretty = JSON.stringify(value, null, 2);
  return [text, JSON.stringify(value), pretty.replace(/\n/g, "\r\n"), pretty.replace(/\n/g, "\r")];
}

describe("SourceMap: positions found by scanning agree with momoa's syntax tree", () => {
  const all = texts();

  it("reads real texts", () => {
    expect(all.length).toBeGreaterThan(40);
  });

  it("on every value and member name of every fixture and real fAIr item, written four ways", () => {
    let checked = 0;
    for (const { name, text } of all) {
      for (const variant of variants(text)) {
        const value: unknown = JSON.parse(variant);
        const expected = oracle(variant);
        // Walked, and with what JSON.parse made of the text (members whose names are written once found by a search).
        for (const map of [SourceMap.of(variant), SourceMap.of(variant, !mayHaveDuplicateKeys(variant, value), value)]) {
          const found = new Map([...expected].map(([pointer, { key }]) => [pointer, { value: map.locate(pointer, "value"), ...(key && { key: map.locate(pointer, "key") }) }]));
          expect(found, name).toEqual(expected);
          checked += found.size;
        }
      }
    }
    expect(checked).toBeGreaterThan(20_000);
  });

  it("gives the same positions whatever order they are asked in: forwards, backwards, shuffled", () => {
    const long = all.filter(({ text }) => text.split("\n").length > 200);
    expect(long.length).toBeGreaterThan(0);
    for (const { name, text } of long) {
      for (const variant of variants(text).filter((written) => /[\r\n]/.test(written))) {
        const expected = [...oracle(variant)].map(([pointer, { value }]) => ({ pointer, value }));
        const backwards = [...expected].sort((a, b) => b.value.line - a.value.line || b.value.column - a.value.column);
        const shuffled = fc.sample(fc.shuffledSubarray(expected, { minLength: expected.length }), { numRuns: 1, seed: 28 })[0]!;
        for (const order of [expected.toSorted((a, b) => a.value.line - b.value.line || a.value.column - b.value.column), backwards, shuffled]) {
          const map = SourceMap.of(variant);
          expect(order.map(({ pointer }) => ({ pointer, value: map.locate(pointer, "value") })), name).toEqual(order);
        }
      }
    }
  });

  it("points at the object a member is missing from, by its name, or at its brace when it has none", () => {
    const text = '{\n  "a": {\n    "b": [ {"c": 1} ]\n  }\n}';
    const map = SourceMap.of(text);
    expect(map.locate("/a/missing", "parent")).toEqual({ line: 2, column: 3, endLine: 2, endColumn: 6 });
    expect(map.locate("/a/b/0/missing", "parent")).toEqual({ line: 3, column: 12, endLine: 3, endColumn: 13 });
    expect(map.locate("/missing", "parent")).toEqual({ line: 1, column: 1, endLine: 1, endColumn: 2 });
  });

  it("falls back to the nearest written parent for a path that is not in the text", () => {
    const map = SourceMap.of('{"a": {"b": 1}, "list": [1, 2]}');
    expect(map.locate("/a/x", "value")).toEqual({ line: 1, column: 2, endLine: 1, endColumn: 5 });
    expect(map.locate("/list/7", "value")).toEqual({ line: 1, column: 17, endLine: 1, endColumn: 23 });
    expect(map.locate("/list/-1", "value")).toEqual(map.locate("/list/7", "value"));
    expect(map.locate("/a/b/deeper", "value")).toEqual({ line: 1, column: 8, endLine: 1, endColumn: 11 });
  });

  it("reads member names with escapes, and keeps the last of duplicate members", () => {
    const text = '{"a\\"b": 1, "x\\u002Fy": [true], "dup": 1, "dup": {"in": null}}';
    const map = SourceMap.of(text);
    expect(map.locate(joinPointer("", 'a"b'), "value")).toMatchObject({ column: 10, endColumn: 11 });
    expect(map.locate(joinPointer(joinPointer("", "x/y"), 0), "value")).toMatchObject({ column: 26, endColumn: 30 });
    expect(map.locate("/dup/in", "value")).toMatchObject({ column: 57, endColumn: 61 });
    expect(map.locate("/dup", "key")).toMatchObject({ column: 43, endColumn: 48 });
  });

  it("finds duplicate members at any depth in text order, with the later name's position", () => {
    const text = '{"k": 1,\n "list": [{"k": 1, "k": 2}, {"x": [{"y": 1, "y\\u0000": 2, "y": 3}]}],\n "k": 2}';
    expect(SourceMap.of(text).duplicateKeys()).toEqual([
      { objectPointer: "/list/0", key: "k", span: { line: 2, column: 20, endLine: 2, endColumn: 23 } },
      { objectPointer: "/list/1/x/0", key: "y", span: { line: 2, column: 59, endLine: 2, endColumn: 62 } },
      { objectPointer: "", key: "k", span: { line: 3, column: 2, endLine: 3, endColumn: 5 } },
    ]);
  });

  it("walks 100,000 levels of nesting without a stack", () => {
    const depth = 100_000;
    const text = `{"a": ${"[".repeat(depth)}{"b": 1, "b": 2}${"]".repeat(depth)}}`;
    const map = SourceMap.of(text);
    const pointer = `/a${"/0".repeat(depth)}/b`;
    expect(map.locate(pointer, "value")).toEqual({ line: 1, column: depth + 21, endLine: 1, endColumn: depth + 22 });
    expect(map.duplicateKeys()).toEqual([{ objectPointer: `/a${"/0".repeat(depth)}`, key: "b", span: { line: 1, column: depth + 16, endLine: 1, endColumn: depth + 19 } }]);
  });

  it("takes the first member of a name when the text is known to have no duplicates, so deep objects cost one pass", () => {
    const depth = 100_000;
    const text = `${'{"a": '.repeat(depth)}1${"}".repeat(depth)}`;
    const map = SourceMap.of(text, true);
    expect(map.locate("/a".repeat(depth), "value")).toEqual({ line: 1, column: depth * 6 + 1, endLine: 1, endColumn: depth * 6 + 2 });
  });

  it("finds each feature of a 20,000-feature collection in one pass over the text", () => {
    const count = 20_000;
    const features = Array.from({ length: count }, (_, index) => ({ type: "Feature", id: String(index), properties: { n: index } }));
    const text = JSON.stringify({ type: "FeatureCollection", features }, null, 1);
    const map = SourceMap.of(text, true);
    // Seven lines a feature, after three lines of heading; a walk from the start for each feature would take minutes here.
    for (let index = 0; index < count; index++) expect(map.locate(`/features/${index}/properties/n`, "value").line).toBe(index * 7 + 8);
  });

  it("finds a member by a search for its name only where the name is written once and the member is there", () => {
    const text = '{"a": {"x": 1, "note": "y"}, "b": {}, "c": {"y": ["x"]}, "y": 2}';
    const map = SourceMap.of(text, true, JSON.parse(text));
    // /b/x is missing: the "x" written in /a is not its place, nor the string "x" in /c.
    expect(map.locate("/b/x", "value")).toEqual(SourceMap.of(text).locate("/b", "key"));
    expect(map.locate("/a/x", "key")).toMatchObject({ column: 8, endColumn: 11 });
    // "y" is written as a name twice (and once as a string): the walk finds each.
    expect(map.locate("/y", "value")).toMatchObject({ column: 63, endColumn: 64 });
    expect(map.locate("/c/y/0", "value")).toMatchObject({ column: 51, endColumn: 54 });
  });

  it("agrees with the walk on every pointer, present or missing, of random documents whose names repeat and look like JSON", () => {
    // Names that start like what follows a closing quote, names with escapes, and names that are also string values.
    const name = fc.constantFrom("a", "b", "fair:x", "", ",a", ":", " a", "}", "]", "a b", "é", 'q"', "back\\slash", "0", "1");
    const leaf = fc.oneof(fc.constant(null), fc.integer(), name);
    const { value } = fc.letrec((tie) => ({
      value: fc.oneof({ depthSize: "small", withCrossShrink: true }, leaf, fc.array(tie("value"), { maxLength: 4 }), fc.dictionary(name, tie("value"), { maxKeys: 5 })),
    }));
    fc.assert(
      fc.property(value, fc.constantFrom(undefined, 1, 4, "\t"), (document, indent) => {
        const text = JSON.stringify(document, null, indent);
        const parsed: unknown = JSON.parse(text);
        const searched = SourceMap.of(text, true, parsed);
        const walked = SourceMap.of(text);
        for (const pointer of oracle(text).keys()) {
          for (const asked of [pointer, joinPointer(pointer, "a"), joinPointer(pointer, 0), joinPointer(joinPointer(pointer, "zz"), "a")]) {
            for (const target of ["value", "key", "parent"] as const) expect(searched.locate(asked, target), `${asked} ${target}`).toEqual(walked.locate(asked, target));
          }
        }
      }),
      { numRuns: 500 },
    );
  });
});
