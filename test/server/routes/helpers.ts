import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Ajv } from "ajv";
import { afterFile } from "../../support/cleanup.js";
import { schemas } from "../../../src/server/api/index.js";
import { createServer, type ServerOptions } from "../../../src/server/app.js";
import { openStore } from "../../../src/server/store/open.js";
import type { FeatureStore } from "../../../src/server/store/store.js";
import { monacoPostgisUrl, monacoStorePath } from "../../support/monaco.js";
import { postgresTemplateUrl } from "../../support/requirements.js";
export { monacoStorePath };

/**
 * An answer's JSON (undefined when its text is not JSON), as the tests read it. Untyped on
 * purpose: one client reads the answers of every route, errors included, and each test asserts
 * the shape it expects of its route (wireValidator checks answers against the published schemas).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- each test's assertions are the check of the answer's shape (see above)
export type AnswerBody = any;

/** An answer as the tests read it: its status, its JSON and its text. */
export interface Answer {
  status: number;
  body: AnswerBody;
  text: string;
}

export interface RunningServer {
  url: string;
  store: FeatureStore;
  post(path: string, body: unknown, headers?: Record<string, string>): Promise<Answer>;
  get(path: string, headers?: Record<string, string>): Promise<Answer>;
  /** Stops the server and closes its store, before the end of the file (a restart); done after the file otherwise. */
  close(): Promise<void>;
}

/** The real server on a real port, over a real store (a file, or a postgres:// URL); closed after the test file. */
export async function startServer(storePath: string, options: Omit<ServerOptions, "store"> = {}): Promise<RunningServer> {
  const store = await openStore(storePath);
  const app = await createServer({ store, ...options });
  const url = await app.listen({ port: 0, host: "127.0.0.1" });
  let closed: Promise<void> | undefined;
  const close = () =>
    (closed ??= (async () => {
      await app.close();
      await store.close();
    })());
  afterFile(close);
  return { url, store, ...httpClient(url), close };
}

/** GET and POST to the server at `url`, each answer read as text and, where it is, JSON. */
export function httpClient(url: string): Pick<RunningServer, "get" | "post"> {
  const answer = async (response: Response) => {
    const text = await response.text();
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      body = undefined;
    }
    return { status: response.status, body, text };
  };
  return {
    post: async (path, body, headers = { "content-type": "application/json" }) =>
      answer(await fetch(url + path, { method: "POST", headers, body: typeof body === "string" ? body : JSON.stringify(body) })),
    get: async (path, headers) => answer(await fetch(url + path, { headers })),
  };
}

/** An independent check of answers against the published wire schemas of basemodel/api. */
export function wireValidator(id: string): (value: unknown) => boolean {
  const ajv = new Ajv({ allErrors: true, strict: false });
  for (const schema of schemas) ajv.addSchema(schema);
  const validate = ajv.getSchema(`${id}#`) ?? ajv.getSchema(id);
  if (!validate) throw new Error(`no schema ${id}`);
  return (value) => {
    const ok = validate(value) as boolean;
    if (!ok) throw new Error(`${id}: ${ajv.errorsText(validate.errors)}`);
    return ok;
  };
}

/** Monaco's centre (Monte-Carlo): about 1 km². */
export const MONACO_CENTRE = { minX: 7.4186, minY: 43.7302, maxX: 7.4316, maxY: 43.7392 };

export function ringOf(box: typeof MONACO_CENTRE): string {
  const { minX, minY, maxX, maxY } = box;
  return `${minX} ${minY}, ${maxX} ${minY}, ${maxX} ${maxY}, ${minX} ${maxY}, ${minX} ${minY}`;
}

let demoStore: Promise<string> | undefined;

/** The demo town (src/server/demo), made once per test file in its own folder, removed after the file. */
export function demoStorePath(): Promise<string> {
  demoStore ??= (async () => {
    const { createDemoStore } = await import("../../../src/server/demo/index.js");
    const dir = mkdtempSync(join(tmpdir(), "basemodel-demo-"));
    afterFile(() => rmSync(dir, { recursive: true, force: true }));
    const path = join(dir, "demo.db");
    await createDemoStore(path);
    return path;
  })();
  return demoStore;
}

/**
 * The stores a route must answer alike from, each holding Monaco: SQLite, and PostGIS where
 * scripts/test-services runs (else a one-line skip; a failure under BASEMODEL_TEST_ALL=1).
 * For describe.each: [name, a function that gives the store's path or URL].
 */
export function monacoStores(): Array<[name: string, location: () => Promise<string>]> {
  const template = postgresTemplateUrl();
  return [["SQLite", monacoStorePath], ...(template === undefined ? [] : [["PostGIS", () => monacoPostgisUrl(template)] as [string, () => Promise<string>]])];
}
