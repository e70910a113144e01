/** raw-data-api's users: the `access-token` header, GET /auth/me/, and what a refused token gets. */
import type { Answer } from "./wire.js";

/** Upstream's roles, as its users table numbers them. */
export const ROLE_NUMBERS = { admin: 1, staff: 2, guest: 3 } as const;
export type Role = keyof typeof ROLE_NUMBERS;

/** Inline in the route (not by $ref): Fastify normalises the case of header names only in a schema it can see. */
export const accessTokenHeaderSchema = {
  type: "object",
  required: ["access-token"],
  properties: {
    "access-token": { type: "string", minLength: 1, maxLength: 4096, description: "The caller's access token (in a users file given to `serve --users`)" },
  },
} as const;

export const authUserSchema = {
  $id: "AuthUser",
  description: "The user an access token belongs to",
  type: "object",
  required: ["id", "username", "img_url", "role"],
  additionalProperties: false,
  properties: {
    id: { type: "integer", description: "The user's OpenStreetMap id" },
    username: { type: "string" },
    img_url: { type: ["string", "null"] },
    role: { enum: Object.values(ROLE_NUMBERS), description: "1 admin, 2 staff, 3 guest" },
  },
} as const;

export type AuthUser = Answer<typeof authUserSchema>;

export const authFailureSchema = {
  $id: "AuthFailure",
  description: "A token that belongs to nobody, or a role too low for what was asked, as upstream answers them",
  type: "object",
  required: ["detail"],
  additionalProperties: false,
  properties: { detail: { type: "array", items: { type: "object", required: ["msg"], additionalProperties: false, properties: { msg: { type: "string" } } } } },
} as const;

export type AuthFailure = Answer<typeof authFailureSchema>;
