/**
 * The SQL-like `where` of raw-data-api's custom exports (`tags['highway'] IS NOT NULL OR
 * tags['amenity'] IN ('school', 'college')`) read into a TagFilter. Upstream pastes the text into
 * its SQL; here it is parsed, and only what a TagFilter can say is accepted: a key present
 * (`IS NOT NULL`), a key with one value (`= 'v'`) or any of several (`IN (...)`), joined by AND
 * and OR with parentheses. That is every form upstream's examples and HOT's configurations use;
 * anything else is an error naming where it is, never a query that means something else.
 */
import { isTagGroup, type TagCondition, type TagFilter } from "../../model/query.js";

/** The longest text read, and the deepest nesting of parentheses: a request cannot make the parser work without bound. */
const MAX_LENGTH = 10_000;
const MAX_DEPTH = 32;

/**
 * How much one where may ask for: the request bounds of the server that reads it. SQLite refuses
 * a query of about 1,000 ORed conditions ("Expression tree is too large") where PostgreSQL does
 * not, so a where within these bounds is read alike by every store.
 */
export interface WhereBounds {
  /** Conditions (IS NOT NULL, =, IN) in the whole where. */
  conditions: number;
  /** Values of one IN list. */
  values: number;
  /** Characters of a tag key or value. */
  characters: number;
}

export const WHERE_FORMS = "tags['key'] IS NOT NULL, tags['key'] = 'value' or tags['key'] IN ('a', 'b'), joined by AND and OR, with parentheses";

/** A `where` that is not of the accepted forms; `offset` is where in the text it goes wrong (0-based). */
export class WhereSyntaxError extends Error {
  override name = "WhereSyntaxError";
  constructor(
    message: string,
    readonly offset: number,
  ) {
    super(message);
  }
}

type Token =
  | { kind: "word"; text: string; at: number }
  | { kind: "string"; text: string; at: number }
  | { kind: "quoted"; text: string; at: number }
  | { kind: "number"; text: string; at: number }
  | { kind: "symbol"; text: string; at: number }
  | { kind: "end"; text: ""; at: number };

const describe = (token: Token): string => (token.kind === "end" ? "the end of the text" : token.kind === "string" ? `'${token.text}'` : `"${token.text}"`);

/** Quoted text from `start` (the opening quote) to its closing quote; a doubled quote is one quote, as in SQL. */
function quoted(text: string, start: number): { value: string; next: number } {
  const quote = text[start]!;
  let value = "";
  let at = start + 1;
  for (;;) {
    const close = text.indexOf(quote, at);
    if (close < 0) throw new WhereSyntaxError(`the quote opened at character ${start + 1} is never closed`, start);
    value += text.slice(at, close);
    if (text[close + 1] !== quote) return { value, next: close + 1 };
    value += quote;
    at = close + 2;
  }
}

const WORD = /[A-Za-z_][\w:]*/y;
const NUMBER = /-?\d+(?:\.\d+)?/y;
const SYMBOLS = ["!=", "<>", "<=", ">=", "->>"];

/** The match of a sticky pattern at `at`, or undefined. */
function matchAt(pattern: RegExp, text: string, at: number): string | undefined {
  pattern.lastIndex = at;
  return pattern.exec(text)?.[0];
}

function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let at = 0;
  while (at < text.length) {
    const char = text[at]!;
    if (/\s/.test(char)) {
      at++;
      continue;
    }
    if (char === "'" || char === '"') {
      const { value, next } = quoted(text, at);
      tokens.push({ kind: char === "'" ? "string" : "quoted", text: value, at });
      at = next;
      continue;
    }
    const word = matchAt(WORD, text, at);
    const number = word === undefined ? matchAt(NUMBER, text, at) : undefined;
    const symbol = SYMBOLS.find((candidate) => text.startsWith(candidate, at)) ?? char;
    const token: Token = word !== undefined ? { kind: "word", text: word, at } : number !== undefined ? { kind: "number", text: number, at } : { kind: "symbol", text: symbol, at };
    tokens.push(token);
    at += token.text.length;
  }
  tokens.push({ kind: "end", text: "", at: text.length });
  return tokens;
}

