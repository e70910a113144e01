import fs, { lstatSync, readdirSync, type Dirent } from "node:fs";
import { isAbsolute, join, relative, resolve } from "node:path";
import type FastGlob from "fast-glob";

/** Folders never worth walking. */
export const DEFAULT_IGNORE = ["**/node_modules/**", "**/.git/**"];

export interface FoundFiles {
  /** Absolute paths, each once, sorted. */
  files: string[];
  /** Paths that could not be listed (a folder without permission, a missing path), with the reason. */
  problems: Array<{ path: string; reason: string }>;
  /** Globs that matched nothing. */
  emptyGlobs: string[];
}

export function reasonOf(error: NodeJS.ErrnoException): string {
  switch (error.code) {
    case "ENOENT":
      return "no such file or directory";
    case "EACCES":
    case "EPERM":
      return "permission denied";
    case "ELOOP":
      return "symbolic link loop";
    case "ENOTDIR":
      return "a part of the path is not a folder";
    case "ENAMETOOLONG":
      return "the path is too long";
    default:
      return error.message;
  }
}

// fast-glob costs a fifth of the start-up time: only a run given a glob loads it.
let fastGlob: typeof FastGlob | undefined;
async function loadFastGlob(): Promise<typeof FastGlob> {
  fastGlob ??= (await import("fast-glob")).default;
  return fastGlob;
}

// picomatch, too, is loaded only by a run that walks a folder.
async function ignoreMatcher(ignore: readonly string[]): Promise<(path: string) => boolean> {
  const { default: picomatch } = await import("picomatch");
  return picomatch([...DEFAULT_IGNORE, ...ignore], { dot: true });
}

/**
 * Expands the paths given on the command line: files as they are, folders walked for *.json,
 * globs through fast-glob. A walk records the folders it cannot read instead of stopping, and
 * does not follow symbolic links to folders (as git does), so a link loop cannot trap it.
 */
export async function findFiles(args: readonly string[], cwd: string, ignore: readonly string[]): Promise<FoundFiles> {
  const files = new Set<string>();
  const problems: FoundFiles["problems"] = [];
  const emptyGlobs: string[] = [];
  const display = (path: string) => (isAbsolute(path) ? relative(cwd, path) || "." : path);
  let ignored: ((path: string) => boolean) | undefined;

  const recordingFs = {
    readdir: ((path: string, options: unknown, callback: (error: NodeJS.ErrnoException | null, entries?: unknown) => void) =>
      fs.readdir(path, options as { withFileTypes: true }, (error, entries) => {
        if (error) problems.push({ path: display(path), reason: `cannot list this folder: ${reasonOf(error)}` });
        callback(error, entries);
      })) as unknown as typeof fs.readdir,
  };
  // Files and links, never folders. The walk's own entry types decide; only a link costs a stat.
  const glob = async (patterns: string | string[], base: string): Promise<string[]> =>
    (
      await (await loadFastGlob())(patterns, {
        cwd: base,
        absolute: true,
        dot: false,
        onlyFiles: false,
        followSymbolicLinks: false,
        suppressErrors: true,
        ignore: [...DEFAULT_IGNORE, ...ignore],
        fs: recordingFs,
        objectMode: true,
      })
    )
      .filter(({ dirent, path }) => !dirent.isDirectory() && !(dirent.isSymbolicLink() && isFolder(path)))
      .map(({ path }) => path);

  for (const arg of args) {
    const path = resolve(cwd, arg);
    let isDirectory: boolean;
    try {
      isDirectory = lstatSync(path).isDirectory() || (lstatSync(path).isSymbolicLink() && fs.statSync(path).isDirectory());
    } catch (error) {
      if ((await loadFastGlob()).isDynamicPattern(arg)) {
        const matched = await glob(arg, cwd);
        if (matched.length === 0) emptyGlobs.push(arg);
        matched.forEach((file) => files.add(file));
      } else if ((error as NodeJS.ErrnoException).code === "ENOENT" || (error as NodeJS.ErrnoException).code === "ENOTDIR") {
        problems.push({ path: arg, reason: reasonOf(error as NodeJS.ErrnoException) });
      } else {
        // The link exists but cannot be followed (loop, permission): the reader says why.
        files.add(path);
      }
      continue;
    }
    if (isDirectory) {
      const unreadable = (folder: string, error: NodeJS.ErrnoException) =>
        problems.push({ path: display(folder), reason: `cannot list this folder: ${reasonOf(error)}` });
      ignored ??= await ignoreMatcher(ignore);
      walkFolder(path, ignored, unreadable).forEach((file) => files.add(file));
    } else files.add(path);
  }
  return { files: [...files].sort(), problems, emptyGlobs };
}

/**
 * Every *.json file under a folder, found as fast-glob's "**\/*.json" would find it: hidden
 * entries skipped, paths (relative to the folder) that match an ignore pattern left out and
 * such folders not entered, links to folders not followed. Its own walk, because fast-glob's
 * per-entry work cost as much as validating a tenth of the files.
 */
function walkFolder(root: string, ignored: (path: string) => boolean, unreadable: (folder: string, error: NodeJS.ErrnoException) => void): string[] {
  const found: string[] = [];
  const folders = [""];
  while (folders.length > 0) {
    const folder = folders.pop()!;
    let entries: Dirent[];
    try {
      entries = readdirSync(join(root, folder), { withFileTypes: true });
    } catch (error) {
      unreadable(join(root, folder), error as NodeJS.ErrnoException);
      continue;
    }
    for (const entry of entries) {
      if (entry.name.startsWith(".")) continue;
      const path = folder === "" ? entry.name : `${folder}/${entry.name}`;
      if (ignored(path)) continue;
      if (entry.isDirectory()) folders.push(path);
      else if (entry.name.endsWith(".json") && !(entry.isSymbolicLink() && isFolder(join(root, path)))) found.push(join(root, path));
    }
  }
  return found;
}

/** A walk lists links as they are; a link to a folder that matched *.json is not a file to read. */
function isFolder(path: string): boolean {
  try {
    return fs.statSync(path).isDirectory();
  } catch {
    return false;
  }
}
