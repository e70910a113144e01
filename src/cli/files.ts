import fs, { lstatSync, readdirSync, type Dirent } from "node:fs";
import { isAbsolute, join, relative, resolve } from "node:path";
import type FastGlob from "fast-glob";

/** Folders never worth walking, by name. */
const NEVER_WALKED = new Set(["node_modules", ".git"]);

/** The same folders as ignore patterns, anywhere under a folder walked or a glob. */
export const DEFAULT_IGNORE = [...NEVER_WALKED].map((name) => `**/${name}/**`);

export interface FoundFile {
  /** Absolute: the file to read. */
  path: string;
  /**
   * The path as the user typed it: a file argument itself, a file found in a folder joined to
   * the folder as typed, a glob's match as the glob was written (absolute if it was).
   */
  shown: string;
  /**
   * For a file a folder walk or a glob found, rather than one named itself: its path as --ignore
   * patterns see it (relative to the folder walked; a glob's match as written).
   */
  ignorePath?: string;
}

export interface FoundFiles {
  /** Each file once (shown as first found), sorted by absolute path. */
  files: FoundFile[];
  /**
   * Paths that could not be listed (a folder without permission, a missing path), with the
   * reason; `ignorePath` as for files, when a walk came upon it.
   */
  problems: Array<{ path: string; reason: string; ignorePath?: string }>;
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

/** What DEFAULT_IGNORE matches, as picomatch matches it: a path with one of those folders' names as a part. */
const inNeverWalked = (path: string) => path.split("/").some((part) => NEVER_WALKED.has(part));

// picomatch, too, is loaded only by a run that walks a folder, and only when the user gave
// patterns: loading it and matching every path cost more than reading a file in ten.
async function ignoreMatcher(ignore: readonly string[]): Promise<(path: string) => boolean> {
  if (ignore.length === 0) return inNeverWalked;
  const { default: picomatch } = await import("picomatch");
  return picomatch([...DEFAULT_IGNORE, ...ignore], { dot: true });
}

/**
 * Expands the paths given on the command line: files as they are, folders walked for *.json,
 * globs through fast-glob. A walk records the folders it cannot read instead of stopping, and
 * does not follow symbolic links to folders (as git does), so a link loop cannot trap it.
 */
export async function findFiles(args: readonly string[], cwd: string, ignore: readonly string[]): Promise<FoundFiles> {
  const files = new Map<string, Omit<FoundFile, "path">>();
  // A file both named and found counts as named.
  const add = (path: string, shown: string, ignorePath?: string) => {
    const known = files.get(path);
    if (known === undefined) files.set(path, ignorePath === undefined ? { shown } : { shown, ignorePath });
    else if (ignorePath === undefined) delete known.ignorePath;
  };
  const problems: FoundFiles["problems"] = [];
  const emptyGlobs: string[] = [];
  let ignored: ((path: string) => boolean) | undefined;

  // fast-glob lists folders by their absolute path; a folder it cannot list is shown as the glob was written.
  // A folder that does not exist is no problem: the glob matches nothing there, which is said once.
  const recordingFs = (pattern: string) => ({
    readdir: ((path: string, options: unknown, callback: (error: NodeJS.ErrnoException | null, entries?: unknown) => void) =>
      fs.readdir(path, options as { withFileTypes: true }, (error, entries) => {
        const shown = isAbsolute(pattern) ? path : relative(cwd, path) || ".";
        if (error && error.code !== "ENOENT") problems.push({ path: shown, reason: `cannot list this folder: ${reasonOf(error)}`, ignorePath: `${shown}/**` });
        callback(error, entries);
      })) as unknown as typeof fs.readdir,
  });
  // Files and links, never folders. The walk's own entry types decide; only a link costs a stat.
  // Matches come relative to cwd as the pattern was written, absolute for an absolute pattern.
  const glob = async (pattern: string): Promise<string[]> =>
    (
      await (await loadFastGlob())(pattern, {
        cwd,
        dot: false,
        onlyFiles: false,
        followSymbolicLinks: false,
        suppressErrors: true,
        ignore: [...DEFAULT_IGNORE, ...ignore],
        fs: recordingFs(pattern),
        objectMode: true,
      })
    )
      .filter(({ dirent, path }) => !dirent.isDirectory() && !(dirent.isSymbolicLink() && isFolder(resolve(cwd, path))))
      .map(({ path }) => path);

  for (const arg of args) {
    const path = resolve(cwd, arg);
    let isDirectory: boolean;
    try {
      isDirectory = lstatSync(path).isDirectory() || (lstatSync(path).isSymbolicLink() && fs.statSync(path).isDirectory());
    } catch (error) {
      if ((await loadFastGlob()).isDynamicPattern(arg)) {
        const matched = await glob(arg);
        if (matched.length === 0) emptyGlobs.push(arg);
        for (const match of matched) add(resolve(cwd, match), match, match);
      } else if ((error as NodeJS.ErrnoException).code === "ENOENT" || (error as NodeJS.ErrnoException).code === "ENOTDIR") {
        problems.push({ path: arg, reason: reasonOf(error as NodeJS.ErrnoException) });
      } else {
        // The link exists but cannot be followed (loop, permission): the reader says why.
        add(path, arg);
      }
      continue;
    }
    if (isDirectory) {
      // The folder named itself is named; one inside it was found by the walk.
      const unreadable = (folder: string, error: NodeJS.ErrnoException) =>
        problems.push({ path: join(arg, folder), reason: `cannot list this folder: ${reasonOf(error)}`, ...(folder !== "" && { ignorePath: `${folder}/**` }) });
      ignored ??= await ignoreMatcher(ignore);
      for (const inside of walkFolder(path, ignored, unreadable)) add(join(path, inside), join(arg, inside), inside);
    } else add(path, arg);
  }
  const sorted = [...files].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return { files: sorted.map(([path, found]) => ({ path, ...found })), problems, emptyGlobs };
}

/**
 * Every *.json file under a folder (paths relative to it), found as fast-glob's "**\/*.json"
 * would find it: hidden entries skipped, paths that match an ignore pattern left out and such
 * folders not entered, links to folders not followed. Its own walk, because fast-glob's
 * per-entry work cost as much as validating a tenth of the files. A folder it cannot list is
 * given to `unreadable` relative to the root.
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
      unreadable(folder, error as NodeJS.ErrnoException);
      continue;
    }
    for (const entry of entries) {
      if (entry.name.startsWith(".")) continue;
      const path = folder === "" ? entry.name : `${folder}/${entry.name}`;
      if (ignored(path)) continue;
      if (entry.isDirectory()) folders.push(path);
      else if (entry.name.endsWith(".json") && !(entry.isSymbolicLink() && isFolder(join(root, path)))) found.push(path);
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
