/**
 * Turning what is wrong with a request into the 422 body of the real services:
 * `{"detail":[{"loc":[...],"msg":"...","type":"..."}]}`, one entry per problem, each naming the
 * member (loc) and saying what was found and what is allowed in the words of every other
 * problem (diagnostics/schema-problems.ts).
 */
import type { ErrorObject } from "ajv";
import type { ValidationError } from "../api/errors.js";
import { splitPointer } from "../../diagnostics/pointer.js";
import { problemText, schemaProblem } from "../../diagnostics/schema-problems.js";

/** Thrown by a route when a request is well-formed JSON but asks for something impossible. */
export class RequestProblem extends Error {
  constructor(readonly detail: ValidationError[]) {
    super(detail.map((problem) => problem.msg).join("; "));
  }
}

export function problem(loc: Array<string | number>, msg: string, type = "value_error"): RequestProblem {
  return new RequestProblem([{ loc, msg, type }]);
}

/**
 * Reads a body's members in turn and keeps every RequestProblem they throw, instead of stopping
 * at the first. `refused` says which members the schema refused: those are not read.
 */
export class BodyReader {
  readonly problems: ValidationError[] = [];

  constructor(private readonly refused: (loc: ReadonlyArray<string | number>) => boolean = () => false) {}

  /** The member as `parse` reads it; undefined when the schema refused it or `parse` found a problem (kept). */
  async member<T>(name: string, parse: (loc: Array<string | number>) => T | Promise<T>): Promise<T | undefined> {
    const loc = ["body", name];
    if (this.refused(loc)) return undefined;
    try {
      return await parse(loc);
    } catch (error) {
      if (!(error instanceof RequestProblem)) throw error;
      this.problems.push(...error.detail);
      return undefined;
    }
  }
}

function segments(instancePath: string): Array<string | number> {
  if (instancePath === "") return [];
  return instancePath
    .slice(1)
    .split("/")
    .map((segment) => segment.replace(/~1/g, "/").replace(/~0/g, "~"))
    .map((segment) => (/^(0|[1-9]\d*)$/.test(segment) ? Number(segment) : segment));
}

/** How a 422 message names a place: the member by its name, an item by its index and the member holding it. */
function placeIn(root: string): (pointer: string) => string {
  return (pointer) => {
    const path = segments(pointer);
    const last = path[path.length - 1];
    if (last === undefined) return root === "header" ? "the headers" : `the ${root}`;
    return typeof last === "number" ? `item ${last} of "${path[path.length - 2] ?? root}"` : `"${last}"`;
  };
}

/** The 422 type FastAPI gives each kind of problem; any other: value_error. */
function typeOf(error: ErrorObject): string {
  switch (error.keyword) {
    case "required":
      return "missing";
    case "additionalProperties":
      return "extra_forbidden";
    case "type":
      return "type_error";
    case "enum":
    case "const":
      return "enum";
    case "pattern":
      return "string_pattern_mismatch";
    case "maxLength":
      return "string_too_long";
    case "maxProperties":
      return "too_long";
    case "maxItems":
      // An array of exactly n items (a bbox) that has more is no longer "too long" but malformed.
      return error.parentSchema?.minItems === error.parentSchema?.maxItems ? "value_error" : "too_long";
    default:
      return "value_error";
  }
}

function detailOf(error: ErrorObject, root: string): ValidationError {
  const problem = schemaProblem(error, error.data, { place: placeIn(root) });
  // The member or item the problem names inside the value: a member name stays a string even when it is digits.
  const inside = splitPointer(problem.path.slice(error.instancePath.length)).map((segment) => (Array.isArray(error.data) ? Number(segment) : segment));
  return { loc: [root, ...segments(error.instancePath), ...inside], msg: problemText(problem), type: typeOf(error) };
}

/** The schema errors fastify found in a request (error.validation), located as FastAPI locates them. */
export function validationDetails(error: { validation?: unknown; validationContext?: string }): ValidationError[] {
  // FastAPI's names for where a value came from.
  const context = error.validationContext ?? "body";
  const root = { params: "path", querystring: "query", headers: "header" }[context] ?? context;
  return detailsFromSchemaErrors((error.validation ?? []) as ErrorObject[], root);
}

/** One entry per broken rule; Ajv's messages about the same member and keyword are merged. */
export function detailsFromSchemaErrors(errors: readonly ErrorObject[], root: string): ValidationError[] {
  const seen = new Set<string>();
  const details: ValidationError[] = [];
  for (const error of errors) {
    // Ajv follows each broken rule on a member name with "property name must be valid": said already.
    if (error.keyword === "propertyNames") continue;
    // A discriminated `type` outside the mapping: the enum on `type` beside the discriminator says so, naming the allowed values.
    if (error.keyword === "discriminator") continue;
    const detail = detailOf(error, root);
    const key = `${JSON.stringify(detail.loc)}\n${detail.type}`;
    if (seen.has(key)) continue;
    seen.add(key);
    details.push(detail);
  }
  return details;
}
