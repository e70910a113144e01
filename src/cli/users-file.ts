/**
 * `serve --users <file>`: the users who may send an `access-token`, as JSON:
 *
 *   [{ "token": "a long random secret", "osm_id": 4100001, "username": "amina", "role": "staff", "img_url": null }]
 *
 * role is admin, staff or guest (upstream's roles); img_url may be left out. Read once at start,
 * checked by schema/inputs/users.schema.json; anything wrong is a usage error naming the member.
 */
import { readFileSync } from "node:fs";
import { describePointer } from "../diagnostics/pointer.js";
import { problemText, schemaProblems, type Problem, type SchemaCheck } from "../diagnostics/schema-problems.js";
import validateUsers from "../generated/inputs/users.js";
import type { Role } from "../server/api/auth.js";
import type { UserEntry } from "../server/http/access.js";
import { UsageError } from "./usage-error.js";

/** A user as the file writes it, once the schema has let it through. */
interface UserInFile {
  token: string;
  osm_id: number;
  username: string;
  role: Role;
  img_url?: string | null;
}

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
  const schemaFound = schemaProblems(validateUsers as SchemaCheck, entries, { root: "the users file" });
  const problems = schemaFound.length > 0 ? schemaFound : sharedTokens(entries as UserInFile[]);
  if (problems.length > 0) throw new UsageError(problems.map((problem) => `--users ${path}: ${problemText(problem)}`).join("\n"));
  return (entries as UserInFile[]).map(({ token, osm_id: osmId, username, role, img_url: imgUrl = null }) => ({ token, osmId, username, role, imgUrl }));
}

/** Each token names one user: a check across the entries, which no schema makes. */
function sharedTokens(users: readonly UserInFile[]): Problem[] {
  const first = new Map<string, number>();
  return users.flatMap(({ token }, index) => {
    const earlier = first.get(token);
    if (earlier === undefined) first.set(token, index);
    const path = `/${index}/token`;
    return earlier === undefined ? [] : [{ path, message: `${describePointer(path)} is the token of [${earlier}] too: each token names one user` }];
  });
}
