/**
 * Request bodies written in YAML (HOT keeps its export configurations so), for the routes that
 * take them. JSON is YAML, and a body that is JSON is read by JSON's own parser, as fast as on
 * any route. Anything else is UTF-8 text within the bounds of yaml-scan.ts, read as YAML 1.2
 * (or 1.1 where it says `%YAML 1.1`) with YAML 1.1's merge keys (`<<: *base`), which
 * configurations written for the real service use. An alias may expand 100 times, not a
 * billion; a key twice in one mapping is refused, as YAML says; warnings (an unknown tag) are
 * not the caller's problem. See decisions: YAML bodies.
 */
import { isUtf8 } from "node:buffer";
import type { FastifyInstance } from "fastify";
import { isMap, isScalar, LineCounter, parseDocument, visit, type Document } from "yaml";
import { MAX_BODY_DEPTH } from "../api/limits.js";
import { BodyNotYaml } from "./error-answers.js";
import { problem, RequestProblem } from "./problems.js";
import { yamlBeyondBounds } from "./yaml-scan.js";

const MAX_ALIAS_COUNT = 100;

/** The value of a JSON text; undefined when the text is not JSON. */
function jsonValue(text: string): { value: unknown } | undefined {
  try {
    return { value: JSON.parse(text) };
  } catch {
    return undefined;
  }
}

/**
 * Where a key appears a second time in one mapping, or undefined. The reader's own check compares
 * each key with every other, which took minutes for a mapping of 80,000 keys; this one remembers them.
 */
function repeatedKey(document: Document, lines: LineCounter): string | undefined {
  let found: string | undefined;
  visit(document, {
    Map(_key, map) {
      if (!isMap(map)) return undefined;
      const seen = new Set<unknown>();
      for (const { key } of map.items) {
        if (!isScalar(key)) continue;
        if (seen.has(key.value)) {
          const at = lines.linePos(key.range?.[0] ?? 0);
          found = `the key ${JSON.stringify(key.value)} appears twice in one mapping (again at line ${at.line}, column ${at.col}); map keys must be unique`;
          return visit.BREAK;
        }
        seen.add(key.value);
      }
      return undefined;
    },
  });
  return found;
}

/** The body's value, or the error that says why it is not one. */
export function readYamlBody(bytes: Buffer): unknown {
  if (!isUtf8(bytes)) throw new BodyNotYaml("its bytes are not UTF-8 text, which a YAML body must be");
  const text = bytes.toString("utf8");
  if (text.trim() === "") return undefined;
  const json = jsonValue(text);
  if (json !== undefined) return json.value;
  const beyond = yamlBeyondBounds(text);
  if (beyond !== undefined) throw new RequestProblem([beyond]);
  const lines = new LineCounter();
  try {
    const document = parseDocument(text, { merge: true, uniqueKeys: false, logLevel: "silent", lineCounter: lines });
    const [error] = document.errors;
    if (error !== undefined) throw new BodyNotYaml(error.message.split("\n")[0]!);
    const repeated = repeatedKey(document, lines);
    if (repeated !== undefined) throw new BodyNotYaml(repeated);
    return document.toJS({ maxAliasCount: MAX_ALIAS_COUNT });
  } catch (error) {
    if (error instanceof BodyNotYaml) throw error;
    const message = (error as Error).message.split("\n")[0]!;
    // The reader recurses as deep as the text nests: what overflows its stack is far deeper than any request.
    if (message.includes("Maximum call stack size exceeded")) throw problem(["body"], `the body nests far more than ${MAX_BODY_DEPTH} levels deep; no request needs more than 6`, "too_deep");
    throw new BodyNotYaml(message);
  }
}

/** Reads every body of `app` (an encapsulated context: the other routes keep reading JSON) as YAML. */
export function readBodiesAsYaml(app: FastifyInstance): void {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser("*", { parseAs: "buffer" }, (_request, body, done) => {
    try {
      done(null, readYamlBody(body as Buffer));
    } catch (error) {
      done(error as Error, undefined);
    }
  });
}
