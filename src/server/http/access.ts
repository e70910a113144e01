/**
 * raw-data-api's `access-token` header: who a request comes from, and what their role lets them
 * do. Upstream turns the token into an OpenStreetMap user through OAuth and reads the role from
 * its users table; this server reads both from a users file (`serve --users`). Without one,
 * every route is open, as before, and no token is anyone's.
 *
 * Tokens are kept as SHA-256 digests: a lookup compares digests, so the time it takes says
 * nothing about how much of a guessed token was right, and the tokens are not in memory.
 */
import { createHash } from "node:crypto";
import type { FastifyPluginAsync, FastifyRequest } from "fastify";
import type { AuthUser } from "../api/auth.js";
import { accessTokenHeaderSchema, ROLE_NUMBERS, type Role } from "../api/auth.js";

/** One line of a users file: the token a user sends, and who they are. */
export interface UserEntry {
  token: string;
  osmId: number;
  username: string;
  role: Role;
  imgUrl: string | null;
}

const digest = (token: string): string => createHash("sha256").update(token, "utf8").digest("hex");

export class AccessTokens {
  private readonly byDigest: ReadonlyMap<string, AuthUser>;

  constructor(users: readonly UserEntry[]) {
    this.byDigest = new Map(users.map((user) => [digest(user.token), { id: user.osmId, username: user.username, img_url: user.imgUrl, role: ROLE_NUMBERS[user.role] }]));
  }

  /** The user a token names, or undefined for a token that names none. */
  user(token: string): AuthUser | undefined {
    return this.byDigest.get(digest(token));
  }
}

/** The request's `access-token` header: absent, or its (first) value. */
export function accessToken(request: FastifyRequest): string | undefined {
  const header = request.headers["access-token"];
  return Array.isArray(header) ? header[0] : header;
}

/** Upstream's answer to a token that names no user. */
export const AUTHENTICATION_FAILED = { detail: [{ msg: "OSM Authentication failed" }] };

/** FastAPI's answer to a route that needs the header, called without it. */
const TOKEN_MISSING = { detail: [{ loc: ["header", "access-token"], msg: "Field required", type: "missing" }] };

/**
 * What upstream answers a request to a route kept to `role` and above: 422 without a token, 403
 * for a token of nobody or a role below. Undefined: allowed, as every request is without a users file.
 */
export function refusedRole(tokens: AccessTokens | undefined, request: FastifyRequest, role: Exclude<Role, "guest">): { status: 403 | 422; body: unknown } | undefined {
  if (tokens === undefined) return undefined;
  const token = accessToken(request);
  if (token === undefined) return { status: 422, body: TOKEN_MISSING };
  const user = tokens.user(token);
  if (user === undefined) return { status: 403, body: AUTHENTICATION_FAILED };
  return user.role <= ROLE_NUMBERS[role] ? undefined : { status: 403, body: { detail: [{ msg: `User is not ${role === "admin" ? "an admin" : "a staff"}` }] } };
}

/** Who an export is recorded as asked for by, in the history: the token's user (by OSM id), or null without one. */
export function ownerOf(tokens: AccessTokens | undefined, request: FastifyRequest): string | null {
  const user = tokens?.user(accessToken(request) ?? "");
  return user === undefined ? null : String(user.id);
}

/**
 * Whose exports a caller may list (GET /history/): everyone's without a users file, and for staff
 * and admins; a user's own for the others. Listing an export would hand out its task id, and with
 * it its files and its request, so a caller who cannot be told apart (no token) is refused as
 * upstream refuses a route that needs one: 422 without a token, 403 for a token of nobody.
 */
export function whoseExports(tokens: AccessTokens | undefined, request: FastifyRequest): { owner: string | undefined } | { status: 403 | 422; body: unknown } {
  if (tokens === undefined) return { owner: undefined };
  const token = accessToken(request);
  if (token === undefined) return { status: 422, body: TOKEN_MISSING };
  const user = tokens.user(token);
  if (user === undefined) return { status: 403, body: AUTHENTICATION_FAILED };
  return { owner: user.role <= ROLE_NUMBERS.staff ? undefined : String(user.id) };
}

/** GET /auth/me/: who the token says the caller is (upstream: 422 without the header, 403 for a token of nobody). */
export const authRoutes: FastifyPluginAsync<{ tokens: AccessTokens | undefined }> = async (app, { tokens }) => {
  app.get(
    "/auth/me/",
    {
      schema: {
        tags: ["raw data export"],
        summary: "The user an access-token belongs to, with their role (1 admin, 2 staff, 3 guest)",
        headers: accessTokenHeaderSchema,
        security: [{ accessToken: [] }],
        response: { 200: { $ref: "AuthUser#" }, 403: { $ref: "AuthFailure#" }, 422: { $ref: "HTTPValidationError#" } },
      },
    },
    async (request, reply) => {
      const user = tokens?.user(accessToken(request) ?? "");
      return user ?? reply.code(403).send(AUTHENTICATION_FAILED);
    },
  );
};
