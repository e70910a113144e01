/**
 * --check-links (library: checkLinks): every http(s) asset href of an item must answer (see
 * probe.ts). The assets are what a catalogue's users download; fAIr's CI checks its checkpoint and
 * model hrefs the same way. Links (self, parent, collection) are left out: they often name where
 * the item will be published, which need not answer yet. Relative hrefs and other schemes
 * (s3://) are not requests basemodel can make.
 *
 * A LinkChecker asks each distinct URL once, however many items name it, with at most
 * `concurrency` requests under way.
 */
import type { Issue } from "../../diagnostics/issue.js";
import { describeValue, issue } from "../../diagnostics/messages.js";
import { problemText, unknownMember } from "../../diagnostics/schema-problems.js";
import { describePointer, joinPointer } from "../../diagnostics/pointer.js";
import { isHttpUrl } from "../net/http-url.js";
import { isObject } from "../stac/cross-field.js";
import { probe, type ProbeResult } from "./probe.js";

export interface LinkCheckOptions {
  /** How long one request may take, in milliseconds; default 10000 (fAIr's CI waits 10 s). */
  timeoutMs?: number;
  /** Requests under way at once; default 8. */
  concurrency?: number;
}

const DEFAULT_LINK_TIMEOUT_MS = 10_000;
const DEFAULT_CONCURRENCY = 8;

/** An href to check: where it is in the item, and the URL. */
export interface LinkTarget {
  path: string;
  url: string;
}

/** The http(s) hrefs of an item's assets, in the order written. */
export function linkTargets(item: unknown): LinkTarget[] {
  if (!isObject(item) || !isObject(item.assets)) return [];
  return Object.entries(item.assets).flatMap(([key, asset]) =>
    isObject(asset) && typeof asset.href === "string" && isHttpUrl(asset.href) ? [{ path: joinPointer(joinPointer("/assets", key), "href"), url: asset.href }] : [],
  );
}

const OPTION_NAMES = ["timeoutMs", "concurrency"];

function checked(options: LinkCheckOptions): Required<LinkCheckOptions> {
  if (options === null || typeof options !== "object" || Array.isArray(options)) throw new TypeError("link check options must be an object");
  const unknown = Object.keys(options).filter((name) => !OPTION_NAMES.includes(name));
  if (unknown.length > 0) throw new TypeError(unknown.map((name) => problemText(unknownMember("", name, OPTION_NAMES, "the link check options"))).join("; "));
  const { timeoutMs = DEFAULT_LINK_TIMEOUT_MS, concurrency = DEFAULT_CONCURRENCY } = options;
  if (typeof timeoutMs !== "number" || !Number.isFinite(timeoutMs) || timeoutMs <= 0) throw new TypeError(`timeoutMs must be a number of milliseconds above 0; found ${describeValue(timeoutMs)}`);
  if (!Number.isInteger(concurrency) || concurrency < 1) throw new TypeError(`concurrency must be an integer of at least 1; found ${describeValue(concurrency)}`);
  return { timeoutMs, concurrency };
}

export class LinkChecker {
  private readonly options: Required<LinkCheckOptions>;
  private readonly results = new Map<string, Promise<ProbeResult>>();
  private running = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(options: LinkCheckOptions = {}) {
    this.options = checked(options);
  }

  /** Whether a URL can be reached: asked once, the answer shared by everyone who asks again. */
  result(url: string): Promise<ProbeResult> {
    let result = this.results.get(url);
    if (result === undefined) {
      result = this.queued(() => probe(url, this.options.timeoutMs));
      this.results.set(url, result);
    }
    return result;
  }

  /** A link-unreachable issue for every http(s) asset href of the item that cannot be reached. */
  async check(item: unknown): Promise<Issue[]> {
    const targets = linkTargets(item);
    const results = await Promise.all(targets.map((target) => this.result(target.url)));
    return targets.flatMap((target, index) => {
      const result = results[index]!;
      return result.reachable ? [] : [issue("link-unreachable", target.path, `${describePointer(target.path)} cannot be reached: ${result.reason}`, { expected: "an answer with a status below 400", actual: target.url })];
    });
  }

  /** Runs the task once fewer than `concurrency` are under way; a finished task hands its place to the next waiting. */
  private async queued<T>(task: () => Promise<T>): Promise<T> {
    if (this.running < this.options.concurrency) this.running++;
    else await new Promise<void>((start) => this.waiting.push(start));
    try {
      return await task();
    } finally {
      const next = this.waiting.shift();
      if (next !== undefined) next();
      else this.running--;
    }
  }
}

/** The link-unreachable issues of one item: each of its http(s) asset hrefs is asked once. */
export async function checkLinks(item: unknown, options: LinkCheckOptions = {}): Promise<Issue[]> {
  return new LinkChecker(options).check(item);
}
