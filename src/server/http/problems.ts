/**
 * Turning what is wrong with a request into the 422 body of the real services:
 * `{"detail":[{"loc":[...],"msg":"...","type":"..."}]}`, one entry per problem, each naming the
 * member (loc) and saying in plain English what was found and what is allowed.
 */
import type { ErrorObject } from "ajv";
import type { ValidationError } from "../api/errors.js";
import { describeValue, preview } from "../../diagnostics/messages.js";
import { closest } from "../../diagnostics/suggest.js";

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

function quoteList(values: readonly unknown[]): string {
  return values.map((value) => JSON.stringify(value)).join(", ");
}

function memberName(loc: Array<string | number>): string {
  const last = loc[loc.length - 1];
  return typeof last === "number" ? `item ${last} of "${loc[loc.length - 2]}"` : last === "body" || last === undefined ? "the body" : `"${last}"`;
}

const TYPE_WORDS: Record<string, string> = {
  string: "a string",
  number: "a number",
  integer: "a whole number",
  boolean: "true or false",
  array: "an array",
  object: "an object",
  null: "null",
};

/** Why an upper bound is what it is, when its schema says (`x-bound-reason`), to follow the bound in a message. */
function boundReason(error: ErrorObject): string {
  const reason = error.parentSchema?.["x-bound-reason"];
  return typeof reason === "string" ? ` (${reason})` : "";
}

function detailOf(error: ErrorObject, root: string): ValidationError {
  const loc: Array<string | number> = [root, ...segments(error.instancePath)];
  const params = error.params as Record<string, unknown>;
  const found = describeValue(error.data);
  const what = memberName(loc);
  // A rule on an object's member names (propertyNames) concerns the name, not the object.
  if (error.propertyName !== undefined && error.keyword === "maxLength") {
    const name = error.propertyName;
    return { loc: [...loc, name], msg: `the member name ${preview(name)} is ${[...name].length} characters long; at most ${params.limit} are allowed`, type: "string_too_long" };
  }
  switch (error.keyword) {
    case "required":
      return { loc: [...loc, String(params.missingProperty)], msg: `"${params.missingProperty}" is required`, type: "missing" };
    case "additionalProperty":
    case "additionalProperties": {
      const name = String(params.additionalProperty);
      const allowed = Object.keys((error.parentSchema?.properties as object | undefined) ?? {});
      const near = closest(name, allowed);
      return {
        loc: [...loc, name],
        msg: `unknown member "${name}"${near ? ` (did you mean "${near}"?)` : ""}; the members are ${allowed.join(", ") || "none"}`,
        type: "extra_forbidden",
      };
    }
    case "type": {
      const types = String(params.type).split(",");
      return { loc, msg: `${what} must be ${types.map((type) => TYPE_WORDS[type] ?? type).join(" or ")}; found ${found}`, type: "type_error" };
    }
    case "enum":
    case "const": {
      const allowed = (error.keyword === "enum" ? params.allowedValues : [params.allowedValue]) as unknown[];
      const near = typeof error.data === "string" ? closest(error.data, allowed.filter((value): value is string => typeof value === "string")) : undefined;
      return {
        loc,
        msg: `${what} must be ${allowed.length === 1 ? JSON.stringify(allowed[0]) : `one of ${quoteList(allowed)}`}; found ${found}${near ? ` (did you mean "${near}"?)` : ""}`,
        type: "enum",
      };
    }
    case "minimum":
    case "maximum":
      return { loc, msg: `${what} must be ${error.keyword === "minimum" ? `at least ${params.limit}` : `at most ${params.limit}${boundReason(error)}`}; found ${found}`, type: "value_error" };
    case "maxProperties":
      return { loc, msg: `${what} must hold at most ${params.limit} members; found ${Object.keys(error.data as object).length}`, type: "too_long" };
    case "minItems":
    case "maxItems": {
      const limit = Number(params.limit);
      const exact = error.parentSchema?.minItems === error.parentSchema?.maxItems;
      const words = exact ? "exactly" : error.keyword === "minItems" ? "at least" : "at most";
      return { loc, msg: `${what} must hold ${words} ${limit} item${limit === 1 ? "" : "s"}; found ${found}`, type: error.keyword === "maxItems" && !exact ? "too_long" : "value_error" };
    }
    case "pattern":
      return { loc, msg: `${what} must match ${params.pattern}; found ${found}`, type: "string_pattern_mismatch" };
    case "minLength":
      return { loc, msg: `${what} must not be empty`, type: "value_error" };
    case "maxLength":
      return { loc, msg: `${what} must be at most ${params.limit} characters long; found ${[...String(error.data)].length} characters`, type: "string_too_long" };
    case "uniqueItems":
      return { loc, msg: `${what} lists item ${params.j} twice (also at ${params.i})`, type: "value_error" };
    default:
      return { loc, msg: `${what} ${error.message ?? "is not valid"}; found ${found}`, type: "value_error" };
  }
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
