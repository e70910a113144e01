/**
 * What any body may hold, checked before the schemas or anything else walk it:
 *
 * - nesting: schema checks, messages and the export queue all recurse, and `[[[[...]]]]` 100,000
 *   levels deep fits in far less than the body limit and would overflow their stacks;
 * - members of one object: a schema checks each one and may word a problem for each, so 50,000
 *   of them made a 422 of megabytes, seconds in the making;
 * - the NUL character, in any string or member name: no tag, name or date holds it, and
 *   PostgreSQL's text cannot, so that a query with one failed there after SQLite had answered.
 *
 * The first two stop the walk, and the body is refused with that one problem; each NUL is a
 * problem reported with the schema's (reportLater).
 */
import type { FastifyRequest } from "fastify";
import type { ValidationError } from "../api/errors.js";
import { MAX_BODY_DEPTH, MAX_OBJECT_MEMBERS } from "../api/limits.js";
import { reportLater } from "./body-checks.js";
import { RequestProblem } from "./problems.js";

export interface BodyShape {
  /** The first array or object (in document order) too deep, or object with too many members: the walk stopped there. */
  beyond?: ValidationError;
  /** Each string and member name that holds the NUL character. */
  nul: ValidationError[];
}

const NUL = "\u0000";

/** Walks `body` at most MAX_BODY_DEPTH + 1 calls deep, however deep it is. */
export function bodyShape(body: unknown): BodyShape {
  const shape: BodyShape = { nul: [] };
  const path: Array<string | number> = [];
  const loc = (): Array<string | number> => ["body", ...path];
  const nulAt = (text: string, what: string) =>
    shape.nul.push({ loc: loc(), msg: `${what} holds the NUL character (U+0000) at character ${[...text.slice(0, text.indexOf(NUL))].length + 1}; no tag, value or name may hold it`, type: "value_error" });
  /** True once the walk must stop. */
  const walk = (value: unknown, levels: number): boolean => {
    if (typeof value === "string") {
      if (value.includes(NUL)) nulAt(value, "the text");
      return false;
    }
    if (value === null || typeof value !== "object") return false;
    if (levels === 0) {
      shape.beyond = { loc: loc(), msg: `the body nests arrays and objects more than ${MAX_BODY_DEPTH} levels deep here; no request needs more than 6 (a MultiPolygon's coordinates)`, type: "too_deep" };
      return true;
    }
    const names = Array.isArray(value) ? undefined : Object.keys(value);
    if (names !== undefined && names.length > MAX_OBJECT_MEMBERS) {
      shape.beyond = { loc: loc(), msg: `this object holds ${names.length} members; no request needs more than ${MAX_OBJECT_MEMBERS} in one object`, type: "too_long" };
      return true;
    }
    const count = names?.length ?? (value as unknown[]).length;
    for (let index = 0; index < count; index++) {
      const name = names?.[index];
      path.push(name ?? index);
      if (name?.includes(NUL)) nulAt(name, "the member name");
      const stop = walk(name === undefined ? (value as unknown[])[index] : (value as Record<string, unknown>)[name], levels - 1);
      path.pop();
      if (stop) return true;
    }
    return false;
  };
  walk(body, MAX_BODY_DEPTH);
  return shape;
}

/** A preValidation hook: a 422 at once for a body too deep or too wide; NULs reported with the schema's problems. */
export async function checkBodyShape(request: FastifyRequest): Promise<void> {
  const { beyond, nul } = bodyShape(request.body);
  if (beyond !== undefined) throw new RequestProblem([beyond]);
  reportLater(request, nul);
}
