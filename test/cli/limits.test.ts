import { copyFileSync, mkdirSync, readdirSync, truncateSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import { basemodel, ROOT, scratchDir } from "./helpers.js";

const TOO_LARGE = "is larger than 512 MiB, the most basemodel reads from one input";
const MiB = 2 ** 20;
/** The documented limit, rounded up (V8's longest string is 24 bytes shorter). */
const LIMIT = 512 * MiB;

describe("basemodel validate: inputs over the size limit", () => {
  it("gives a file over 512 MiB one line and validates the others", async () => {
    const dir = scratchDir();
    mkdirSync(join(dir, "items"));
    const valid = readdirSync(join(ROOT, "fixtures/valid")).filter((name) => name.endsWith(".json"));
    for (const name of valid) copyFileSync(join(ROOT, "fixtures/valid", name), join(dir, "items", name));
    // Sparse: 513 MiB that take no room on the disk.
    writeFileSync(join(dir, "items/huge.json"), "");
    truncateSync(join(dir, "items/huge.json"), 513 * MiB);

    const run = await basemodel(["validate", "items"], { cwd: dir });
    expect(run.stderr).toBe("");
    expect(run.code).toBe(2);
    const lines = run.stdout.trimEnd().split("\n");
    expect(lines).toContain(`items/huge.json  error  ${TOO_LARGE}`);
    for (const name of valid) expect(lines).toContain(`items/${name}  ok`);
    expect(lines.at(-1)).toMatch(new RegExp(`^${valid.length + 1} files, 1 unreadable, ${valid.length} items: ${valid.length} valid, 0 invalid;`));
  });

  it("stops reading endless standard input past the limit, with one line", async () => {
    // Far more than the limit, though not endless, so that a CLI that never stops still ends.
    const offered = LIMIT + 64 * MiB;
    const zeros = Buffer.alloc(MiB);
    let sent = 0;
    const input = new Readable({
      read() {
        if (sent >= offered) this.push(null);
        else {
          sent += zeros.length;
          this.push(zeros);
        }
      },
    });
    const run = await basemodel(["validate", "-", "--format", "json"], { input });
    expect(run.stderr).toBe("");
    expect(run.code).toBe(2);
    expect(JSON.parse(run.stdout).files).toEqual([{ file: "<stdin>", readError: TOO_LARGE, items: [] }]);
    // It stopped once past the limit: what it took is the limit and what pipes hold, not the rest.
    expect(sent).toBeLessThan(LIMIT + 16 * MiB);
  });
});