/** Operators SQL has and a TagFilter cannot say, with what to write instead where there is something. */
const UNSUPPORTED: Record<string, string> = {
  "!=": "a filter cannot exclude a value",
  "<>": "a filter cannot exclude a value",
  "<": "tag values are compared as text, for equality only",
  ">": "tag values are compared as text, for equality only",
  "<=": "tag values are compared as text, for equality only",
  ">=": "tag values are compared as text, for equality only",
  LIKE: "values are matched whole",
  ILIKE: "values are matched whole",
  NOT: "a filter cannot exclude features",
};

/** SQL's words, never read as a bare tag key. */
const RESERVED = new Set(["AND", "OR", "NOT", "IS", "IN", "NULL", "LIKE", "ILIKE"]);

class Parser {
  private index = 0;
  private depth = 0;
  private conditions = 0;

  constructor(
    private readonly tokens: Token[],
    private readonly bounds: WhereBounds,
  ) {}

  parse(): TagFilter {
    const filter = this.or();
    const next = this.peek();
    if (next.kind !== "end") throw this.unexpected(next, "AND, OR or the end of the text");
    return filter;
  }

  private peek(): Token {
    return this.tokens[this.index]!;
  }

  private take(): Token {
    return this.tokens[this.index++]!;
  }

  private isKeyword(token: Token, keyword: string): boolean {
    return token.kind === "word" && token.text.toUpperCase() === keyword;
  }

  private unexpected(token: Token, expected: string): WhereSyntaxError {
    const word = token.kind === "word" || token.kind === "symbol" ? token.text.toUpperCase() : "";
    const why = UNSUPPORTED[word];
    if (why !== undefined) return new WhereSyntaxError(`${word} at character ${token.at + 1} is not supported (${why}); a where takes ${WHERE_FORMS}`, token.at);
    return new WhereSyntaxError(`expected ${expected} at character ${token.at + 1}; found ${describe(token)}`, token.at);
  }

  private expectKeyword(keyword: string, expected = keyword): void {
    const token = this.take();
    if (!this.isKeyword(token, keyword)) throw this.unexpected(token, expected);
  }

  private expectSymbol(symbol: string, expected: string): void {
    const token = this.take();
    if (token.kind !== "symbol" || token.text !== symbol) throw this.unexpected(token, expected);
  }

  private or(): TagFilter {
    return this.joined("OR", () => this.and());
  }

  private and(): TagFilter {
    return this.joined("AND", () => this.operand());
  }

  /** Operands joined by one keyword; an operand that is itself joined the same way is flattened into this one. */
  private joined(keyword: "AND" | "OR", operand: () => TagFilter): TagFilter {
    const join = keyword === "AND" ? "and" : "or";
    const conditions: TagFilter["conditions"] = [];
    const add = (filter: TagFilter) => conditions.push(...(filter.join === join || filter.conditions.length === 1 ? filter.conditions : [filter]));
    add(operand());
    while (this.isKeyword(this.peek(), keyword)) {
      this.take();
      add(operand());
    }
    const [only] = conditions;
    return conditions.length === 1 && only !== undefined && isTagGroup(only) ? only : { conditions, join };
  }

  private operand(): TagFilter {
    const token = this.peek();
    if (token.kind === "symbol" && token.text === "(") {
      this.take();
      if (++this.depth > MAX_DEPTH) throw new WhereSyntaxError(`the parentheses at character ${token.at + 1} nest deeper than ${MAX_DEPTH}`, token.at);
      const inner = this.or();
      this.expectSymbol(")", "a closing parenthesis");
      this.depth--;
      return inner;
    }
    return { conditions: [this.condition()], join: "or" };
  }

