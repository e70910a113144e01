/**
 * Bodies nested deeper than any request needs are refused before anything else walks them:
 * schema checks, messages and the export queue all recurse, and `[[[[...]]]]` 100,000 levels
 * deep fits in far less than the body limit and would overflow their stacks.
 */
import type { FastifyRequest } from "fastify";
import { MAX_BODY_DEPTH } from "../api/limits.js";
import { problem } from "./problems.js";

/**
 * The path to the first array or object (in document order) that lies more than `levels` levels
 * deep, or undefined when there is none. It never looks below that level, so it recurses at
 * most `levels` + 1 calls deep however deep the value is.
 */
export function pathDeeperThan(value: unknown, levels: number): Array<string | number> | undefined {
  if (value === null || typeof value !== "object") return undefined;
  if (levels === 0) return [];
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index++) {
      const below = pathDeeperThan(value[index], levels - 1);
      if (below !== undefined) return [index, ...below];
    }
    return undefined;
  }
  for (const name of Object.keys(value)) {
    const below = pathDeeperThan((value as Record<string, unknown>)[name], levels - 1);
    if (below !== undefined) return [name, ...below];
  }
  return undefined;
}

/** A preValidation hook: a 422 at the first member nested deeper than MAX_BODY_DEPTH levels. */
export async function refuseDeepBodies(request: FastifyRequest): Promise<void> {
  const path = pathDeeperThan(request.body, MAX_BODY_DEPTH);
  if (path === undefined) return;
  throw problem(
    ["body", ...path],
    `the body nests arrays and objects more than ${MAX_BODY_DEPTH} levels deep here; no request needs more than 6 (a MultiPolygon's coordinates)`,
    "too_deep",
  );
}
