import { existsSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { basemodel, BIN, scratchDir, startServe } from "./helpers.js";

describe("basemodel serve", { timeout: 120_000 }, () => {
  const exportsDir = scratchDir();

  it("with no --db serves the generated demo town, answers real requests, and stops cleanly on SIGTERM", async () => {
    const { child, url, output, exited } = await startServe(["--port", "0", "--exports", exportsDir]);
    const { stdout } = output();
    expect(stdout).toContain("demo dataset");
    const status = await (await fetch(`${url}/latest/status/`)).json();
    expect(status).toEqual({ lastUpdated: "2025-01-01 00:00:00+00:00" });
    const area = "1.1951 22.9955, 1.2049 22.9955, 1.2049 23.0045, 1.1951 23.0045, 1.1951 22.9955";
    const buildings = (await (await fetch(`${url}/raw/polygons`, { method: "POST", body: JSON.stringify({ area, tags: "building" }) })).json()) as { features: unknown[] };
    expect(buildings.features.length).toBeGreaterThan(100);
    child.kill("SIGTERM");
    expect(await exited).toBe(0);
    // The log: a line per request, nothing worse, and nothing that is no log line (a warning of Node's or Fastify's).
    expect(output().stderr).not.toMatch(/ (WARN|ERROR) /);
    expect(output().stderr.split("\n").filter((line) => line !== "" && !/^\d{4}-\d\d-\d\dT\S+Z INFO {2}/.test(line))).toEqual([]);
    expect(output().stderr).toMatch(/ INFO {2}POST \/raw\/polygons 200 /);
  });

  it("refuses a --db that does not exist, or a port that is not one, with exit 2", async () => {
    const missing = await basemodel(["serve", "--db", "/nonexistent/monaco.db"]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain("no store at /nonexistent/monaco.db");
    expect(existsSync("/nonexistent")).toBe(false);
    for (const [flags, says] of [
      [["--workers", "0"], "--workers"],
      [["--processes", "0"], "--processes"],
      [["--processes", "1.5"], "--processes"],
      [["--max-area", "many"], "--max-area"],
      [["--export-max-age", "-1"], "--export-max-age"],
      [["--public-url", "ftp://exports.example.org"], "--public-url must be an http(s) address"],
    ] as const) {
      const bad = await basemodel(["serve", ...flags], { cwd: scratchDir() });
      expect(bad.code, flags.join(" ")).toBe(2);
      expect(bad.stderr).toContain(says);
    }
    const badPort = await basemodel(["serve", "--port", "http"], { cwd: scratchDir() });
    expect(badPort.code).toBe(2);
    expect(badPort.stderr).toContain("port");
  });

  it("refuses a file that is not a store", async () => {
    const run = await basemodel(["serve", "--db", BIN]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/not a feature store/);
  });
});
