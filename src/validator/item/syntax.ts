/**
 * Why JSON.parse rejected a text, in words, at the line and column to look at. The text is read
 * once more by a scanner that knows the mistakes people make when they write JSON by hand: a
 * trailing comma, a missing comma or colon, single quotes, an unquoted name, a comment, NaN,
 * Python's True and None, a string or bracket left open. It runs only after JSON.parse failed.
 */

export interface SyntaxProblem {
  message: string;
  line: number;
  column: number;
  suggestion?: string;
}

/** The library's hint for text that holds one JSON document per line; the CLI says it in its own terms. */
export const NDJSON_HINT = 'read it as NDJSON, one item per line: validateDocumentText(text, { format: "ndjson" })';

interface Found {
  message: string;
  offset: number;
  suggestion?: string;
}

/** An open object or array: where it opened and, for an object, the name of the member being read. */
interface Frame {
  object: boolean;
  open: number;
  key?: string;
  /** Offset just past the member name (where a missing colon belongs). */
  keyEnd: number;
}

/**
 * What the scanner waits for next. "first-value" and "first-key" follow an opening bracket (a
 * closing one may come instead); "value" and "key" follow a comma or a colon (it may not).
 */
type Expect = "value" | "first-value" | "key" | "first-key" | "colon" | "after-value" | "end";

