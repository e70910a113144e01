/**
 * The serving processes run without allocation-site pretenuring (src/cli/serve-heap.ts): V8,
 * asked to trace its pretenuring feedback, reports none from the primary or its workers, while
 * they start and while they answer feature queries read row by row. Before, every process
 * reported feedback from its first collections on, and under load some decided to allocate
 * the per-row literals in the old generation for good.
 */
import { spawn } from "node:child_process";
import { describe, expect, it } from "vitest";
import { BIN, scratchDir } from "./helpers.js";

const AREA = "1.1951 22.9955, 1.2049 22.9955, 1.2049 23.0045, 1.1951 23.0045, 1.1951 22.9955";

describe("basemodel serve and V8's pretenuring", { timeout: 180_000 }, () => {
  it("makes no pretenuring decision in the primary or a worker of --processes 2", async () => {
    const child = spawn(process.execPath, ["--trace-pretenuring-statistics", BIN, "serve", "--port", "0", "--processes", "2", "--exports", scratchDir()], {
      cwd: scratchDir(),
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    child.stdout.on("data", (chunk) => (stdout += chunk));
    child.stderr.resume();
    const exited = new Promise((resolve) => child.on("exit", resolve));
    const url = await new Promise<string>((resolve, reject) => {
      child.stdout.on("data", () => {
        const match = /(http:\/\/127\.0\.0\.1:\d+)/.exec(stdout);
        if (match) resolve(match[1]!);
      });
      void exited.then((code) => reject(new Error(`basemodel serve exited with ${code}`)));
    });
    // Enough answers of a few hundred features each for every process to collect its young generation several times.
    for (let round = 0; round < 20; round++) {
      const answers = await Promise.all(
        Array.from({ length: 10 }, () => fetch(`${url}/raw/all`, { method: "POST", headers: { "content-type": "application/json", connection: "close" }, body: JSON.stringify({ area: AREA }) })),
      );
      for (const answer of answers) expect(answer.status).toBe(200);
      await Promise.all(answers.map((answer) => answer.arrayBuffer()));
    }
    child.kill("SIGTERM");
    expect(await exited).toBe(0);
    expect(stdout).toContain("by 2 processes");
    expect(stdout).not.toMatch(/pretenuring/);
  });
});
