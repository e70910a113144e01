/** raw-data-api's users: the `access-token` header, GET /auth/me/, and what a refused token gets. */

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
  properties: {
    id: { type: "integer", description: "The user's OpenStreetMap id" },
    username: { type: "string" },
    img_url: { type: ["string", "null"] },
    role: { enum: [1, 2, 3], description: "1 admin, 2 staff, 3 guest" },
  },
} as const;

export interface AuthUser {
  id: number;
  username: string;
  img_url: string | null;
  role: (typeof ROLE_NUMBERS)[Role];
}

export const authFailureSchema = {
  $id: "AuthFailure",
  description: "A token that belongs to nobody, or a role too low for what was asked, as upstream answers them",
  type: "object",
  required: ["detail"],
  properties: { detail: { type: "array", items: { type: "object", required: ["msg"], properties: { msg: { type: "string" } } } } },
} as const;
