import { beforeAll, describe, expect, it } from "vitest";
import { startExportServer } from "./exports.js";
import type { RunningServer } from "./helpers.js";

describe("OpenAPI document and interactive docs", () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startExportServer();
  });

  it("/openapi.json is OpenAPI 3 and documents every route with its body and answers", async () => {
    const { status, body } = await server.get("/openapi.json");
    expect(status).toBe(200);
    expect(body.openapi).toMatch(/^3\./);
    const paths = Object.keys(body.paths);
    for (const path of ["/latest/status/", "/v1/status/", "/latest/snapshot/plain/", "/latest/snapshot/", "/latest/tasks/status/{task_id}/", "/raw/polygons", "/raw/allList"]) {
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
});
