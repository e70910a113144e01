/** The preValidation hook that accepts snake_case members before a body meets its camelCase schema. */
import type { FastifyRequest } from "fastify";
import { normalizeAliases, type AliasSpec } from "../api/aliases.js";
import { reportLater } from "./body-checks.js";
import { keepSentBody } from "./sent-request.js";

/** A member spelled both ways is reported with the schema's problems and the route's, not alone. */
export function acceptAliases(spec: AliasSpec): (request: FastifyRequest) => Promise<void> {
  return async (request) => {
    keepSentBody(request);
    const { value, problems } = normalizeAliases(request.body, spec);
    reportLater(request, problems);
    request.body = value;
  };
}
