// A benchmark's peer that the project does not depend on. stac-node-validator 2 declares Node.js
// 22.12, and as a development dependency it made `npm ci` warn (EBADENGINE) on Node.js 20, which
// basemodel supports; it runs on 20 all the same. A benchmark that needs it installs it once into
// .scratch/bench-peers/ (ignored by git) and runs it from there.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";

const root = new URL("..", import.meta.url).pathname;

/** The path of `file` inside the package `name@version`, installed first if it is not yet there. */
export function benchPeer(name, version, file) {
  const prefix = join(root, ".scratch/bench-peers", `${name.replace("/", "+")}@${version}`);
  const path = join(prefix, "node_modules", name, file);
  if (!existsSync(path)) {
    process.stderr.write(`bench: installing ${name}@${version} into ${prefix} (once)\n`);
    mkdirSync(prefix, { recursive: true });
    execFileSync("npm", ["install", "--prefix", prefix, "--no-save", "--no-package-lock", "--no-audit", "--no-fund", "--loglevel=error", `${name}@${version}`], { stdio: ["ignore", "ignore", "inherit"] });
  }
  return path;
}
