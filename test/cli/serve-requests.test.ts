/** basemodel serve --cors, --strict-requests, --plain-max-area and --tile-cache, on the real CLI (one process and two). */
import { describe, expect, it } from "vitest";
import { EXAMPLE_POLYGON } from "../../src/server/api/examples.js";
import { basemodel, scratchDir, startServe } from "./helpers.js";
import { tileAt } from "../support/vector-tiles.js";

const RING = "1.1951 22.9955, 1.2049 22.9955, 1.2049 23.0045, 1.1951 23.0045, 1.1951 22.9955";

describe("basemodel serve: how requests are answered", { timeout: 120_000 }, () => {
  it("by default, as the real services: every origin, unknown members ignored, /snapshot/plain/ up to 6 km²", async () => {
    const { child, url, exited } = await startServe(["--port", "0", "--exports", scratchDir()]);
    const answer = await fetch(`${url}/raw/polygons`, { method: "POST", headers: { origin: "http://localhost:5000" }, body: JSON.stringify({ area: RING, hashtags: "x" }) });
    expect([answer.status, answer.headers.get("access-control-allow-origin")]).toEqual([200, "*"]);
    const plain = await fetch(`${url}/latest/snapshot/plain/`, { method: "POST", body: JSON.stringify({ geometry: EXAMPLE_POLYGON, fileName: "x", bindZip: true }) });
    expect(plain.status).toBe(200);
    child.kill("SIGTERM");
    expect(await exited).toBe(0);
  });

  for (const processes of ["1", "2"]) {
    it(`--cors <origins> --strict-requests --plain-max-area --tile-cache, with --processes ${processes}`, async () => {
      const args = ["--port", "0", "--exports", scratchDir(), "--processes", processes];
      const { child, url, exited } = await startServe([...args, "--cors", "http://localhost:5000, https://fair.hotosm.org", "--strict-requests", "--plain-max-area", "0.5", "--tile-cache", "0"]);
      // The demo town's map, its tiles made afresh for each request.
      const tileJson = (await (await fetch(`${url}/tiles.json`)).json()) as { bounds: number[]; center: number[] };
      const [lon, lat] = tileJson.center as [number, number];
      const [z, x, y] = tileAt(lon, lat, 15);
      for (let time = 0; time < 2; time++) expect((await fetch(`${url}/tiles/${z}/${x}/${y}.mvt`)).status).toBe(200);
      const from = (origin: string) => fetch(`${url}/v1/status/`, { headers: { origin } });
      expect((await from("https://fair.hotosm.org")).headers.get("access-control-allow-origin")).toBe("https://fair.hotosm.org");
      expect((await from("https://elsewhere.example")).headers.get("access-control-allow-origin")).toBeNull();
      const unknown = await fetch(`${url}/raw/polygons`, { method: "POST", body: JSON.stringify({ area: RING, hashtags: "x" }) });
      expect(unknown.status).toBe(422);
      expect(((await unknown.json()) as { detail: Array<{ type: string }> }).detail[0]!.type).toBe("extra_forbidden");
      const plain = await fetch(`${url}/latest/snapshot/plain/`, { method: "POST", body: JSON.stringify({ geometry: EXAMPLE_POLYGON }) });
      expect(plain.status).toBe(422);
      expect(JSON.stringify(await plain.json())).toMatch(/above the limit of 0\.5 km²/);
      child.kill("SIGTERM");
      expect(await exited).toBe(0);
    });
  }

  it("--cors none: no CORS header; a --cors that names no origin is a usage error", async () => {
    const { child, url, exited } = await startServe(["--port", "0", "--exports", scratchDir(), "--cors", "none"]);
    expect((await fetch(`${url}/v1/status/`, { headers: { origin: "http://localhost:5000" } })).headers.get("access-control-allow-origin")).toBeNull();
    child.kill("SIGTERM");
    expect(await exited).toBe(0);
    for (const value of ["localhost:5000", "http://localhost:5000/", "http://a.example/path", ","]) {
      const bad = await basemodel(["serve", "--cors", value], { cwd: scratchDir() });
      expect(bad.code, value).toBe(2);
      expect(bad.stderr).toContain("--cors");
    }
    const area = await basemodel(["serve", "--plain-max-area", "-1"], { cwd: scratchDir() });
    expect([area.code, area.stderr.includes("--plain-max-area")]).toEqual([2, true]);
    const cache = await basemodel(["serve", "--tile-cache", "lots"], { cwd: scratchDir() });
    expect([cache.code, cache.stderr.includes("--tile-cache")]).toEqual([2, true]);
  });
});
