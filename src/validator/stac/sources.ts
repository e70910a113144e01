/**
 * Where the JSON document of a schema URL is read from when basemodel compiles it itself (an
 * extension schema that is not bundled, and whatever its $refs point to): the user's schema map
 * first (an exact URL, then the longest URL prefix), then the official files bundled in
 * schema/stac/, then the cache of downloaded schemas (--fetch). Everything is read synchronously,
 * so that validateItem stays synchronous.
 */
import { nodeModuleFor, packageFile } from "../../package-files.js";

/** The schema map and the download cache are files: Node's modules for them. */
const fs = () => nodeModuleFor("node:fs", "schemaMap and schemaCache");
const join = (...paths: string[]) => nodeModuleFor("node:path", "schemaMap and schemaCache").join(...paths);

export type Origin = "map" | "bundled" | "cache";

export interface SchemaLocation {
  file: string;
  origin: Origin;
}

/** A schema document that cannot be used; the message reads after "cannot be checked: ". */
export class SchemaProblem extends Error {
  override name = "SchemaProblem";
}

/**
 * The file of a schema URL in the download cache, at a path that reads like the URL, so that a
 * person can see what is there:
 *
 *   https://example.com/sar/v1.0.0/schema.json -> <cache>/https/example.com/sar/v1.0.0/schema.json
 *
 * The URL's path is already percent-encoded, and URL parsing has resolved its "." and ".."
 * segments, so no segment can leave the cache folder.
 */
export function cacheFile(cache: string, url: string): string {
  const parsed = new URL(url);
  const segments = parsed.pathname.split("/").filter((segment) => segment !== "");
  if (parsed.pathname.endsWith("/") || segments.length === 0) segments.push("index.json");
  if (parsed.search !== "") segments.push(`${segments.pop()!}${encodeURIComponent(parsed.search)}`);
  return join(cache, parsed.protocol.slice(0, -1), parsed.host.replace(/:/g, "_"), ...segments);
}

/** "https://…/schema.json#" (an empty fragment) names the same document as "https://…/schema.json". */
export const withoutFragment = (url: string) => (url.endsWith("#") ? url.slice(0, -1) : url);

/** URL -> file of the official schemas in schema/stac/ (two levels above src/validator/stac, dist/stac and dist/cli-bundle alike). */
let bundledFiles: Map<string, string> | undefined;
function bundledFile(url: string): string | undefined {
  if (bundledFiles === undefined) {
    const folder = packageFile("schema/stac/");
    const { schemas } = JSON.parse(fs().readFileSync(join(folder, "provenance.json"), "utf8")) as { schemas: Array<{ url: string; file: string }> };
    bundledFiles = new Map(schemas.map((entry) => [entry.url, join(folder, entry.file)]));
  }
  return bundledFiles.get(url);
}

const ORIGIN_WORDS: Readonly<Record<Origin, string>> = {
  map: "the schema file mapped to it",
  bundled: "the bundled schema file",
  cache: "the downloaded copy of its schema",
};

function readReason(error: NodeJS.ErrnoException): string {
  if (error.code === "ENOENT") return "no such file";
  if (error.code === "EISDIR") return "it is a folder";
  if (error.code === "EACCES" || error.code === "EPERM") return "permission denied";
  return error.message;
}

export class SchemaSources {
  private readonly exact = new Map<string, string>();
  /** URL prefixes ("https://example.com/schemas/") and their folders, longest first. */
  private readonly prefixes: Array<[string, string]> = [];

  /** `map`: URL or URL prefix ending in "/" -> file or folder (absolute paths); `cache`: the download folder, if used. */
  constructor(
    map: Readonly<Record<string, string>>,
    readonly cache?: string,
  ) {
    for (const [url, path] of Object.entries(map)) {
      if (url.endsWith("/")) this.prefixes.push([url, path]);
      else this.exact.set(withoutFragment(url), path);
    }
    this.prefixes.sort(([a], [b]) => b.length - a.length);
  }

  /** The file the schema map gives for a URL: an exact entry, or the file under a prefix's folder when it exists. */
  mapped(url: string): string | undefined {
    const key = withoutFragment(url);
    const exact = this.exact.get(key);
    if (exact !== undefined) return exact;
    for (const [prefix, folder] of this.prefixes) {
      if (!key.startsWith(prefix)) continue;
      const segments = key.slice(prefix.length).split("/");
      // The rest of the URL names a file in the folder, never a file outside it.
      if (segments.some((segment) => segment === "" || segment === "." || segment === ".." || /[?#\\]/.test(segment))) continue;
      const file = join(folder, ...segments);
      if (fs().existsSync(file)) return file;
    }
    return undefined;
  }

  /** Where the document of a URL is, or undefined when basemodel has none. */
  locate(url: string): SchemaLocation | undefined {
    const key = withoutFragment(url);
    const mapped = this.mapped(key);
    if (mapped !== undefined) return { file: mapped, origin: "map" };
    const bundled = bundledFile(key);
    if (bundled !== undefined) return { file: bundled, origin: "bundled" };
    if (this.cache === undefined) return undefined;
    const cached = cacheFile(this.cache, key);
    return fs().existsSync(cached) ? { file: cached, origin: "cache" } : undefined;
  }

  /** The parsed document at a location; a SchemaProblem saying which file and what is wrong with it. */
  read({ file, origin }: SchemaLocation): unknown {
    const which = `${ORIGIN_WORDS[origin]} (${file})`;
    let text: string;
    try {
      text = fs().readFileSync(file, "utf8");
    } catch (error) {
      throw new SchemaProblem(`${which} cannot be read: ${readReason(error as NodeJS.ErrnoException)}`);
    }
    let doc: unknown;
    try {
      doc = JSON.parse(text);
    } catch (error) {
      throw new SchemaProblem(`${which} is not JSON: ${(error as Error).message}`);
    }
    if (typeof doc !== "boolean" && (doc === null || typeof doc !== "object" || Array.isArray(doc))) {
      throw new SchemaProblem(`${which} holds no JSON Schema: a schema is an object`);
    }
    return doc;
  }
}