const JSON_SPACE = new Set([0x20, 0x09, 0x0a, 0x0d]);
/** White space JavaScript knows and JSON does not: pasted from a web page or a word processor. */
const OTHER_SPACE = /[\u00a0\u1680\u2000-\u200b\u2028\u2029\u202f\u205f\u3000\ufeff]/;
/** Characters that end a bare word (a number, true, NaN, an unquoted name). */
const WORD_END = /[\s{}[\]:,"'/\u00a0\u1680\u2000-\u200b\u2028\u2029\u202f\u205f\u3000\ufeff]/;
/** Characters that start a bare word worth naming: a number, a literal, an unquoted name. */
const WORD_START = /[\w$+.-]/;
const NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;

const SPACE_NAMES: Record<string, string> = {
  "\u00a0": "a no-break space (U+00A0)",
  "\u200b": "a zero-width space (U+200B)",
  "\u2028": "a line separator (U+2028)",
  "\u2029": "a paragraph separator (U+2029)",
  "\ufeff": "a byte-order mark (U+FEFF)",
};

/** A control character as its escape, never raw on a terminal. */
function printable(text: string): string {
  return text.replace(/[\u0000-\u001f\u007f-\u009f]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

const codePoint = (char: string) => `U+${char.codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0")}`;

/** Line breaks are LF, CR or CR LF, as editors (and the positions of schema issues) count them. */
function positionAt(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < offset; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x0a || (c === 0x0d && text.charCodeAt(i + 1) !== 0x0a)) {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: offset - lineStart + 1 };
}

/** A bare word in words: why it is not a JSON value, and what was likely meant. */
function badWord(word: string, asName: boolean): { message: string; suggestion?: string } {
  const shown = printable(word.length > 40 ? `${word.slice(0, 39)}…` : word);
  if (/^[+-]?(?:NaN|Infinity|inf)$/i.test(word)) return { message: `${shown} is not a JSON number; JSON has no NaN or infinity`, suggestion: "write null, or a number" };
  const literal = ({ true: "true", false: "false", null: "null", none: "null", nil: "null", undefined: "null" } as Record<string, string>)[word.toLowerCase()];
  if (literal !== undefined && !asName) return { message: `${shown} is not a JSON value`, suggestion: `did you mean ${literal}?` };
  if (/^[-+.\d]/.test(word)) {
    const why = /^[-+]?0[xX]/.test(word)
      ? "JSON numbers are decimal"
      : word.startsWith("+")
        ? "JSON numbers have no plus sign"
        : /^-?0\d/.test(word)
          ? "JSON numbers have no leading zeros"
          : /^-?\./.test(word)
            ? "a digit must come before the decimal point"
            : /\.(?:$|[eE])/.test(word)
              ? "a digit must follow the decimal point"
              : /[eE][+-]?$/.test(word)
                ? "the exponent has no digits"
                : undefined;
    if (!asName) return { message: `${shown} is not a JSON number${why ? `: ${why}` : ""}` };
  }
  const quoted = JSON.stringify(word);
  return asName
    ? { message: `the member name ${shown} is not quoted; JSON member names take double quotes`, suggestion: `write ${quoted}` }
    : { message: `unquoted text ${shown}; JSON strings take double quotes`, suggestion: `write ${quoted}` };
}

class Scanner {
  private i = 0;
  private readonly open: Frame[] = [];
  private expect: Expect = "value";
  /** The comma just read, if the scanner stands right after one: a closing bracket then makes it a trailing comma. */
  private comma = -1;
  /** Offset just past the last value read: where a missing comma belongs. */
  private valueEnd = 0;

  constructor(private readonly text: string) {}

  private at(offset: number, message: string, suggestion?: string): Found {
    return suggestion === undefined ? { message, offset } : { message, offset, suggestion };
  }

  private where(offset: number): string {
    const { line, column } = positionAt(this.text, offset);
    return `${line}:${column}`;
  }

  /** Skips JSON white space; white space JSON does not know is a problem. */
  private skipSpace(): Found | undefined {
    const text = this.text;
    while (this.i < text.length) {
      const c = text.charCodeAt(this.i);
      if (JSON_SPACE.has(c)) this.i++;
      else if (OTHER_SPACE.test(text[this.i]!)) {
        const char = text[this.i]!;
        return this.at(this.i, `${SPACE_NAMES[char] ?? `the space ${codePoint(char)}`} is not JSON white space`, "use a plain space");
      } else return undefined;
    }
    return undefined;
  }

  /** Reads the string whose opening quote is at `quote`: its end, or what is wrong inside it. */
  private readString(quote: number): { end: number } | Found {
    const text = this.text;
    for (let i = quote + 1; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c === 0x22) return { end: i + 1 };
      if (c === 0x5c) {
        const next = text[i + 1];
        if (next === undefined) break;
        if (next === "u") {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) return this.at(i, "\\u must be followed by four hexadecimal digits", "write a backslash itself as \\\\");
          i += 5;
        } else if ('"\\/bfnrt'.includes(next)) i++;
        else return this.at(i, `\\${printable(next)} is not a JSON escape`, "write a backslash itself as \\\\");
      } else if (c === 0x0a || c === 0x0d) {
        return this.at(i, `the string that starts at ${this.where(quote)} is not closed on its line`, 'end it with `"`; a line break inside a string is written \\n');
      } else if (c === 0x09) {
        return this.at(i, "a tab inside a string must be written \\t");
      } else if (c < 0x20) {
        return this.at(i, `the control character ${codePoint(text[i]!)} inside a string must be written \\u${c.toString(16).padStart(4, "0")}`);
      }
    }
    return this.at(text.length, `unexpected end of input inside the string that starts at ${this.where(quote)} (a \`"\` is missing)`);
  }

  private word(): string {
    const text = this.text;
    let end = this.i + 1;
    while (end < text.length && !WORD_END.test(text[end]!)) end++;
    return text.slice(this.i, end);
  }

  private top(): Frame | undefined {
    return this.open[this.open.length - 1];
  }

  /** A value was read: the scanner stands after it. */
  private afterValue(end: number): void {
    this.i = end;
    this.valueEnd = end;
    this.comma = -1;
    this.expect = this.open.length === 0 ? "end" : "after-value";
  }

  private endOfInput(): Found {
    const end = this.text.trimEnd().length;
    const top = this.top();
    if (top === undefined) return this.at(end, "unexpected end of input: the JSON value is missing");
    if (this.expect === "colon") return this.at(end, `unexpected end of input after the member name ${JSON.stringify(top.key)}: its colon and value are missing`);
    if (this.expect === "value" && top.object) return this.at(end, `unexpected end of input: the value of ${JSON.stringify(top.key)} is missing`);
    const [kind, closer] = top.object ? ["object", "}"] : ["array", "]"];
    return this.at(end, `unexpected end of input: the ${kind} opened at ${this.where(top.open)} is not closed (a \`${closer}\` is missing)`);
  }

  /** A closing bracket: it closes the innermost container, or says what is wrong. */
  private close(c: string): Found | undefined {
    const top = this.top();
    if (top === undefined) return this.at(this.i, `\`${c}\` closes nothing: no object or array is open here`);
    if (top.object !== (c === "}")) {
      const [kind, closer] = top.object ? ["object", "}"] : ["array", "]"];
      return this.at(this.i, `the ${kind} opened at ${this.where(top.open)} is not closed: a \`${closer}\` is missing before this \`${c}\``);
    }
    if (this.comma !== -1) {
      return this.at(this.comma, `trailing comma before \`${c}\`; JSON allows no comma after the last ${top.object ? "member of an object" : "item of an array"}`);
    }
    this.open.pop();
    this.afterValue(this.i + 1);
    return undefined;
  }

  /** A value starts at the scanner's place: it is read, or what is wrong with it is found. */
  private value(): Found | undefined {
    const text = this.text;
    const c = text[this.i]!;
    const top = this.top();
    switch (c) {
      case "{":
      case "[":
        this.open.push({ object: c === "{", open: this.i, keyEnd: this.i });
        this.i++;
        this.comma = -1;
        this.expect = c === "{" ? "first-key" : "first-value";
        return undefined;
      case '"': {
        const read = this.readString(this.i);
        if ("message" in read) return read;
        this.afterValue(read.end);
        return undefined;
      }
      case "'":
        return this.at(this.i, "a string in single quotes; JSON strings take double quotes");
      case "}":
      case "]":
        if (this.expect === "first-value" || this.comma !== -1) return this.close(c);
        if (top?.object) return this.at(this.i, `the value of ${JSON.stringify(top.key)} is missing before this \`${c}\``);
        return this.close(c);
      case ",":
        if (top?.object) return this.at(this.i, `the value of ${JSON.stringify(top.key)} is missing before this comma`);
        return this.at(this.i, top ? "an item of the array is missing before this comma" : "unexpected comma: the JSON value is missing before it");
      case ":":
        return this.at(this.i, "unexpected colon: a value belongs here");
      default: {
        if (!WORD_START.test(c)) return this.at(this.i, `unexpected character ${printable(c)}`);
        const word = this.word();
        if (word === "true" || word === "false" || word === "null" || NUMBER.test(word)) {
          this.afterValue(this.i + word.length);
          return undefined;
        }
        const { message, suggestion } = badWord(word, false);
        return this.at(this.i, message, suggestion);
      }
    }
  }

  /** A member name should start at the scanner's place. */
  private key(top: Frame): Found | undefined {
    const text = this.text;
    const c = text[this.i]!;
    if (c === '"') {
      const read = this.readString(this.i);
      if ("message" in read) return read;
      top.key = JSON.parse(text.slice(this.i, read.end)) as string;
      top.keyEnd = read.end;
      this.i = read.end;
      this.comma = -1;
      this.expect = "colon";
      return undefined;
    }
    if (c === "}" || c === "]") return this.close(c);
    if (c === "'") return this.at(this.i, "a member name in single quotes; JSON member names take double quotes");
    if (c === ",") return this.at(this.i, "a member is missing before this comma");
    if (c === ":") return this.at(this.i, "the member name is missing before this colon");
    if (!WORD_START.test(c)) return this.at(this.i, `unexpected character ${printable(c)}: a member name in double quotes belongs here`);
    const { message, suggestion } = badWord(this.word(), true);
    return this.at(this.i, message, suggestion);
  }

  /** The scanner stands after a value inside a container: a comma or the closing bracket comes next. */
  private afterValueInContainer(top: Frame): Found | undefined {
    const c = this.text[this.i]!;
    if (c === ",") {
      this.comma = this.i;
      this.i++;
      this.expect = top.object ? "key" : "value";
      return undefined;
    }
    if (c === "}" || c === "]") return this.close(c);
    if (c === ":") return this.at(this.i, "unexpected colon after a value");
    if (c === '"' || c === "'" || c === "{" || c === "[" || WORD_START.test(c)) {
      if (!top.object) return this.at(this.valueEnd, "missing comma between two items of an array");
      const next = c === '"' ? this.readString(this.i) : undefined;
      const before = next && "end" in next ? `, before ${this.text.slice(this.i, next.end)}` : "";
      return this.at(this.valueEnd, `missing comma after the value of ${JSON.stringify(top.key)}${before}`);
    }
    return this.at(this.i, `unexpected character ${printable(c)}: a comma or a \`${top.object ? "}" : "]"}\` belongs here`);
  }

  /** Text goes on after the value: several JSON documents, one per line, are NDJSON. */
  private afterEnd(): Found | undefined {
    const text = this.text;
    const c = text[this.i]!;
    if (c === "}" || c === "]") return this.close(c);
    const lineStart = Math.max(text.lastIndexOf("\n", this.i - 1), text.lastIndexOf("\r", this.i - 1)) + 1;
    const onNewLine = text.slice(this.valueEnd, this.i).includes("\n") && text.slice(lineStart, this.i).trim() === "";
    if (onNewLine) {
      const lineEnd = text.indexOf("\n", this.i);
      try {
        JSON.parse(text.slice(this.i, lineEnd === -1 ? text.length : lineEnd));
        return this.at(this.i, "several JSON documents, one per line; a second one starts here", NDJSON_HINT);
      } catch {
        // Not a document of its own: plain text after the value.
      }
    }
    return this.at(this.i, `text after the end of the JSON value, which ended at ${this.where(this.valueEnd)}`);
  }

  /** The first problem of the text, or undefined when the scanner finds none. */
  run(): Found | undefined {
    const text = this.text;
    for (;;) {
      const space = this.skipSpace();
      if (space) return space;
      if (this.i >= text.length) return this.expect === "end" ? undefined : this.endOfInput();
      if (text[this.i] === "/" && (text[this.i + 1] === "/" || text[this.i + 1] === "*")) {
        return this.at(this.i, "a comment; JSON has no comments", "remove it");
      }
      const top = this.top();
      let found: Found | undefined;
      switch (this.expect) {
        case "value":
        case "first-value":
          found = this.value();
          break;
        case "key":
        case "first-key":
          found = this.key(top!);
          break;
        case "colon":
          if (text[this.i] === ":") {
            this.i++;
            this.expect = "value";
          } else if (text[this.i] === "=") {
            found = this.at(this.i, `write a colon between the member name ${JSON.stringify(top!.key)} and its value, not \`=\``);
          } else {
            found = this.at(top!.keyEnd, `missing colon after the member name ${JSON.stringify(top!.key)}`);
          }
          break;
        case "after-value":
          found = this.afterValueInContainer(top!);
          break;
        case "end":
          found = this.afterEnd();
          break;
      }
      if (found) return found;
    }
  }
}

/** The first syntax problem of a text, or undefined for JSON text. */
export function findSyntaxProblem(text: string): SyntaxProblem | undefined {
  const found = new Scanner(text).run();
  if (found === undefined) return undefined;
  const problem: SyntaxProblem = { message: found.message, ...positionAt(text, found.offset) };
  if (found.suggestion !== undefined) problem.suggestion = found.suggestion;
  return problem;
}

/**
 * Why JSON.parse rejected a text, at a line and column. Should the scanner find nothing (it
 * agrees with JSON.parse on every text, so this is a safety net), V8's own words are kept.
 */
export function syntaxProblem(text: string, parseError: Error): SyntaxProblem {
  const found = findSyntaxProblem(text);
  if (found) return found;
  const v8Offset = /position (\d+)/.exec(parseError.message);
  return { message: printable(parseError.message), ...positionAt(text, v8Offset ? Number(v8Offset[1]) : 0) };
}
