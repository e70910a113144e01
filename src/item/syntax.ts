import { createRequire } from "node:module";

/** The position parser, loaded only when a text fails JSON.parse: valid runs never pay for it. */
function momoa(): typeof import("@humanwhocodes/momoa") {
  return createRequire(import.meta.url)("@humanwhocodes/momoa") as typeof import("@humanwhocodes/momoa");
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
    momoa().parse(text, { mode: "json" });
  } catch (error) {
    const e = error as Error & { line?: number; column?: number };
    if (typeof e.line === "number" && typeof e.column === "number") {
      return { message: printable(e.message.replace(/\s*\(\d+:\d+\)$/, "")), line: e.line, column: e.column };
    }
  }
  // The position parser overflowed or disagreed: fall back to the offset V8 gives, if any.
  return { message: printable(parseError.message), ...(v8Offset ? positionAt(text, Number(v8Offset[1])) : { line: 1, column: 1 }) };
}
