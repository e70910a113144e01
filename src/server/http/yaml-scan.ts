/**
 * A first look at a YAML body with the YAML lexer, before the reader builds anything from it.
 * The reader is slow: a flow mapping of 20,000 keys (189 KB) held every request for 6 to 15 s,
 * and a megabyte of plain coordinates takes it seconds. The lexer is cheap, and this look stops
 * at the first bound passed, so that what the reader is then given costs it little: at most
 * MAX_YAML_TOKENS tokens, nested at most MAX_BODY_DEPTH levels in brackets, in YAML 1.1 or 1.2.
 */
import { CST, Lexer } from "yaml";
import type { ValidationError } from "../api/errors.js";
import { MAX_BODY_DEPTH, MAX_YAML_TOKENS } from "../api/limits.js";

/** The tokens counted: each stands for a node (a scalar, an alias, a collection) or for the mark that opens one. */
const COUNTED = new Set<string>([
  "scalar",
  "single-quoted-scalar",
  "double-quoted-scalar",
  "alias",
  "seq-item-ind",
  "explicit-key-ind",
  "map-value-ind",
  "flow-map-start",
  "flow-seq-start",
]);
const OPENING = new Set<string>(["flow-map-start", "flow-seq-start"]);
const CLOSING = new Set<string>(["flow-map-end", "flow-seq-end"]);
/** What the lexer yields that is not in the text. */
const MARKERS = new Set<string>([CST.DOCUMENT, CST.FLOW_END, CST.SCALAR]);
const VERSIONS = ["1.1", "1.2"];

/** "line 3, column 7" for an offset in `text`. */
function position(text: string, offset: number): string {
  const before = text.slice(0, offset).split("\n");
  return `line ${before.length}, column ${before[before.length - 1]!.length + 1}`;
}

/** The first bound the YAML text passes, as the 422's problem; undefined when it passes none. */
export function yamlBeyondBounds(text: string): ValidationError | undefined {
  let offset = 0;
  let tokens = 0;
  let depth = 0;
  for (const token of new Lexer().lex(text)) {
    const type = CST.tokenType(token) ?? "text";
    if (type === "directive-line" && /^%YAML\s/.test(token)) {
      const version = token.split(/\s+/)[1] ?? "";
      if (!VERSIONS.includes(version)) {
        return { loc: ["body"], msg: `the body is YAML ${version} (%YAML at ${position(text, offset)}); this server reads YAML ${VERSIONS.join(" and ")}`, type: "yaml_invalid" };
      }
    }
    if (COUNTED.has(type) && ++tokens > MAX_YAML_TOKENS) {
      return {
        loc: ["body"],
        msg: `the body holds more than ${MAX_YAML_TOKENS} YAML tokens (keys, values and the marks that open them; the limit is passed at ${position(text, offset)}): send a request this large as JSON, which this route reads too, without that bound`,
        type: "too_long",
      };
    }
    if (OPENING.has(type) && ++depth > MAX_BODY_DEPTH) {
      return { loc: ["body"], msg: `the body nests brackets more than ${MAX_BODY_DEPTH} levels deep at ${position(text, offset)}; no request needs more than 6 (a MultiPolygon's coordinates)`, type: "too_deep" };
    }
    if (CLOSING.has(type)) depth--;
    if (!MARKERS.has(token)) offset += token.length;
  }
  return undefined;
}
