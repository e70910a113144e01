/**
 * A real browser for the pages' tests: Debian's Chromium driven by playwright-core, which never
 * downloads a browser. WebGL (MapLibre) runs on SwiftShader, Chromium's software renderer; the
 * browser's own traffic (updates, safe browsing, ...) is off, so every request a test sees is the
 * page's. Without Chromium the tests skip with one line (a failure under BASEMODEL_TEST_ALL=1).
 */
import { mkdirSync } from "node:fs";
import { createServer as createHttpServer, request as httpRequest, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import type { Duplex } from "node:stream";
import { dirname, resolve } from "node:path";
import { chromium, type Browser, type BrowserContext, type Page } from "playwright-core";
import { afterFile } from "./cleanup.js";
import { hasTool } from "./requirements.js";

export const CHROMIUM = "/usr/bin/chromium";

export const CHROMIUM_ARGS = [
  // Chromium no longer falls back to software WebGL by itself.
  "--use-angle=swiftshader",
  "--enable-unsafe-swiftshader",
  // Nothing of the browser's own goes out: no update checks, field trials, safe browsing or sync.
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-domain-reliability",
  "--disable-sync",
  "--no-first-run",
  "--no-default-browser-check",
  // Nor form predictions (content-autofill.googleapis.com, asked as a page shows a form), time
  // queries, hints or preconnects. Chromium keeps the last --disable-features alone: this one
  // replaces playwright-core's, so it names those of its features that go out too.
  `--disable-features=${["AutofillServerCommunication", "OptimizationHints", "NetworkTimeServiceQuerying", "PreconnectToSearch", "AimEnabled", "MediaRouter", "HttpsUpgrades", "HttpsFirstBalancedModeAutoEnable", "PaintHolding"].join(",")}`,
];

/** Whether Debian's chromium is installed; else one line says to install it. */
export function hasChromium(): boolean {
  return hasTool([CHROMIUM], "chromium");
}

let launched: Promise<Browser> | undefined;

/** One headless Chromium per test file, closed after it. */
export function browser(): Promise<Browser> {
  launched ??= (async () => {
    const started = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
    afterFile(() => started.close());
    return started;
  })();
  return launched;
}

/**
 * An HTTP proxy that every request of a browser context goes through, loopback included: the one
 * record of what went out for the page, its workers' requests and the browser's own on its behalf
 * too (Playwright's request events show only the page's and its workers': Chromium's form
 * predictions to content-autofill.googleapis.com showed here alone). Requests to loopback are
 * passed on; any other is refused (502, or 403 for a tunnel) and recorded all the same.
 */
async function recordingProxy(): Promise<{ server: string; requests: string[] }> {
  const requests: string[] = [];
  const proxy = createHttpServer((request, reply) => {
    const url = request.url ?? "";
    requests.push(url);
    const target = new URL(url);
    if (!LOOPBACK.has(target.hostname)) {
      reply.writeHead(502).end("not on this machine");
      return;
    }
    const forwarded = httpRequest(url, { method: request.method, headers: request.headers }, (answer) => {
      reply.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(reply);
    });
    forwarded.on("error", () => reply.destroy());
    request.pipe(forwarded);
  });
  proxy.on("connect", (request: IncomingMessage, socket: Duplex) => {
    requests.push(`https://${request.url ?? ""}`);
    socket.end("HTTP/1.1 403 Forbidden\r\n\r\n");
  });
  await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve));
  afterFile(() => new Promise((resolve) => proxy.close(resolve)));
  proxy.unref();
  return { server: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`, requests };
}

const LOOPBACK = new Set(["127.0.0.1", "localhost", "[::1]"]);

/** A page and what it did: every request's URL (the page's and its workers'), and what went wrong in it. */
export interface WatchedPage {
  page: Page;
  context: BrowserContext;
  requests: string[];
  /** Console errors and uncaught exceptions, in words. */
  errors: string[];
}

/** A fresh browser context (no cache, no cookies) with one page, watched from before its first request. */
export async function watchedPage(viewport = { width: 1280, height: 800 }): Promise<WatchedPage> {
  const { server, requests } = await recordingProxy();
  // Playwright sends loopback through a context's proxy too (it adds <-loopback> to the bypass list).
  const context = await (await browser()).newContext({ viewport, acceptDownloads: true, proxy: { server } });
  afterFile(() => context.close());
  const errors: string[] = [];
  const page = await context.newPage();
  page.on("console", (message) => {
    if (message.type() === "error") errors.push(`console: ${message.text()} (${message.location().url})`);
  });
  page.on("pageerror", (error) => errors.push(`uncaught: ${error.message}`));
  return { page, context, requests, errors };
}

/**
 * Where screenshots go: .scratch/screenshots (ignored by git), so that a test run leaves the
 * checkout as it was; `npm run screenshots` points it at docs/screenshots, which README shows.
 */
const SCREENSHOTS = resolve(__dirname, "../..", process.env.BASEMODEL_SCREENSHOTS ?? ".scratch/screenshots");

/**
 * Saves what the page shows as <name>.jpg, a page with a map once it is still; `setup` names a
 * folder of their own for the shots of a server other than README's.
 */
export async function screenshot(page: Page, name: string, setup = ""): Promise<void> {
  await page.locator("[aria-busy=true]").first().waitFor({ state: "detached", timeout: 120_000 });
  const path = resolve(SCREENSHOTS, setup, `${name}.jpg`);
  mkdirSync(dirname(path), { recursive: true });
  // JPEG: a map's screenshot is a fifth of its PNG, and as readable.
  await page.screenshot({ path, type: "jpeg", quality: 80 });
}
