/**
 * docs/scaling-out.md's step by step works as written: its lines that make the role and the
 * database run as they are (on a PostgreSQL of this test's own, which the libpq variables
 * PGHOST and PGPORT point them to), and the CLI then imports and checks as that role, at the
 * URL the document gives (its port changed). The README's steps of before, `createdb osm` and
 * a URL whose role nobody made, failed here.
 */
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { MONACO } from "../server/osm/helpers.js";
import { ownPostgres } from "../support/own-services.js";
import { canStartServices } from "../support/requirements.js";
import { ROOT, basemodel } from "./helpers.js";

const DOC = readFileSync(join(ROOT, "docs/scaling-out.md"), "utf8");

/** The document's lines that run as PostgreSQL's administrator, without the `runuser` that makes root that user. */
const AS_ADMINISTRATOR = [...DOC.matchAll(/^ *runuser -u postgres -- (.+)$/gm)].map((match) => match[1]!);

describe.runIf(canStartServices())("docs/scaling-out.md, step by step", { timeout: 300_000 }, () => {
  it("makes a role and a database that the CLI imports into and checks, at the URL it gives", async () => {
    expect(DOC).toMatch(/^ *apt-get install postgresql-15-postgis-3 osm2pgsql redis-server$/m);
    expect(DOC).toContain("scripts/test-services");
    expect(AS_ADMINISTRATOR.length).toBeGreaterThanOrEqual(3);

    const postgres = await ownPostgres();
    const { hostname, port } = new URL(postgres.url);
    const env = { ...process.env, PGHOST: hostname, PGPORT: port, PGUSER: "postgres" };
    for (const line of AS_ADMINISTRATOR) execFileSync("sh", ["-c", line], { env, stdio: "pipe" });

    const url = /^ *DB=(postgres:\/\/\S+)$/m.exec(DOC)![1]!.replace(":5432/", `:${port}/`);
    expect(new URL(url).username).toBe("osm");
    const imported = await basemodel(["import", MONACO, "--db", url]);
    expect(imported.stderr).toBe("");
    expect(imported.code).toBe(0);
    const checked = await basemodel(["check", "--db", url]);
    expect(checked.stderr).toBe("");
    expect(checked.code).toBe(0);
  });
});
