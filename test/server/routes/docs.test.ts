import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { beforeAll, describe, expect, it } from "vitest";
import { startExportServer, waitForTask, type ExportServer } from "./exports.js";
import { demoStorePath, type Answer } from "./helpers.js";
import { isCustomOutcome } from "../../../src/server/tasks/export-tasks.js";
import { afterFile } from "../../support/cleanup.js";
import { hasTool } from "../../support/requirements.js";

const hasChromium = hasTool(["chromium"], "chromium");

/** The page as headless Chromium renders it (its DOM once scripts ran), and what the page wrote to the browser's console. */
async function renderedInChromium(url: string): Promise<{ dom: string; console: string[] }> {
  const profile = mkdtempSync(join(tmpdir(), "basemodel-chromium-"));
  afterFile(() => rmSync(profile, { recursive: true, force: true }));
  // --no-sandbox: the tests may run as root, where Chromium's sandbox refuses to start; the page is our own.
  const args = ["--headless", "--no-sandbox", "--disable-gpu", `--user-data-dir=${profile}`, "--enable-logging=stderr", "--v=0", "--virtual-time-budget=10000", "--dump-dom", url];
  const { stdout, stderr } = await promisify(execFile)("chromium", args, { timeout: 90_000, maxBuffer: 64 * 1024 * 1024 });
  return { dom: stdout, console: stderr.split("\n").filter((line) => line.includes(":CONSOLE")) };
}

interface Media {
  schema?: { $ref?: string };
  examples?: Record<string, { value: unknown }>;
}
interface Operation {
  requestBody?: { content: Record<string, Media> };
  responses: Record<string, { description?: string; content?: Record<string, Media> }>;
}

function operations(document: { paths: Record<string, Record<string, Operation>> }): Array<[string, string, Operation]> {
  return Object.entries(document.paths).flatMap(([path, methods]) => Object.entries(methods).map(([method, operation]) => [path, method, operation] as [string, string, Operation]));
}

