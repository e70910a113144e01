/**
 * basemodel validate --check-links, the real CLI against a real HTTP server on 127.0.0.1: each
 * href that cannot be reached is an error at its place in the file (JSON and NDJSON), each
 * distinct URL is asked once in the whole run, and --link-timeout bounds a request.
 */
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { basemodel, ROOT, scratchDir } from "./helpers.js";
import { localServer, type Route } from "../support/local-http.js";

const answer =
  (status: number): Route =>
  (_request, response) =>
    response.writeHead(status).end();

const server = await localServer({
  "/ok": answer(200),
  "/gone": answer(404),
  "/head-refused": (request, response) => response.writeHead(request.method === "HEAD" ? 405 : 206).end(),
  "/silent": () => {},
});

const fixture = (name: string) => JSON.parse(readFileSync(path.join(ROOT, "fixtures/valid", name), "utf8"));

/** The minimal fixture with its source code (the one http(s) href) at `href`, on one line. */
function minimalLine(href: string): string {
  const item = fixture("minimal.json");
  item.assets["source-code"].href = href;
  return JSON.stringify(item);
}

describe("basemodel validate --check-links", () => {
  it("reports each asset href that cannot be reached at file:line:col, asking each URL once across files", async () => {
    const dir = scratchDir();
    const realistic = fixture("realistic-segmentation.json");
    realistic.assets.weights.href = `${server.url}/ok`;
    realistic.assets.model.href = `${server.url}/gone`;
    realistic.assets["source-code"].href = `${server.url}/head-refused`;
    realistic.assets.readme.href = `${server.url}/ok`;
    const realisticText = JSON.stringify(realistic, null, 2);
    const linesText = `${minimalLine(`${server.url}/ok`)}\n\n${minimalLine(`${server.url}/gone`)}\n`;
    writeFileSync(path.join(dir, "realistic.json"), realisticText);
    writeFileSync(path.join(dir, "lines.ndjson"), linesText);

    const run = await basemodel(["validate", "--check-links", "--no-color", "realistic.json", "lines.ndjson"], { cwd: dir });
    expect(run.code).toBe(1);
    const unreachable = "error  link-unreachable  assets.model.href cannot be reached: the server answered 404 Not Found";
    expect(run.stdout.split("\n").filter((line) => line.includes("link-unreachable")).map((line) => line.trim())).toEqual([
      `lines.ndjson:${placeOf(linesText, `${server.url}/gone`)}  ${unreachable.replace("assets.model", "assets.source-code")}`,
      `realistic.json:${placeOf(realisticText, `${server.url}/gone`)}  ${unreachable}`,
    ]);
    expect(run.stdout).toContain("2 files, 3 items: 1 valid, 2 invalid");
    expect(["/ok", "/gone"].map((url) => server.count("HEAD", url))).toEqual([1, 1]);
    expect([server.count("HEAD", "/head-refused"), server.count("GET", "/head-refused")]).toEqual([1, 1]);
  });

  it("puts the finding in the JSON report with its position; an item whose hrefs all answer stays valid", async () => {
    const dir = scratchDir();
    writeFileSync(path.join(dir, "item.json"), minimalLine(`${server.url}/gone`));
    writeFileSync(path.join(dir, "fine.json"), minimalLine(`${server.url}/ok`));
    const run = await basemodel(["validate", "--check-links", "--format", "json", "item.json", "fine.json"], { cwd: dir });
    const report = JSON.parse(run.stdout);
    const byName = Object.fromEntries(report.files.map((file: { file: string; items: unknown[] }) => [file.file, file.items[0]]));
    expect([byName["item.json"].valid, byName["fine.json"].valid]).toEqual([false, true]);
    expect(byName["item.json"].errors).toEqual([
      expect.objectContaining({ rule: "link-unreachable", path: "/assets/source-code/href", line: 1, actual: `${server.url}/gone`, expected: "an answer with a status below 400" }),
    ]);
  });

  it("gives up on a request after --link-timeout seconds", async () => {
    const dir = scratchDir();
    writeFileSync(path.join(dir, "item.json"), minimalLine(`${server.url}/silent`));
    const run = await basemodel(["validate", "--check-links", "--link-timeout", "0.3", "--no-color", "item.json"], { cwd: dir });
    expect(run.code).toBe(1);
    expect(run.stdout).toContain(`assets.source-code.href cannot be reached: no answer from ${server.url.slice("http://".length)} within 0.3 s`);
  });

  it("refuses --link-timeout without --check-links, one that is not a positive number, and --check-links with --offline", async () => {
    const file = path.join(ROOT, "fixtures/valid/minimal.json");
    const offline = await basemodel(["validate", "--stac", "--offline", "--check-links", file]);
    expect([offline.code, offline.stderr]).toEqual([2, "basemodel: --check-links sends requests, which --offline forbids\n"]);
    const alone = await basemodel(["validate", "--link-timeout", "5", file]);
    expect([alone.code, alone.stderr]).toEqual([2, "basemodel: --link-timeout is the timeout of --check-links: add --check-links\n"]);
    const zero = await basemodel(["validate", "--check-links", "--link-timeout", "0", file]);
    expect(zero.code).toBe(2);
  });
});

/** "line:column" (1-based) where a string value is written in a text. */
function placeOf(text: string, value: string): string {
  const lines = text.split("\n");
  const line = lines.findIndex((written) => written.includes(JSON.stringify(value)));
  return `${line + 1}:${lines[line]!.indexOf(JSON.stringify(value)) + 1}`;
}
