/**
 * Steps over JSON text that JSON.parse has already accepted. Validity is known, so each step
 * looks only at the characters that end what it steps over, and builds nothing.
 */

const SPACE = 0x20;
const TAB = 0x09;
const LF = 0x0a;
const CR = 0x0d;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const COMMA = 0x2c;

/** The offset of the first character at or after `at` that is not JSON whitespace. */
export function skipSpace(text: string, at: number): number {
  let i = at;
  for (;;) {
    const c = text.charCodeAt(i);
    if (c !== SPACE && c !== LF && c !== CR && c !== TAB) return i;
    i++;
  }
}

/** The offset just past the string whose opening quote is at `quote`. */
export function stringEnd(text: string, quote: number): number {
  let close = quote + 1;
  for (;;) {
    close = text.indexOf('"', close);
    // A quote preceded by an odd run of backslashes is escaped.
    let backslashes = 0;
    while (text.charCodeAt(close - 1 - backslashes) === BACKSLASH) backslashes++;
    if (backslashes % 2 === 0) return close + 1;
    close++;
  }
}

/** The offset just past the value that starts at `at` (no whitespace before it). */
export function valueEnd(text: string, at: number): number {
  const first = text.charCodeAt(at);
  if (first === QUOTE) return stringEnd(text, at);
  if (first === OPEN_BRACE || first === OPEN_BRACKET) {
    let depth = 0;
    for (let i = at; ; i++) {
      const c = text.charCodeAt(i);
      if (c === QUOTE) i = stringEnd(text, i) - 1;
      else if (c === OPEN_BRACE || c === OPEN_BRACKET) depth++;
      else if ((c === CLOSE_BRACE || c === CLOSE_BRACKET) && --depth === 0) return i + 1;
    }
  }
  // A number, true, false or null runs to the next delimiter.
  let i = at + 1;
  for (; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === COMMA || c === CLOSE_BRACE || c === CLOSE_BRACKET || c === SPACE || c === LF || c === CR || c === TAB) break;
  }
  return i;
}

/** The member name of the string from `quote` to `end`, with escapes decoded only when there are any. */
export function nameAt(text: string, quote: number, end: number): string {
  const raw = text.slice(quote + 1, end - 1);
  return raw.includes("\\") ? (JSON.parse(text.slice(quote, end)) as string) : raw;
}

export const CHAR = { QUOTE, OPEN_BRACE, CLOSE_BRACE, OPEN_BRACKET, CLOSE_BRACKET, COMMA, COLON: 0x3a } as const;
