/**
 * A plain static file server, as any static host is: node:http and node:fs, nothing of
 * basemodel's, no headers beyond a content type. It serves a folder below a path (a site that is
 * not at a host's root); `refuse` makes chosen files answer 404 from then on (a host that lost them).
 */
import { readFile } from "node:fs/promises";
import { createServer } from "node:http";
import { extname, join, normalize } from "node:path";
import { listenLocally } from "./local-http.js";

const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript",
  ".mjs": "text/javascript",
  ".css": "text/css",
  ".svg": "image/svg+xml",
  ".json": "application/json",
};

export interface StaticHost {
  /** The site's address: http://127.0.0.1:<port><below>/ */
  url: string;
  /** From now on, the files whose path (relative to the folder) passes `test` answer 404. */
  refuse(test: (path: string) => boolean): void;
}

export async function staticHost(folder: string, below = "/site"): Promise<StaticHost> {
  let refused = (_path: string): boolean => false;
  const server = createServer((request, response) => {
    const path = decodeURIComponent(new URL(request.url ?? "/", "http://host").pathname);
    const relative = path.startsWith(`${below}/`) ? normalize(path.slice(below.length + 1)) : undefined;
    if (relative === undefined || relative.startsWith("..") || refused(relative)) return response.writeHead(404).end();
    readFile(join(folder, relative)).then(
      (bytes) => response.writeHead(200, { "content-type": TYPES[extname(relative)] ?? "application/octet-stream" }).end(bytes),
      () => response.writeHead(404).end(),
    );
  });
  return {
    url: `${await listenLocally(server)}${below}/`,
    refuse: (test) => {
      refused = test;
    },
  };
}
