/** The preValidation hook that accepts snake_case members before a body meets its camelCase schema. */
import type { FastifyRequest } from "fastify";
import { normalizeAliases, type AliasSpec } from "../api/aliases.js";
import { RequestProblem } from "./problems.js";

export function acceptAliases(spec: AliasSpec): (request: FastifyRequest) => Promise<void> {
  return async (request) => {
    const { value, problems } = normalizeAliases(request.body, spec);
    if (problems.length > 0) throw new RequestProblem(problems);
    request.body = value;
  };
}
