/** `basemodel import <file> --db postgres://...`: osm2pgsql with our style, run by the real CLI. */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { MONACO } from "../server/osm/helpers.js";
import { postgresTemplateUrl } from "../support/requirements.js";
import { freshDatabases } from "../support/services.js";
import { basemodel, scratchDir, startServe } from "./helpers.js";

const template = postgresTemplateUrl();

/** A failure is one line naming what went wrong, never a stack trace. */
function expectOneLine(stderr: string, ...parts: string[]): void {
  expect(stderr.trimEnd().split("\n")).toHaveLength(1);
  expect(stderr).toMatch(/^basemodel: /);
  expect(stderr).not.toMatch(/\n\s+at /);
  for (const part of parts) expect(stderr).toContain(part);
}

describe.runIf(template)("basemodel import --db postgres://", { timeout: 120_000 }, () => {
  const fresh = freshDatabases(template!);

  it("loads Monaco through osm2pgsql and summarises it as the SQLite import does; a second import replaces the first", async () => {
    const { url } = await fresh();
    for (let run = 0; run < 2; run++) {
      const { code, stdout, stderr } = await basemodel(["import", MONACO, "--db", url]);
      expect(stderr).toBe("");
      expect(code).toBe(0);
      expect(stdout).toMatch(new RegExp(`^Imported ${MONACO.replace(/[.]/g, "\\.")} into ${url.replace(/[.]/g, "\\.")} in \\d+\\.\\d s\\n`));
      expect(stdout).toContain("  nodes      3,654\n  ways_line  3,477\n  ways_poly  2,162\n  relations    228\n  total      9,521\n");
      expect(stdout).toContain("Replication timestamp: 2025-01-01T21:21:00Z\n");
      expect(stdout).toContain("Problems: not counted (osm2pgsql assembled the features)\n");
    }
  });

  it("check --db postgres:// records the findings of every feature; update --db postgres:// applies a change through osm2pgsql", async () => {
    const { url } = await fresh();
    expect((await basemodel(["import", MONACO, "--db", url])).code).toBe(0);
    const checked = await basemodel(["check", "--db", url]);
    expect(checked.stderr).toBe("");
    expect(checked.code).toBe(0);
    expect(checked.stdout).toMatch(new RegExp(`^Checked 9,521 features of ${url.replace(/[.]/g, "\\.")} in \\d+\\.\\d s: 799 with findings \\(rules: the default\\)\\n$`));
    const update = await basemodel(["update", "fixtures/updates/monaco-mapathon-1.osc", "--changesets", "fixtures/updates/monaco-mapathon-changesets.osm", "--db", url]);
    expect(update.stderr).toBe("");
    expect(update.code).toBe(0);
    expect(update.stdout).toMatch(new RegExp(`^Applied monaco-mapathon-1\\.osc to ${url.replace(/[.]/g, "\\.")} in \\d+\\.\\d s\\n`));
    expect(update.stdout).toContain("  created     20 nodes, 5 ways, 0 relations\n  modified    1 node, 0 ways, 0 relations\n");
    expect(update.stdout).toContain("  changesets  3 loaded\nReplication timestamp: 2025-01-10T11:40:00Z\n");
  });

  it("serve --db postgres:// --processes 2 answers from it, each process with its own pool, and stops cleanly", async () => {
    const { url } = await fresh();
    expect((await basemodel(["import", MONACO, "--db", url])).code).toBe(0);
    const server = await startServe(["--db", url, "--port", "0", "--processes", "2", "--exports", join(scratchDir(), "exports")]);
    try {
      expect(server.output().stdout).toContain(`data: ${url}, last updated 2025-01-01T21:21:00Z\n`);
      const area = "7.4186 43.7302, 7.4316 43.7302, 7.4316 43.7392, 7.4186 43.7392, 7.4186 43.7302";
      // More requests at once than one process takes: both processes answer, from their own pools.
      const answers = await Promise.all(
        Array.from({ length: 20 }, async () => {
          const response = await fetch(`${server.url}/raw/all`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ area, tags: "building" }) });
          return { status: response.status, features: ((await response.json()) as { features: unknown[] }).features.length };
        }),
      );
      expect(new Set(answers.map((answer) => JSON.stringify(answer)))).toEqual(new Set([JSON.stringify({ status: 200, features: 399 })]));
    } finally {
      server.child.kill("SIGTERM");
      expect(await server.exited).toBe(0);
    }
  });

  it("without osm2pgsql: one line naming the Debian package", async () => {
    const { url } = await fresh();
    const { code, stderr } = await basemodel(["import", MONACO, "--db", url], { env: { PATH: "/nonexistent" } });
    expect(code).toBe(1);
    expectOneLine(stderr, "osm2pgsql not found: install the Debian package osm2pgsql");
  });

  it("an unreachable server, a missing database, a damaged file: one line each, never the password", async () => {
    const unreachable = await basemodel(["import", MONACO, "--db", "postgres://me:secret@127.0.0.1:1/osm"]);
    expect(unreachable.code).toBe(1);
    expectOneLine(unreachable.stderr, "cannot connect to postgres://me:***@127.0.0.1:1/osm: no PostgreSQL server answers there");
    expect(unreachable.stderr).not.toContain("secret");

    const missing = new URL(template!);
    missing.pathname = "/basemodel_no_such_database";
    const absent = await basemodel(["import", MONACO, "--db", missing.toString()]);
    expect(absent.code).toBe(1);
    expectOneLine(absent.stderr, "the database does not exist");

    const { url } = await fresh();
    const damaged = join(scratchDir(), "damaged.osm.pbf");
    writeFileSync(damaged, Buffer.from("\u0000\u0000\u0000\u000dnot a pbf file at all"));
    const bad = await basemodel(["import", damaged, "--db", url]);
    expect(bad.code).toBe(1);
    expectOneLine(bad.stderr, `osm2pgsql could not load ${damaged}: `);
  });
});
