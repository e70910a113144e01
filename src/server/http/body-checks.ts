/**
 * Every problem of a request comes out in one 422: those its schema finds, and those only the
 * route can find (a ring that crosses itself, an area over the limit). Fastify would answer the
 * schema's problems alone and never run the route's checks, so a caller who fixed them would
 * only then learn that the area is too large. Instead every route keeps its schema errors
 * (attachValidation), and one hook answers them together with the route's checks of whatever
 * the schema did not refuse.
 */
import type { FastifyRequest, RouteOptions } from "fastify";
import type { ValidationError } from "../api/errors.js";
import { MAX_PROBLEMS } from "../api/limits.js";
import { RequestProblem, validationDetails } from "./problems.js";

/** True when the schema refused the value at `loc` (or what holds it), so that a check must not read it. */
export type Refused = (loc: ReadonlyArray<string | number>) => boolean;

/** A route's own checks of a request body: the problems found, all of them. */
export type BodyCheck<Body> = (body: Body, refused: Refused) => Promise<ValidationError[]>;

declare module "fastify" {
  interface FastifyContextConfig {
    /** Checks the schema cannot express; run on every request of the route before its handler. */
    checks?: BodyCheck<never>;
    /**
     * Checks the handler makes itself as it reads the members (the feature query's area, tags
     * and dates): run here only for a request the schema refused, so that its 422 names these
     * problems too, while a request the schema accepts is checked once, by its handler.
     */
    handlerChecks?: BodyCheck<never>;
    /** Checks of the query string the schema cannot express, run as `checks` are (problems located under "query"). */
    queryChecks?: BodyCheck<never>;
  }
}

/** Problems found before the schema ran (a member spelled two ways), reported with the others. */
const earlier = new WeakMap<FastifyRequest, ValidationError[]>();

export function reportLater(request: FastifyRequest, problems: readonly ValidationError[]): void {
  if (problems.length > 0) earlier.set(request, [...(earlier.get(request) ?? []), ...problems]);
}

/** An onRoute hook: the route's schema errors wait for reportEveryProblem instead of being answered at once. */
export function keepSchemaErrors(route: RouteOptions): void {
  route.attachValidation = true;
}

function isPrefix(short: ReadonlyArray<string | number>, long: ReadonlyArray<string | number>): boolean {
  return short.length <= long.length && short.every((part, index) => part === long[index]);
}

/**
 * A member is refused when the schema found something wrong with it, with a member inside it,
 * or with what holds it. An unknown member (strict mode) or one spelled two ways leaves the
 * others readable.
 */
function refusedBy(problems: readonly ValidationError[]): Refused {
  const blocking = problems.filter((problem) => problem.type !== "extra_forbidden" && problem.type !== "duplicate_alias");
  return (loc) => blocking.some((problem) => isPrefix(problem.loc, loc) || isPrefix(loc, problem.loc));
}

function isObject(value: unknown): value is object {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/**
 * The schema's errors as problems, no more of them than one answer lists: 100,000 wrong items of
 * one list were 100,000 problems, seconds to word and megabytes to send.
 */
function schemaProblems(error: FastifyRequest["validationError"]): { problems: ValidationError[]; more: boolean } {
  if (error === undefined) return { problems: [], more: false };
  const { validation, validationContext } = error;
  return { problems: validationDetails({ validation: validation.slice(0, MAX_PROBLEMS), validationContext }), more: validation.length > MAX_PROBLEMS };
}

/** The first MAX_PROBLEMS problems, and a last entry that says there are more. */
function firstProblems(problems: readonly ValidationError[]): ValidationError[] {
  const listed = problems.slice(0, MAX_PROBLEMS);
  return [...listed, { loc: ["body"], msg: `these are the first ${listed.length} problems of the request; it has more: fix these and send it again`, type: "too_many_problems" }];
}

/** A preHandler hook: a 422 with every problem found (at most MAX_PROBLEMS of them), or nothing when there is none. */
export async function reportEveryProblem(request: FastifyRequest): Promise<void> {
  const schema = schemaProblems(request.validationError);
  const problems = [...(earlier.get(request) ?? []), ...schema.problems];
  const { checks, handlerChecks, queryChecks } = request.routeOptions.config;
  // A body with more problems than one answer lists is far from right: the route's own checks wait.
  const more = () => schema.more || problems.length > MAX_PROBLEMS;
  const refused = refusedBy(problems);
  if (isObject(request.body) && !more()) {
    const schemaRefused = problems.length > 0;
    if (checks) problems.push(...(await checks(request.body as never, refused)));
    if (handlerChecks && schemaRefused) problems.push(...(await handlerChecks(request.body as never, refused)));
  }
  if (queryChecks && isObject(request.query) && !more()) problems.push(...(await queryChecks(request.query as never, refused)));
  if (more()) throw new RequestProblem(firstProblems(problems));
  if (problems.length > 0) throw new RequestProblem(problems);
}
