/**
 * The shell every command runs in (src/cli/shell.ts): each kind of error it may be handed, and
 * the line and exit code it makes of it. The commands' own tests show it end to end.
 */
import { describe, expect, it } from "vitest";
import { DriverMissing, NotAStore, QueueUnreachable, StoreUnreachable, StoreUnwritable } from "../../src/server/errors.js";
import { reportFailure } from "../../src/cli/shell.js";
import { UsageError } from "../../src/cli/usage-error.js";

function report(command: string, error: unknown): { code: number; stderr: string } {
  let stderr = "";
  const code = reportFailure(command, error, { write: (text: string) => (stderr += text) });
  return { code, stderr };
}

describe("the shell's word on a failed command", () => {
  it("says a usage error in one line per problem, exit 2", () => {
    expect(report("update", new UsageError("--db x.db does not exist"))).toEqual({ code: 2, stderr: "basemodel: --db x.db does not exist\n" });
    expect(report("validate", new UsageError("first\nsecond"))).toEqual({ code: 2, stderr: "basemodel: first\nbasemodel: second\n" });
  });

  it("takes a store that is not one for a usage error, exit 2, whichever command met it", () => {
    for (const command of ["update", "check", "serve", "worker"]) {
      expect(report(command, new NotAStore({ location: "x.db" }))).toEqual({ code: 2, stderr: "basemodel: x.db is not a feature store\n" });
    }
  });

  it("names the missing driver as the command's need, whichever adapter found it missing", () => {
    const missing = new DriverMissing({ user: "The PostGIS store", packages: ["pg"] });
    expect(report("worker", missing)).toEqual({ code: 2, stderr: "basemodel: worker needs the optional dependency pg: run `npm install pg@8`\n" });
    expect(report("serve", new DriverMissing({ user: "The Redis task queue", packages: ["bullmq", "ioredis"] })).stderr).toBe(
      "basemodel: serve needs the optional dependencies bullmq, ioredis: run `npm install bullmq@6 ioredis@6`\n",
    );
  });

  it("ends a command the environment stopped with exit 1; a service that cannot start, and validate, with 2", () => {
    const unreachable = new StoreUnreachable({ location: "postgres://h/db", reason: "no PostgreSQL server answers there" });
    expect(report("update", unreachable)).toEqual({ code: 1, stderr: "basemodel: cannot connect to postgres://h/db: no PostgreSQL server answers there\n" });
    expect(report("import", new StoreUnwritable({ location: "x.db", why: "database or disk is full" })).code).toBe(1);
    expect(report("serve", unreachable).code).toBe(2);
    expect(report("worker", new QueueUnreachable({ location: "redis://h:1", why: "connect ECONNREFUSED" })).code).toBe(2);
    const system = Object.assign(new Error("EACCES: permission denied, mkdir '/exports'"), { code: "EACCES", syscall: "mkdir" });
    expect(report("serve", system)).toEqual({ code: 2, stderr: "basemodel: EACCES: permission denied, mkdir '/exports'\n" });
    expect(report("validate", system).code).toBe(2);
    expect(report("check", system).code).toBe(1);
  });

  it("shows a bug as an internal error with its stack, exit 2", () => {
    const { code, stderr } = report("check", new TypeError("cannot read properties of undefined"));
    expect(code).toBe(2);
    expect(stderr).toMatch(/^basemodel: internal error: TypeError: cannot read properties of undefined\n\s+at /);
  });
});
