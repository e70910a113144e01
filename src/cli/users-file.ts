/**
 * `serve --users <file>`: the users who may send an `access-token`, as JSON:
 *
 *   [{ "token": "a long random secret", "osm_id": 4100001, "username": "amina", "role": "staff", "img_url": null }]
 *
 * role is admin, staff or guest (upstream's roles); img_url may be left out. Read once at start;
 * anything wrong is a usage error naming the entry and the member.
 */
import { readFileSync } from "node:fs";
import { ROLE_NUMBERS, type Role } from "../server/api/auth.js";
import type { UserEntry } from "../server/http/access.js";
import { UsageError } from "./usage-error.js";

const ROLES = Object.keys(ROLE_NUMBERS) as Role[];

export function readUsersFile(path: string): UserEntry[] {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    throw new UsageError(`--users ${path} cannot be read: ${(error as NodeJS.ErrnoException).code === "ENOENT" ? "there is no such file" : (error as Error).message}`);
  }
  let entries: unknown;
  try {
    entries = JSON.parse(text);
  } catch (error) {
    throw new UsageError(`--users ${path} is not JSON: ${(error as Error).message}`);
  }
  if (!Array.isArray(entries)) throw new UsageError(`--users ${path} must hold a JSON array of users, each {"token", "osm_id", "username", "role"}`);
  const tokens = new Set<string>();
  return entries.map((entry: unknown, index) => {
    const wrong = (what: string) => new UsageError(`--users ${path}: user ${index + 1} ${what}`);
    if (entry === null || typeof entry !== "object" || Array.isArray(entry)) throw wrong('is not an object {"token", "osm_id", "username", "role"}');
    const { token, osm_id: osmId, username, role, img_url: imgUrl = null } = entry as Record<string, unknown>;
    if (typeof token !== "string" || token.length === 0 || token.length > 4096) throw wrong('needs "token": a string of 1 to 4,096 characters');
    if (tokens.has(token)) throw wrong("has the token of an earlier user: each token names one user");
    tokens.add(token);
    if (typeof osmId !== "number" || !Number.isSafeInteger(osmId) || osmId < 1) throw wrong('needs "osm_id": the user\'s OpenStreetMap id, an integer from 1');
    if (typeof username !== "string" || username.trim() === "") throw wrong('needs "username": a string');
    if (typeof role !== "string" || !ROLES.includes(role as Role)) throw wrong(`needs "role": one of ${ROLES.join(", ")}`);
    if (imgUrl !== null && typeof imgUrl !== "string") throw wrong('has an "img_url" that is neither a string nor null');
    return { token, osmId, username, role: role as Role, imgUrl };
  });
}
