import { parse, type AnyNode } from "@humanwhocodes/momoa";
import { describe, expect, it } from "vitest";
import { createRandom, type Random } from "../../../src/server/demo/random.js";
import { mayHaveDuplicateKeys } from "../../../src/validator/item/decode.js";
import { validateItemText } from "../../../src/index.js";

/** Whether any object of the text writes a name twice, by momoa's tree: an independent answer. */
function repeatsAName(text: string): boolean {
  const pending: AnyNode[] = [parse(text).body];
  while (pending.length > 0) {
    const node = pending.pop()!;
    if (node.type === "Object") {
      const names = node.members.map((member) => (member.name as { value: string }).value);
      if (new Set(names).size !== names.length) return true;
      pending.push(...node.members.map((member) => member.value));
    } else if (node.type === "Array") pending.push(...node.elements.map((element) => element.value));
  }
  return false;
}

// Names and strings full of what could fool a colon count: colons, escaped quotes and
// backslashes, and colons written as the escape \u003a.
const WORDS = ["a", "b", "mlm:name", "fair:x:y", ":", 'q"', "\\", "c\\:", "x\\u003ay", "::"];
// Few names, so that objects often repeat one.
const NAMES = WORDS.slice(2, 6);

function stringText(random: Random, words = WORDS): string {
  const text = JSON.stringify(random.pick(words) + (random.chance(0.5) ? random.pick(words) : ""));
  return random.chance(0.2) ? text.replace(/(?<!\\):/, "\\u003a") : text;
}

function valueText(random: Random, depth: number): string {
  const kind = depth > 3 ? random.int(0, 1) : random.int(0, 3);
  if (kind === 0) return String(random.int(-5, 5));
  if (kind === 1) return stringText(random);
  const count = random.int(0, 4);
  const parts = Array.from({ length: count }, () => (kind === 2 ? valueText(random, depth + 1) : `${stringText(random, NAMES)} : ${valueText(random, depth + 1)}`));
  return kind === 2 ? `[${parts.join(",")}]` : `{${parts.join(",\n")}}`;
}

describe("mayHaveDuplicateKeys", () => {
  it("never misses a repeated name, and answers no to a text without one unless a string starts with a colon or holds an escaped quote before one", () => {
    const random = createRandom(20261122);
    let repeated = 0;
    for (let i = 0; i < 5000; i++) {
      const text = valueText(random, 0);
      const maybe = mayHaveDuplicateKeys(text, JSON.parse(text));
      if (repeatsAName(text)) {
        repeated++;
        expect(maybe, text).toBe(true);
      } else if (!/(?:\\"|[{[,:]\s*")\s*:/.test(text)) expect(maybe, text).toBe(false);
    }
    // The generator must exercise both answers.
    expect(repeated).toBeGreaterThan(500);
    expect(repeated).toBeLessThan(4500);
  });

  it("finds a repeated name whose dropped value holds colons, and one hidden behind a \\u003a", () => {
    expect(mayHaveDuplicateKeys('{"a":"x:y","a":"z"}', { a: "z" })).toBe(true);
    // A colon written as \u003a is no colon of the text's: it hides nothing.
    const hidden = '{"a":1,"a":2,"b":"\\u003a"}';
    expect(mayHaveDuplicateKeys(hidden, JSON.parse(hidden))).toBe(true);
  });

  it("answers maybe for a string whose opening or escaped quote stands before a colon, as a name's would", () => {
    expect(mayHaveDuplicateKeys('{"a": "q\\" : x", "b": 1}', { a: 'q" : x', b: 1 })).toBe(true);
    expect(mayHaveDuplicateKeys('{"a": ":x"}', { a: ":x" })).toBe(true);
  });

  it("answers no for a value without objects", () => {
    expect(mayHaveDuplicateKeys('"a:b"', "a:b")).toBe(false);
    expect(mayHaveDuplicateKeys("[1, 2]", [1, 2])).toBe(false);
  });
});

describe("duplicate keys through validateItemText", () => {
  it("reports a repeated name hidden behind a \\u003a, and nothing for a \\u003a alone", () => {
    const hidden = validateItemText('{"type":"Feature","type":"Feature","note":"\\u003a"}');
    expect(hidden.warnings.concat(hidden.errors).filter((issue) => issue.rule === "duplicate-key").map((issue) => issue.path)).toEqual(["/type"]);
    const alone = validateItemText('{"type":"Feature","note":"\\u003a"}');
    expect(alone.warnings.concat(alone.errors).filter((issue) => issue.rule === "duplicate-key")).toEqual([]);
  });
});