  private condition(): TagCondition {
    const start = this.peek();
    if (++this.conditions > this.bounds.conditions) {
      throw new WhereSyntaxError(`the condition at character ${start.at + 1} is one more than a where may hold: at most ${this.bounds.conditions} conditions`, start.at);
    }
    const key = this.key();
    const token = this.take();
    if (this.isKeyword(token, "IS")) {
      const not = this.peek();
      if (!this.isKeyword(not, "NOT")) {
        throw new WhereSyntaxError(`IS NULL at character ${not.at + 1} is not supported (a filter cannot ask for a tag's absence); a where takes ${WHERE_FORMS}`, not.at);
      }
      this.take();
      this.expectKeyword("NULL", "NULL after IS NOT");
      return { key, values: [] };
    }
    if (token.kind === "symbol" && token.text === "=") return { key, values: [this.value()] };
    if (this.isKeyword(token, "IN")) {
      this.expectSymbol("(", "an opening parenthesis after IN");
      const values = [this.value()];
      for (;;) {
        const next = this.take();
        if (next.kind === "symbol" && next.text === ")") return { key, values };
        if (next.kind !== "symbol" || next.text !== ",") throw this.unexpected(next, "a comma or a closing parenthesis");
        if (values.length === this.bounds.values) {
          throw new WhereSyntaxError(`the IN list at character ${token.at + 1} holds more than ${this.bounds.values} values; at most ${this.bounds.values} are allowed`, token.at);
        }
        values.push(this.value());
      }
    }
    throw this.unexpected(token, "IS NOT NULL, = or IN after a tag key");
  }

  /** tags['key'], tags->>'key', a double-quoted "key" or a bare key (highway): each names a tag key. */
  private key(): string {
    const token = this.take();
    if (token.kind === "quoted") return this.bounded(token, "tag key");
    if (token.kind !== "word" || RESERVED.has(token.text.toUpperCase())) throw this.unexpected(token, "a tag key such as tags['highway']");
    if (token.text.toLowerCase() !== "tags") return this.bounded(token, "tag key");
    const next = this.take();
    if (next.kind === "symbol" && next.text === "->>") return this.literal("a tag key in single quotes after ->>");
    if (next.kind !== "symbol" || next.text !== "[") throw this.unexpected(next, "[ after tags, as in tags['highway']");
    const key = this.literal("a tag key in single quotes, as tags['highway'],");
    this.expectSymbol("]", "] after the tag key");
    return key;
  }

  private literal(expected: string): string {
    const token = this.take();
    if (token.kind !== "string") throw this.unexpected(token, expected);
    return this.bounded(token, "tag key");
  }

  /** A quoted value, or a number (tag values are text: 2 is '2'). */
  private value(): string {
    const token = this.take();
    if (token.kind === "string" || token.kind === "number") return this.bounded(token, "value");
    throw this.unexpected(token, "a quoted value such as 'school'");
  }

  /** The token's text, when it is no longer than a tag key or value may be. */
  private bounded(token: Token, what: "tag key" | "value"): string {
    const length = [...token.text].length;
    if (length > this.bounds.characters) {
      throw new WhereSyntaxError(`the ${what} at character ${token.at + 1} is ${length.toLocaleString("en-US")} characters long; tag keys and values have at most ${this.bounds.characters}`, token.at);
    }
    return token.text;
  }
}

/** The filter `text` says; a WhereSyntaxError when it is not of the forms above, or asks for more than `bounds`. */
export function parseWhere(text: string, bounds: WhereBounds): TagFilter {
  if (text.length > MAX_LENGTH) throw new WhereSyntaxError(`the where is ${text.length.toLocaleString("en-US")} characters long, above the limit of ${MAX_LENGTH.toLocaleString("en-US")}`, MAX_LENGTH);
  const tokens = tokenize(text);
  if (tokens.length === 1) throw new WhereSyntaxError(`the where is empty; it takes ${WHERE_FORMS}`, 0);
  return new Parser(tokens, bounds).parse();
}
