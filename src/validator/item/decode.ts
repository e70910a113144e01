import type { Issue } from "../../diagnostics/issue.js";
import { ruleById } from "../../diagnostics/rules.js";
import { syntaxProblem } from "./syntax.js";

export type Parsed = { value: unknown } | { issue: Issue };

function problem(rule: "json-syntax" | "encoding", message: string, line = 1, column = 1): Issue {
  return { rule, severity: ruleById(rule).severity, path: "", message, line, column, endLine: line, endColumn: column + 1 };
}

/** Byte offset of the first byte that breaks UTF-8 (only called once decoding has failed). */
function firstInvalidUtf8(bytes: Uint8Array): number {
  let i = 0;
  while (i < bytes.length) {
    const b = bytes[i]!;
    const length = b < 0x80 ? 1 : b >= 0xc2 && b <= 0xdf ? 2 : b >= 0xe0 && b <= 0xef ? 3 : b >= 0xf0 && b <= 0xf4 ? 4 : 0;
    if (length === 0) return i;
    for (let k = 1; k < length; k++) {
      const c = bytes[i + k];
      if (c === undefined || (c & 0xc0) !== 0x80) return i;
    }
    const second = bytes[i + 1]!;
    // Overlong forms, UTF-16 surrogates and code points above U+10FFFF.
    if ((b === 0xe0 && second < 0xa0) || (b === 0xed && second > 0x9f) || (b === 0xf0 && second < 0x90) || (b === 0xf4 && second > 0x8f)) return i;
    i += length;
  }
  return bytes.length;
}

const strictUtf8 = new TextDecoder("utf-8", { fatal: true });
// TextDecoder, not Node's Buffer: bytes are decoded the same in browsers (the validator page), and
// the byte-order mark is kept here, as the text of a file holds it, to be dropped below.
const utf8 = new TextDecoder("utf-8", { ignoreBOM: true });

/**
 * Text of a file's bytes; a byte-order mark is dropped. Decoding replaces bad bytes with U+FFFD,
 * so only a text that holds U+FFFD pays for the strict check that tells a real U+FFFD from bad bytes.
 */
export function decodeText(input: string | Uint8Array): { text: string } | { issue: Issue } {
  const text = typeof input === "string" ? input : utf8.decode(input);
  if (typeof input !== "string" && text.includes("\uFFFD")) {
    try {
      strictUtf8.decode(input);
    } catch {
      const offset = firstInvalidUtf8(input);
      const before = utf8.decode(input.subarray(0, offset));
      const line = before.split("\n").length;
      const column = before.length - before.lastIndexOf("\n");
      const byte = input[offset];
      const what = byte === undefined ? "a sequence cut short at the end" : `byte 0x${byte.toString(16).padStart(2, "0")} at offset ${offset}`;
      return { issue: problem("encoding", `the text is not valid UTF-8 (${what})`, line, column) };
    }
  }
  return { text: text.charCodeAt(0) === 0xfeff ? text.slice(1) : text };
}

/** JSON.parse first: a text that parses pays nothing more. Only a failure is explained with a position. */
export function parseJson(text: string): Parsed {
  try {
    return { value: JSON.parse(text) };
  } catch (error) {
    if (text.trim() === "") return { issue: problem("json-syntax", "the text is empty; a base model item is a JSON object") };
    const nul = text.indexOf("\u0000");
    if (nul !== -1) {
      const before = text.slice(0, nul);
      return { issue: problem("encoding", "the file is binary (it holds NUL bytes), not JSON text", before.split("\n").length, nul - before.lastIndexOf("\n")) };
    }
    const found = syntaxProblem(text, error as Error);
    const issue = problem("json-syntax", `JSON syntax error: ${found.message}`, found.line, found.column);
    if (found.suggestion !== undefined) issue.suggestion = found.suggestion;
    return { issue };
  }
}

const QUOTE = 0x22;

/** Whether a code unit is JSON white space. */
const isJsonSpace = (code: number) => code === 0x20 || code === 0x0a || code === 0x0d || code === 0x09;

/**
 * The ":" of a text that follow a '"' (white space between): one ends every member's name; inside
 * a string only its opening quote or an escaped one can stand before one. One engine search per colon.
 */
function nameColons(text: string): number {
  let count = 0;
  for (let at = text.indexOf(":"); at !== -1; at = text.indexOf(":", at + 1)) {
    let before = at - 1;
    while (isJsonSpace(text.charCodeAt(before))) before--;
    if (text.charCodeAt(before) === QUOTE) count++;
  }
  return count;
}

/**
 * The members of every object in a parsed value, without recursion (nesting depth is unbounded).
 * for...in, which allocates nothing: in a run of the CLI, where this code is still cold, it cost
 * half what Object.values did on fAIr's real items and a third on the synthetic corpus.
 */
function memberCount(value: unknown): number {
  let count = 0;
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const node = stack.pop() as Record<string, unknown>;
    if (Array.isArray(node)) {
      for (let index = 0; index < node.length; index++) {
        const child: unknown = node[index];
        if (child !== null && typeof child === "object") stack.push(child);
      }
    } else {
      for (const name in node) {
        count++;
        const child = node[name];
        if (child !== null && typeof child === "object") stack.push(child);
      }
    }
  }
  return count;
}

/**
 * Whether an object of the text may write a name twice: a cheap test that costs no position
 * parse and never answers no for a text that does. Every member written ends its name with '"'
 * and ":", and JSON.parse keeps one member per name, so a repeated name leaves the value with
 * fewer members than the text has such colons. A string that starts with a colon, or holds an
 * escaped quote before one, adds one more and makes a maybe, for the position parse to settle.
 */
export function mayHaveDuplicateKeys(text: string, value: unknown): boolean {
  if (value === null || typeof value !== "object") return false;
  return nameColons(text) !== memberCount(value);
}
