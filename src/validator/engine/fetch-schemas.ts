/**
 * --fetch (library: fetchSchemas): downloads, into the cache (cacheFile in sources.ts), the extension schemas
 * items name that basemodel neither bundles nor was given in the schema map, and the documents
 * their $refs point to. Each URL is asked once: what the cache holds is never asked again.
 * This runs before validation, which then reads the cache synchronously (runtime.ts), so that
 * validateItem stays synchronous.
 */
import type { EngineSettings } from "../item/settings.js";
import { nodeModuleFor } from "../../package-files.js";
import { settingsFrom, type ValidatorOptions } from "./validator.js";
import { describeValue } from "../../diagnostics/messages.js";
import { isHttpUrl } from "../net/http-url.js";
import { textWithin } from "../net/bounded-text.js";
import { networkFailure, statusWords } from "../net/failure.js";
import { isObject } from "../stac/cross-field.js";
import { referencedDocuments } from "../stac/expand.js";
import { checkExtensionUrls } from "../stac/extension-urls.js";
import { cacheFile, SchemaSources, withoutFragment } from "../stac/sources.js";

export interface FetchOptions {
  /** How long one download may take, in milliseconds; default 30000. */
  timeoutMs?: number;
}

export interface FetchReport {
  /** The URLs downloaded into the cache. */
  downloaded: string[];
  /** The URLs that could not be, and why. */
  failed: Array<{ url: string; reason: string }>;
}

export const DEFAULT_FETCH_TIMEOUT_MS = 30_000;

/**
 * The largest schema downloaded, in bytes: the largest of STAC's and MLM's is under 100 KB. A host
 * that sends more is not sending a schema, and is not read further (one sending 10 GB took the
 * command to 5 GB of memory).
 */
export const MAX_SCHEMA_BYTES = 4 * 1024 * 1024;

export class SchemaFetcher {
  private readonly sources: SchemaSources;
  private readonly cache: string;
  /** Every URL handled so far: found, downloaded or failed. */
  private readonly seen = new Set<string>();

  constructor(
    private readonly settings: Readonly<EngineSettings>,
    private readonly timeoutMs = DEFAULT_FETCH_TIMEOUT_MS,
  ) {
    if (settings.schemaCache === undefined) throw new TypeError("fetching schemas needs a schemaCache folder");
    if (!(Number.isFinite(timeoutMs) && timeoutMs > 0)) throw new TypeError(`timeoutMs must be a number of milliseconds above 0; found ${describeValue(timeoutMs)}`);
    this.cache = settings.schemaCache;
    this.sources = new SchemaSources(settings.schemaMap, settings.schemaCache);
  }

  /** The schema URLs an item names that validation would have no schema for, and the mapped ones (their $refs may need downloading). */
  private wanted(item: unknown): string[] {
    if (!isObject(item) || !Array.isArray(item.stac_extensions)) return [];
    const unknown = checkExtensionUrls(item.stac_extensions, this.settings.schemaUrl).issues.filter((issue) => issue.rule === "stac-extension-unknown");
    const mapped = item.stac_extensions.filter((url): url is string => typeof url === "string" && this.sources.mapped(url) !== undefined);
    return [...mapped, ...unknown.map((issue) => issue.actual as string)];
  }

  /** Downloads what these items need and the cache lacks; each URL once in the fetcher's life. */
  async fetchFor(items: Iterable<unknown>): Promise<FetchReport> {
    const report: FetchReport = { downloaded: [], failed: [] };
    let pending = [...items].flatMap((item) => this.wanted(item));
    // Breadth first, so that $refs that lead back to a document already handled end the walk.
    while (pending.length > 0) {
      const fresh = [...new Set(pending.map(withoutFragment))].filter((url) => !this.seen.has(url));
      for (const url of fresh) this.seen.add(url);
      const documents = await Promise.all(fresh.map(async (url) => [url, await this.bring(url, report)] as const));
      pending = documents.flatMap(([url, doc]) => (doc === undefined ? [] : referencedDocuments(doc, url)));
    }
    return report;
  }

  /** The document of a URL: from the map or the cache when there, else downloaded into the cache. Undefined when bundled (its $refs are too) or unusable. */
  private async bring(url: string, report: FetchReport): Promise<unknown> {
    const location = this.sources.locate(url);
    if (location?.origin === "bundled") return undefined;
    if (location !== undefined) {
      try {
        return this.sources.read(location);
      } catch {
        return undefined; // validation says what is wrong with it, at the item that names it
      }
    }
    const failed = (reason: string) => {
      report.failed.push({ url, reason });
      return undefined;
    };
    if (!isHttpUrl(url)) return failed("it is not an http(s) URL");
    let text: string | undefined;
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(this.timeoutMs) });
      if (!response.ok) {
        await response.body?.cancel().catch(() => {});
        return failed(`the server answered ${statusWords(response.status, response.statusText)}`);
      }
      text = await textWithin(response, MAX_SCHEMA_BYTES);
    } catch (error) {
      return failed(networkFailure(error, url, this.timeoutMs).words);
    }
    if (text === undefined) return failed(`the answer is larger than ${MAX_SCHEMA_BYTES / 1024 / 1024} MiB, far more than any JSON Schema; it was not read further`);
    let doc: unknown;
    try {
      doc = JSON.parse(text);
    } catch {
      return failed(`the answer is not JSON (it begins ${JSON.stringify(text.slice(0, 40))})`);
    }
    if (typeof doc !== "boolean" && !isObject(doc)) return failed("the answer holds no JSON Schema: a schema is an object");
    const file = cacheFile(this.cache, url);
    try {
      const fs = nodeModuleFor("node:fs", "fetchSchemas");
      fs.mkdirSync(nodeModuleFor("node:path", "fetchSchemas").dirname(file), { recursive: true });
      // Written whole, then renamed: another run reading the cache never sees half a file.
      const partial = `${file}.${process.pid}.partial`;
      fs.writeFileSync(partial, text);
      fs.renameSync(partial, file);
    } catch (error) {
      return failed(`it cannot be written to the cache: ${(error as Error).message}`);
    }
    report.downloaded.push(url);
    return doc;
  }
}

/**
 * Downloads the extension schemas these items name that are neither bundled nor in the schema
 * map into the cache (default $XDG_CACHE_HOME/basemodel/schemas), for validateItem with the same
 * options (schemaCache: true, or the same folder) to check them. Give it the options you
 * validate with; never throws for a URL it cannot download: the report says why.
 */
export async function fetchSchemas(items: Iterable<unknown>, options: ValidatorOptions & FetchOptions = {}): Promise<FetchReport> {
  const { timeoutMs, ...validatorOptions } = options;
  return new SchemaFetcher(settingsFrom({ stac: true, schemaCache: true, ...validatorOptions }), timeoutMs).fetchFor(items);
}
