import { CHAR, nameAt, skipSpace, stringEnd, valueEnd } from "./json-scan.js";
import { joinPointer, splitPointer } from "../../diagnostics/pointer.js";

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

/** Where a value is written: its offset and, for an object member, its name and the name's offsets. */
interface Entry {
  start: number;
  name?: string;
  key?: { start: number; end: number };
}

/** An open container while the whole text is scanned: its pointer, and for an object the names seen so far. */
interface Frame {
  pointer: string;
  names?: Set<string>;
  /** The name of the member being read (objects). */
  key: string;
  /** The index of the element being read (arrays). */
  index: number;
}

/**
 * The members or elements of one object or array, read from the text only as far as lookups
 * have needed: a later lookup in the same container goes on from there.
 */
class Entries {
  readonly list: Entry[] = [];
  /** Members by name; of duplicates, the last read. */
  readonly byName = new Map<string, Entry>();
  /** The opening bracket, then the value of the last entry read (still to be stepped over). */
  private at: number;
  private done = false;

  constructor(
    private readonly text: string,
    open: number,
    private readonly object: boolean,
  ) {
    this.at = open;
  }

  /** Reads one more entry; undefined once the container has no more. */
  next(): Entry | undefined {
    if (this.done) return undefined;
    const text = this.text;
    let i: number;
    if (this.list.length === 0) {
      i = skipSpace(text, this.at + 1);
      this.done = text.charCodeAt(i) === (this.object ? CHAR.CLOSE_BRACE : CHAR.CLOSE_BRACKET);
    } else {
      i = skipSpace(text, valueEnd(text, this.at));
      this.done = text.charCodeAt(i) !== CHAR.COMMA;
      i = skipSpace(text, i + 1);
    }
    if (this.done) return undefined;
    let entry: Entry = { start: i };
    if (this.object) {
      const keyEnd = stringEnd(text, i);
      const name = nameAt(text, i, keyEnd);
      entry = { start: skipSpace(text, skipSpace(text, keyEnd) + 1), name, key: { start: i, end: keyEnd } };
      this.byName.set(name, entry);
    }
    this.list.push(entry);
    this.at = entry.start;
    return entry;
  }
}

/** How many times its length a text's searches for members by name may read, in all (see namedOnce). */
const SEARCH_PASSES = 4;

/** How many lines apart the line starts kept for positions before the furthest are (see SourceMap.marks). */
const LINES_PER_MARK = 64;

const DOCUMENT_START: Span = { line: 1, column: 1, endLine: 1, endColumn: 2 };

/**
 * Positions of the values of one JSON text that JSON.parse accepted, found by pointer. A lookup
 * walks the text along the pointer and steps over everything else, so nothing is built for
 * values no issue points at, and nesting depth costs no stack. What a walk has read of a
 * container is kept, so the features of a large collection are each found once.
 */
export class SourceMap {
  /**
   * The furthest line start read so far, and its line: lines are counted only as far into the
   * text as a position was asked for. A file's issues mostly lie in its first part (a real fAIr
   * item's warnings, in properties), and the rest of the text is not scanned for line breaks.
   */
  private furthestLine = 1;
  private furthestStart = 0;
  /**
   * The start of every LINES_PER_MARK-th line up to the furthest: a position before the furthest
   * is counted from the mark before it, not from the start of the text. Only one line in so many
   * is kept: keeping every line's start cost twice what counting them did.
   */
  private readonly marks = [0];
  /**
   * CR and CR LF breaks need a search for either; a text with LF alone (most) is searched for
   * "\n", which is several times faster. Looked for once a position is asked for (false: LF alone).
   */
  private lineBreaks?: RegExp | false;
  /** The containers lookups have entered, by the offset of their opening bracket. */
  private readonly containers = new Map<number, Entries>();
  /** How many more characters searches for a member by its name may read (see namedOnce). */
  private searchBudget: number;
  /** Whether the text holds a backslash, looked for once a lookup asks. */
  private escapes?: boolean;

  private constructor(
    private readonly text: string,
    private readonly keysUnique: boolean,
    private readonly value: unknown,
  ) {
    this.searchBudget = keysUnique && value !== undefined ? SEARCH_PASSES * text.length : 0;
  }