describe("OpenAPI document and interactive docs, on the demo town", () => {
  let server: ExportServer;
  beforeAll(async () => {
    server = await startExportServer({ store: await demoStorePath() });
  });

  it("/openapi.json is OpenAPI 3 and documents every route with its body and answers", async () => {
    const { status, body } = await server.get("/openapi.json");
    expect(status).toBe(200);
    expect(body.openapi).toMatch(/^3\./);
    const paths = Object.keys(body.paths);
    for (const path of ["/latest/status/", "/v1/status/", "/latest/snapshot/plain/", "/latest/snapshot/", "/latest/tasks/status/{task_id}/", "/raw/polygons", "/raw/allList", "/raw/features", "/raw/list", "/raw/polygons/list", "/raw-validation/features", "/raw-validation/list", "/raw-validation/nodes/list", "/raw-validation/stats", "/raw-validation/stats/lines", "/stats/count", "/stats/features", "/stats/nodes"]) {
      expect(paths).toContain(path);
    }
    const snapshot = body.paths["/latest/snapshot/"].post;
    expect(snapshot.requestBody.content["application/json"].schema).toBeDefined();
    expect(JSON.stringify(body.components.schemas)).toContain("joinFilterType");
    expect(Object.keys(body.paths["/latest/tasks/status/{task_id}/"].get.responses)).toEqual(expect.arrayContaining(["200", "404", "422"]));
    const plain = body.paths["/latest/snapshot/plain/"].post;
    expect(plain.requestBody.content["application/json"].schema).toBeDefined();
    expect(Object.keys(plain.responses)).toEqual(expect.arrayContaining(["200", "422"]));
    expect(JSON.stringify(body.components.schemas)).toContain("lookIn");
  });

  it("/docs works offline: the page and its assets come from this server, none from elsewhere", async () => {
    const page = await fetch(`${server.url}/docs/`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain("swagger");
    const sources = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((match) => match[1]!);
    expect(sources.length).toBeGreaterThan(0);
    for (const source of sources) expect(source).not.toMatch(/^(https?:)?\/\//);
    const init = await fetch(`${server.url}/docs/static/swagger-initializer.js`);
    expect(init.status).toBe(200);
    const bundle = await fetch(`${server.url}/docs/static/swagger-ui-bundle.js`);
    expect(bundle.status).toBe(200);
    expect(Number(bundle.headers.get("content-length") ?? (await bundle.arrayBuffer()).byteLength)).toBeGreaterThan(100_000);
  });

  it.runIf(hasChromium)("/docs renders in a browser with no Content Security Policy error: inline styles allowed, scripts from the server only", async () => {
    const policy = (await fetch(`${server.url}/docs/`)).headers.get("content-security-policy")!;
    const directives = new Map(policy.split(";").map((directive) => directive.trim().split(/\s+/)).map(([name, ...values]) => [name!, values]));
    expect(directives.get("script-src")).toEqual(["'self'"]);
    expect(directives.get("style-src")).toEqual(["'self'", "'unsafe-inline'"]);
    // A server of plain HTTP: the page's own assets must not be asked for over HTTPS.
    expect(directives.has("upgrade-insecure-requests")).toBe(false);
    const { dom, console } = await renderedInChromium(`${server.url}/docs/`);
    expect(console).toEqual([]);
    // Swagger UI rendered the document: its title, and an operation per route.
    expect(dom).toContain("basemodel reference server");
    expect(dom.match(/class="opblock-summary-path"/g)?.length).toBeGreaterThan(40);
  });

  it("every answer has a description and names its schema", async () => {
    const { body } = await server.get("/openapi.json");
    for (const [path, method, operation] of operations(body)) {
      for (const [status, response] of Object.entries(operation.responses)) {
        const where = `${method} ${path} ${status}`;
        expect(response.description, where).toMatch(/\w/);
        expect(response.description, where).not.toBe("Default Response");
        // No Content and Not Modified have no body to name.
        if (status === "204" || status === "304") continue;
        expect(Object.keys(response.content ?? {}).length, where).toBeGreaterThan(0);
        for (const media of Object.values(response.content ?? {})) expect(media.schema?.$ref, where).toMatch(/^#\/components\/schemas\/\w+$/);
      }
    }
  });

  it("every route that documents its answers lists the 503 any route may give (stopping, database or queue unreachable)", async () => {
    const { body } = await server.get("/openapi.json");
    for (const [path, method, operation] of operations(body)) {
      expect(operation.responses["503"]?.content?.["application/json"]?.schema?.$ref, `${method} ${path}`).toBe("#/components/schemas/HTTPError");
    }
  });

  it("documents the export downloads: a zip, 404 and 416", async () => {
    const { body } = await server.get("/openapi.json");
    const download = body.paths["/exports/{file}"].get as Operation;
    expect(download.responses["200"]!.content!["application/zip"]!.schema!.$ref).toBe("#/components/schemas/ZipFile");
    expect(Object.keys(download.responses)).toEqual(expect.arrayContaining(["200", "404", "416"]));
  });

  it("every example request body answers with data on the demo town", async () => {
    const { body: document } = await server.get("/openapi.json");
    let tried = 0;
    for (const [path, method, operation] of operations(document)) {
      if (!operation.requestBody) continue;
      // JSON, or YAML for the route that reads YAML (JSON is YAML: the example is sent as JSON either way).
      const [media] = Object.values(operation.requestBody.content);
      const examples = Object.values(media?.examples ?? {});
      expect(examples.length, `${method} ${path}`).toBeGreaterThan(0);
      for (const { value } of examples) {
        const where = `${method.toUpperCase()} ${path} ${JSON.stringify(value)}`;
        const answer = await server.post(path, value);
        expect(answer.status, `${where}: ${answer.text.slice(0, 300)}`).toBe(200);
        expect(await rowsIn(path, answer), where).toBeGreaterThan(0);
        tried++;
      }
    }
    expect(tried).toBeGreaterThanOrEqual(40);
  });

  /** How much data an answer holds: features, rows, CSV records, the features or buildings counted (per layer too), or the features of the export it queued. */
  async function rowsIn(path: string, answer: Answer): Promise<number> {
    if (path.endsWith("/csv")) return answer.text.trim().split("\n").length - 1;
    if (Array.isArray(answer.body)) return answer.body.length;
    if (typeof answer.body.count === "number") return answer.body.count;
    if (answer.body.features) return answer.body.features.length;
    if (answer.body.raw) return answer.body.raw.osmBuildingsCount;
    if (path === "/layers/count/") return Object.values<number>(answer.body).reduce((sum, count) => sum + count, 0);
    const status = await waitForTask(server, answer.body.track_link);
    expect(status.status, JSON.stringify(status.result)).toBe("SUCCESS");
    const result = (await server.queue.get(answer.body.task_id))!.result!;
    // A custom export: every zip's features (a category's formats hold the same ones).
    return isCustomOutcome(result) ? result.categories.flatMap((category) => category.resources).reduce((sum, zip) => sum + zip.features, 0) : result.features;
  }
});
