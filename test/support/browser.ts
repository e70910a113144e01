/**
 * A real browser for the pages' tests: Debian's Chromium driven by playwright-core, which never
 * downloads a browser. WebGL (MapLibre) runs on SwiftShader, Chromium's software renderer; the
 * browser's own traffic (updates, safe browsing, ...) is off, so every request a test sees is the
 * page's. Without Chromium the tests skip with one line (a failure under BASEMODEL_TEST_ALL=1).
 */
import { mkdirSync } from "node:fs";
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
  const context = await (await browser()).newContext({ viewport, acceptDownloads: true });
  afterFile(() => context.close());
  const requests: string[] = [];
  const errors: string[] = [];
  context.on("request", (request) => requests.push(request.url()));
  const page = await context.newPage();
  page.on("console", (message) => {
    if (message.type() === "error") errors.push(`console: ${message.text()} (${message.location().url})`);
  });
  page.on("pageerror", (error) => errors.push(`uncaught: ${error.message}`));
  return { page, context, requests, errors };
}

/** Saves what the page shows as docs/screenshots/<name>.png, which README shows; a page with a map once it is still. */
export async function screenshot(page: Page, name: string): Promise<void> {
  await page.locator("[aria-busy=true]").first().waitFor({ state: "detached", timeout: 120_000 });
  const path = resolve(__dirname, "../../docs/screenshots", `${name}.png`);
  mkdirSync(dirname(path), { recursive: true });
  await page.screenshot({ path });
}