  /**
   * The map of a text that JSON.parse accepted. `keysUnique` says no object of the text writes a
   * name twice: a lookup then stops at the first match instead of reading on to the last. With
   * it, `value` (what JSON.parse made of the text) lets a lookup find a member whose name the
   * text writes once by a search for that name, without stepping over what comes before it.
   */
  static of(text: string, keysUnique = false, value?: unknown): SourceMap {
    return new SourceMap(text, keysUnique, value);
  }

  /** Line breaks are LF, CR or CR LF, as editors count them; columns count UTF-16 code units. */
  private position(offset: number): { line: number; column: number } {
    const ahead = offset >= this.furthestStart;
    let line = this.furthestLine;
    let start = this.furthestStart;
    if (!ahead) {
      // The last mark at or before the offset.
      let low = 0;
      let high = this.marks.length - 1;
      while (low < high) {
        const middle = (low + high + 1) >> 1;
        if (this.marks[middle]! <= offset) low = middle;
        else high = middle - 1;
      }
      line = low * LINES_PER_MARK + 1;
      start = this.marks[low]!;
    }
    for (let next = this.nextLineStart(start); next !== -1 && next <= offset; next = this.nextLineStart(start)) {
      line++;
      start = next;
      if (ahead && line % LINES_PER_MARK === 1) this.marks.push(start);
    }
    if (ahead) {
      this.furthestLine = line;
      this.furthestStart = start;
    }
    return { line, column: offset - start + 1 };
  }

  /** Where the line after the one starting at `from` starts, or -1 when that is the last. */
  private nextLineStart(from: number): number {
    this.lineBreaks ??= this.text.includes("\r") ? /\r\n?|\n/g : false;
    if (this.lineBreaks === false) {
      const at = this.text.indexOf("\n", from);
      return at === -1 ? -1 : at + 1;
    }
    this.lineBreaks.lastIndex = from;
    return this.lineBreaks.exec(this.text) ? this.lineBreaks.lastIndex : -1;
  }

  private span(start: number, end: number): Span {
    const from = this.position(start);
    const to = this.position(end);
    return { line: from.line, column: from.column, endLine: to.line, endColumn: to.column };
  }

  private entriesAt(open: number, object: boolean): Entries {
    let entries = this.containers.get(open);
    if (!entries) {
      entries = new Entries(this.text, open, object);
      this.containers.set(open, entries);
    }
    return entries;
  }

  /** The value at a pointer and, when it is an object member, that member's name. */
  private find(pointer: string): Entry | undefined {
    const segments = splitPointer(pointer);
    const [start, walked] = this.deepestNamedOnce(segments) ?? [{ start: skipSpace(this.text, 0) }, 0];
    let found: Entry | undefined = start;
    for (const segment of segments.slice(walked)) {
      const open = this.text.charCodeAt(found.start);
      if (open === CHAR.OPEN_BRACE) found = this.member(this.entriesAt(found.start, true), segment);
      else if (open === CHAR.OPEN_BRACKET) found = this.element(this.entriesAt(found.start, false), Number(segment));
      else return undefined;
      if (!found) return undefined;
    }
    return found;
  }

  /**
   * The deepest member along a pointer that namedOnce finds, with how many segments lead to it;
   * the walk goes on from there. Only members the value holds are looked for: a name written
   * once elsewhere is not the place of a member that is missing.
   */
  private deepestNamedOnce(segments: readonly string[]): [Entry, number] | undefined {
    // A text with a backslash may write a name with escapes, which a search for its plain spelling would miss.
    if (this.searchBudget <= 0 || (this.escapes ??= this.text.includes("\\"))) return undefined;
    const holders: object[] = [];
    let node = this.value;
    for (const segment of segments) {
      if (node === null || typeof node !== "object" || !Object.hasOwn(node, segment)) break;
      holders.push(node);
      node = (node as Record<string, unknown>)[segment];
    }
    for (let depth = holders.length - 1; depth >= 0 && this.searchBudget > 0; depth--) {
      if (Array.isArray(holders[depth])) continue;
      const found = this.namedOnce(segments[depth]!);
      if (found) return [found, depth + 1];
    }
    return undefined;
  }

