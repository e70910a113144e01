/**
 * The `access-token` header with a users file (`serve --users`): GET /auth/me/ and what upstream
 * keeps to staff (an export named without its task id, uuid false); without a users file every
 * route is open, as before. Over real HTTP; the CLI's reading of the file at the end.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { ROLE_NUMBERS } from "../../../src/server/api/auth.js";
import { basemodel, ROOT } from "../../cli/helpers.js";
import { STRING_GIVEN_5 } from "../../support/wording.js";
import { temporaryDirectory } from "../osm/helpers.js";
import { startExportServer, type ExportServer } from "./exports.js";

const USERS = [
  { token: "admin-token-0123456789", osmId: 1, username: "ada", role: "admin" as const, imgUrl: null },
  { token: "staff-token-0123456789", osmId: 4_100_001, username: "amina", role: "staff" as const, imgUrl: "https://example.org/amina.png" },
  { token: "guest-token-0123456789", osmId: 4_100_002, username: "bo", role: "guest" as const, imgUrl: null },
];
const SMALL = { type: "Polygon", coordinates: [[[7.4265, 43.7395], [7.428, 43.7395], [7.428, 43.741], [7.4265, 43.741], [7.4265, 43.7395]]] };

const me = (server: ExportServer, token?: string) => fetch(`${server.url}/v1/auth/me/`, { headers: token === undefined ? {} : { "access-token": token } });

describe("access-token with a users file", () => {
  let server: ExportServer;
  beforeAll(async () => {
    server = await startExportServer({ server: { users: USERS } });
  });

  it("/auth/me/ answers who each token is, with upstream's role numbers", async () => {
    const answers = await Promise.all(USERS.map(async (user) => (await me(server, user.token)).json()));
    expect(answers).toEqual([
      { id: 1, username: "ada", img_url: null, role: 1 },
      { id: 4_100_001, username: "amina", img_url: "https://example.org/amina.png", role: 2 },
      { id: 4_100_002, username: "bo", img_url: null, role: 3 },
    ]);
  });

  it("/auth/me/: 403 for a token that is nobody's (a prefix of one, or one longer), 422 without the header", async () => {
    for (const token of ["nobody", "staff-token-012345678", `${USERS[1]!.token}x`]) {
      const answer = await me(server, token);
      expect(answer.status, token).toBe(403);
      expect(await answer.json()).toEqual({ detail: [{ msg: "OSM Authentication failed" }] });
    }
    const missing = await me(server);
    expect(missing.status).toBe(422);
    expect(((await missing.json()) as { detail: Array<{ loc: unknown[] }> }).detail[0]!.loc).toEqual(["header", "access-token"]);
  });

  it("an export named without its task id (uuid false) is for staff and admins: 403 for guests and anonymous callers", async () => {
    const body = { geometry: SMALL, uuid: false };
    for (const token of [USERS[0]!.token, USERS[1]!.token]) expect((await server.post("/v1/snapshot/", body, { "access-token": token })).status, token).toBe(200);
    for (const headers of [{ "access-token": USERS[2]!.token }, {}] as Array<Record<string, string>>) {
      const refused = await server.post("/v1/snapshot/", body, headers);
      expect(refused.status).toBe(403);
      expect(refused.body).toEqual({ detail: [{ msg: "Insufficient Permission for uuid = False" }] });
    }
    // Anyone may export with the task id in the name; a token that is nobody's may not.
    expect((await server.post("/v1/snapshot/", { geometry: SMALL })).status).toBe(200);
    const stranger = await server.post("/v1/snapshot/", { geometry: SMALL }, { "access-token": "nobody" });
    expect(stranger.status).toBe(403);
    expect(stranger.body).toEqual({ detail: [{ msg: "OSM Authentication failed" }] });
  });
});

describe("without a users file", () => {
  it("every route is open (uuid false too) and no token is anyone's", async () => {
    const server = await startExportServer();
    expect((await server.post("/v1/snapshot/", { geometry: SMALL, uuid: false })).status).toBe(200);
    expect((await me(server, USERS[0]!.token)).status).toBe(403);
  });
});

describe("serve --users", () => {
  const folder = temporaryDirectory();
  const file = (name: string, text: string) => {
    const path = join(folder, name);
    writeFileSync(path, text);
    return path;
  };
  const cases: Array<[string, string | undefined, string]> = [
    ["a missing file", undefined, "cannot be read: there is no such file"],
    ["a file that is not JSON", "[{", "is not JSON"],
    ["JSON that is no array", '{"token": "x"}', "the users file must be an array; found an object"],
    ["a user without a token", '[{"osm_id": 1, "username": "a", "role": "staff"}]', '"token" is missing from [0]'],
    ["a role upstream does not have", '[{"token": "t", "osm_id": 1, "username": "a", "role": "owner"}]', '[0].role must be one of "admin", "staff", "guest"; found a string ("owner")'],
    ["two users with one token", '[{"token": "t", "osm_id": 1, "username": "a", "role": "staff"}, {"token": "t", "osm_id": 2, "username": "b", "role": "guest"}]', "[1].token is the token of [0] too: each token names one user"],
    // The wrong type as every JSON input words it (test/support/wording.ts).
    ["a username that is a number", '[{"token": "t", "osm_id": 1, "username": 5, "role": "staff"}]', `.json: [0].username ${STRING_GIVEN_5}\n`],
    ["a blank username", '[{"token": "t", "osm_id": 1, "username": "  ", "role": "staff"}]', '[0].username must be a string that is not only spaces; found a string ("  ")'],
    ["an id that is no OSM id", '[{"token": "t", "osm_id": -1, "username": "a", "role": "staff"}]', '[0].osm_id must be at least 1; found a number (-1)'],
  ];
  for (const [name, text, message] of cases) {
    it(`refuses ${name} before starting, in one line (exit 2)`, async () => {
      const path = text === undefined ? join(folder, "absent.json") : file(`${name.replace(/\W+/g, "-")}.json`, text);
      const run = await basemodel(["serve", "--users", path, "--port", "0", "--exports", join(folder, "exports")]);
      expect(run.code).toBe(2);
      expect(run.stderr).toContain(message);
      expect(run.stderr.trim().split("\n")).toHaveLength(1);
    });
  }

  it("is checked by a schema that takes upstream's roles", () => {
    const schema = JSON.parse(readFileSync(join(ROOT, "schema/inputs/users.schema.json"), "utf8")) as { items: { properties: { role: { enum: string[] } } } };
    expect(schema.items.properties.role.enum).toEqual(Object.keys(ROLE_NUMBERS));
  });
});
