// Another commit of basemodel, built beside this checkout, for the A/B runs of bench/server.mjs
// and bench/stac.mjs: both sides measured in the same minutes on the same machine.
import { execFileSync } from "node:child_process";
import { mkdirSync, symlinkSync } from "node:fs";
import { join } from "node:path";

const root = new URL("..", import.meta.url).pathname;

/** `ref` as a short commit hash, and a label for this checkout (its commit, "+ changes" when one of `paths` differs from it). */
export function commitLabels(ref, paths = ["src", "scripts"]) {
  const git = (...args) => execFileSync("git", ["-C", root, ...args], { encoding: "utf8" }).trim();
  const changed = git("status", "--porcelain", "--", ...paths) !== "";
  return { commit: git("rev-parse", "--short", ref), current: `this checkout (${git("rev-parse", "--short", "HEAD")}${changed ? " + changes" : ""})` };
}

/** The CLI of `commit`, built in `dir` with this checkout's node_modules: the path of its bin/basemodel.js. */
export function buildCommit(commit, dir) {
  const tree = join(dir, commit);
  mkdirSync(tree);
  execFileSync("sh", ["-c", 'git -C "$0" archive "$1" | tar -x -C "$2"', root, commit, tree]);
  symlinkSync(join(root, "node_modules"), join(tree, "node_modules"));
  execFileSync("npm", ["run", "build"], { cwd: tree, stdio: ["ignore", "ignore", "inherit"] });
  return join(tree, "bin/basemodel.js");
}
