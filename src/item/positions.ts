import { parse, type AnyNode, type LocationRange, type MemberNode } from "@humanwhocodes/momoa";
import { joinPointer, splitPointer } from "./pointer.js";

/** A 1-based range of text; the end is exclusive. */
export interface Span {
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
}

export interface DuplicateKey {
  /** Pointer of the object holding the key twice. */
  objectPointer: string;
  key: string;
  /** Where the later (winning) occurrence is written. */
  span: Span;
}

/** What to point at for an issue: the value, the member's name, or the object a member is missing from. */
export type Target = "value" | "key" | "parent";

/** Member names are strings in JSON mode (identifiers only in JSON5). */
function nameOf(member: MemberNode): string {
  return member.name.type === "String" ? member.name.value : member.name.name;
}

function spanOf(loc: LocationRange): Span {
  return { line: loc.start.line, column: loc.start.column, endLine: loc.end.line, endColumn: loc.end.column };
}

const DOCUMENT_START: Span = { line: 1, column: 1, endLine: 1, endColumn: 2 };

/** Positions of the values of one JSON text, found by pointer. Built only when something needs a position. */
export class SourceMap {
  private constructor(private readonly root: AnyNode) {}

  /**
   * The map of a text that JSON.parse accepted, or undefined when the text nests too deeply
   * for the position parser (issues then carry no position).
   */
  static of(text: string): SourceMap | undefined {
    try {
      return new SourceMap(parse(text, { mode: "json" }).body);
    } catch (error) {
      if (error instanceof RangeError) return undefined;
      throw error;
    }
  }

  /** The node at a pointer and, when it is an object member, that member. */
  private find(pointer: string): { node: AnyNode; member?: MemberNode } | undefined {
    let node: AnyNode = this.root;
    let member: MemberNode | undefined;
    for (const segment of splitPointer(pointer)) {
      if (node.type === "Object") {
        // JSON.parse keeps the last of duplicate members, so the last one is the value that was validated.
        member = node.members.findLast((candidate) => nameOf(candidate) === segment);
        if (!member) return undefined;
        node = member.value;
      } else if (node.type === "Array") {
        const element = node.elements[Number(segment)];
        if (!element) return undefined;
        member = undefined;
        node = element.value;
      } else {
        return undefined;
      }
    }
    return member ? { node, member } : { node };
  }

  locate(pointer: string, target: Target): Span {
    if (target === "parent") {
      const parent = this.find(pointer.slice(0, pointer.lastIndexOf("/")));
      if (!parent) return DOCUMENT_START;
      if (parent.member) return spanOf(parent.member.name.loc);
      const start = parent.node.loc.start;
      return { line: start.line, column: start.column, endLine: start.line, endColumn: start.column + 1 };
    }
    const found = this.find(pointer);
    if (!found) return pointer === "" ? DOCUMENT_START : this.locate(pointer, "parent");
    if (target === "key" && found.member) return spanOf(found.member.name.loc);
    return spanOf(found.node.loc);
  }

  /** Every member written twice in the same object, without recursion (nesting depth is unbounded). */
  duplicateKeys(): DuplicateKey[] {
    const found: DuplicateKey[] = [];
    const stack: Array<{ node: AnyNode; pointer: string }> = [{ node: this.root, pointer: "" }];
    while (stack.length > 0) {
      const { node, pointer } = stack.pop()!;
      if (node.type === "Object") {
        const names = new Set<string>();
        for (const member of node.members) {
          const key = nameOf(member);
          if (names.has(key)) found.push({ objectPointer: pointer, key, span: spanOf(member.name.loc) });
          names.add(key);
          stack.push({ node: member.value, pointer: joinPointer(pointer, key) });
        }
      } else if (node.type === "Array") {
        node.elements.forEach((element, index) => stack.push({ node: element.value, pointer: joinPointer(pointer, index) }));
      }
    }
    return found.sort((a, b) => a.span.line - b.span.line || a.span.column - b.span.column);
  }
}

export interface SyntaxProblem {
  message: string;
  line: number;
  column: number;
}

/** Parser messages quote the offending character: a control character is shown as its escape, never sent raw to a terminal. */
function printable(message: string): string {
  return message.replace(/[\u0000-\u001f\u007f-\u009f]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

function positionAt(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset);
  const lastBreak = before.lastIndexOf("\n");
  return { line: before.split("\n").length, column: offset - lastBreak };
}

/**
 * Why JSON.parse rejected a text, at a line and column. A text that stops early (V8 says so, or
 * places the error at its very end) is reported at its end: the position parser would name the
 * last token it saw, or 1:1.
 */
export function syntaxProblem(text: string, parseError: Error): SyntaxProblem {
  const v8Offset = /position (\d+)/.exec(parseError.message);
  const end = text.trimEnd().length;
  if (/end of JSON input/.test(parseError.message) || (v8Offset && Number(v8Offset[1]) >= end)) {
    return { message: "Unexpected end of input: the text stops before the JSON value is complete", ...positionAt(text, end) };
  }
  try {
    parse(text, { mode: "json" });
  } catch (error) {
    const e = error as Error & { line?: number; column?: number };
    if (typeof e.line === "number" && typeof e.column === "number") {
      return { message: printable(e.message.replace(/\s*\(\d+:\d+\)$/, "")), line: e.line, column: e.column };
    }
  }
  // The position parser overflowed or disagreed: fall back to the offset V8 gives, if any.
  return { message: printable(parseError.message), ...(v8Offset ? positionAt(text, Number(v8Offset[1])) : { line: 1, column: 1 }) };
}
