/** The error bodies every route answers with (FastAPI's shapes, as the real services send them). */
import type { Answer } from "./wire.js";

export const validationErrorSchema = {
  $id: "ValidationError",
  type: "object",
  required: ["loc", "msg", "type"],
  additionalProperties: false,
  properties: {
    loc: { type: "array", items: { anyOf: [{ type: "string" }, { type: "integer" }] }, description: "Where the problem is: body or path, then the member names and array indexes" },
    msg: { type: "string", description: "What is wrong, in plain English" },
    type: { type: "string", description: "A stable error type, e.g. missing, extra_forbidden, value_error" },
  },
} as const;

export const httpValidationErrorSchema = {
  $id: "HTTPValidationError",
  description: "The request is malformed: one entry per problem, naming the member and what is wrong",
  type: "object",
  required: ["detail"],
  additionalProperties: false,
  properties: { detail: { type: "array", items: { $ref: "ValidationError#" } } },
} as const;

/** 404, 413 and other errors that are not about a member of the request. */
export const httpErrorSchema = {
  $id: "HTTPError",
  description: "The request cannot be served for a reason that is not about one member: detail says why",
  type: "object",
  required: ["detail"],
  additionalProperties: false,
  properties: { detail: { type: "string" } },
} as const;

export type ValidationError = Answer<typeof validationErrorSchema>;
export type HTTPValidationError = Answer<typeof httpValidationErrorSchema, [typeof validationErrorSchema]>;
export type HTTPError = Answer<typeof httpErrorSchema>;