  /**
   * The member named `name` when the text writes `"name":` once, found by a search for it. Only
   * for a text without escapes, with no name twice in one object, whose value holds such a member:
   * every member of that name is then written so, so one match is its place. A match that is no
   * name at all (a quote that closes a string, then text that reads like the name) only makes
   * two, and the walk decides. Searches stop once they have read SEARCH_PASSES times the text,
   * so many issues cost no more than a walk.
   */
  private namedOnce(name: string): Entry | undefined {
    const text = this.text;
    // The name and its closing quote, its opening quote checked apart: a search that starts with a
    // quote, the commonest character of JSON, runs about half as fast.
    const tail = JSON.stringify(name).slice(1);
    let found: Entry | undefined;
    let at = text.indexOf(tail);
    for (; at !== -1; at = text.indexOf(tail, at + 1)) {
      const keyEnd = at + tail.length;
      const colon = skipSpace(text, keyEnd);
      if (text.charCodeAt(at - 1) !== CHAR.QUOTE || text.charCodeAt(colon) !== CHAR.COLON) continue;
      if (found) break;
      found = { start: skipSpace(text, colon + 1), name, key: { start: at - 1, end: keyEnd } };
    }
    this.searchBudget -= at === -1 ? text.length : at;
    return at === -1 ? found : undefined;
  }

  /** JSON.parse keeps the last of duplicate members, so the last one is the value that was validated. */
  private member(entries: Entries, name: string): Entry | undefined {
    if (!this.keysUnique) {
      while (entries.next());
      return entries.byName.get(name);
    }
    let found = entries.byName.get(name);
    while (!found) {
      const entry = entries.next();
      if (!entry) return undefined;
      if (entry.name === name) found = entry;
    }
    return found;
  }

  private element(entries: Entries, index: number): Entry | undefined {
    if (!Number.isInteger(index) || index < 0) return undefined;
    while (entries.list.length <= index && entries.next());
    return entries.list[index];
  }

  locate(pointer: string, target: Target): Span {
    if (target === "parent") {
      const parent = this.find(pointer.slice(0, pointer.lastIndexOf("/")));
      if (!parent) return DOCUMENT_START;
      if (parent.key) return this.span(parent.key.start, parent.key.end);
      return this.span(parent.start, parent.start + 1);
    }
    const found = this.find(pointer);
    if (!found) return pointer === "" ? DOCUMENT_START : this.locate(pointer, "parent");
    if (target === "key" && found.key) return this.span(found.key.start, found.key.end);
    return this.span(found.start, valueEnd(this.text, found.start));
  }

  /** Every member written twice in the same object, in the order of the text: one pass, no recursion. */
  duplicateKeys(): DuplicateKey[] {
    const text = this.text;
    const found: DuplicateKey[] = [];
    const open: Frame[] = [];
    for (let i = skipSpace(text, 0); i < text.length; i = skipSpace(text, i)) {
      const c = text.charCodeAt(i);
      const top = open.at(-1);
      if (c === CHAR.OPEN_BRACE || c === CHAR.OPEN_BRACKET) {
        const pointer = top ? joinPointer(top.pointer, top.names ? top.key : top.index) : "";
        open.push({ pointer, names: c === CHAR.OPEN_BRACE ? new Set() : undefined, key: "", index: 0 });
        i++;
      } else if (c === CHAR.CLOSE_BRACE || c === CHAR.CLOSE_BRACKET) {
        open.pop();
        i++;
      } else if (c === CHAR.COMMA) {
        if (top) top.index++;
        i++;
      } else if (c === CHAR.QUOTE && top?.names && text.charCodeAt(skipSpace(text, stringEnd(text, i))) === CHAR.COLON) {
        const end = stringEnd(text, i);
        const key = nameAt(text, i, end);
        if (top.names.has(key)) found.push({ objectPointer: top.pointer, key, span: this.span(i, end) });
        top.names.add(key);
        top.key = key;
        i = skipSpace(text, end) + 1;
      } else {
        i = valueEnd(text, i);
      }
    }
    return found;
  }
}
