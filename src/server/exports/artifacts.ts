/**
 * Where exports are published, read and deleted: the export code and the download route know
 * the files only through this interface. The one implementation is a folder (localArtifacts);
 * a folder that every machine mounts (NFS, say) is the same implementation for workers and
 * servers on several machines.
 */
import { createReadStream, realpathSync } from "node:fs";
import { lstat, mkdir, readdir, rename, rm, stat } from "node:fs/promises";
import { dirname, join } from "node:path";
import type { Readable } from "node:stream";
import { downloads, isDownloadPath, removeEmptyTaskFolders, taskFolders } from "./published.js";
import { PARTIAL_SUFFIX } from "../formats/zip.js";

export interface PublishedFile {
  size: number;
  /** When it was published. */
  modified: Date;
}

export interface ArtifactStore {
  /** A fresh, empty folder on this machine's disk where a task writes its files before it publishes one. */
  workFolder(taskId: string): Promise<string>;
  /** Removes a task's work folder and whatever is in it. */
  removeWorkFolder(taskId: string): Promise<void>;
  /**
   * Where a task writes the file it will publish under `download` (a path of downloadPath()),
   * when it is written there rather than in the work folder: the folder for it is made.
   */
  stagingPath(download: string): Promise<string>;
  /** Puts a finished file under its download path, in one step: a client never finds it half-written. Returns its size. */
  publish(file: string, download: string): Promise<number>;
  /** A published export, or null: none, or a path that is not an export's. */
  stat(download: string): Promise<PublishedFile | null>;
  /** Reads a published export, whole or its bytes from `start` to `end` inclusive. */
  read(download: string, range?: { start: number; end: number }): Readable;
  /** The published exports (download paths) published before `before`. */
  publishedBefore(before: Date): Promise<string[]>;
  /** Deletes a published export. */
  delete(download: string): Promise<void>;
  /** Removes what tasks left that is no export and was last changed before `before` (empty task folders). */
  removeLeftovers(before: Date): Promise<void>;
  /** Removes what tasks that never finished left (work folders, partial files): only while none runs. */
  removeUnfinished(): Promise<void>;
  /** The tasks that left unfinished work here (a work folder, a partial file): each is running, or was stopped mid-way. */
  unfinishedTasks(): Promise<string[]>;
  /** Removes what task `taskId` left unfinished; what it published stays. */
  removeUnfinishedOf(taskId: string): Promise<void>;
}

/** An export's work folder: a dot folder, hidden from the download route. */
const WORK_FOLDER = /^\..+\.work$/;
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/;
const isPartial = (name: string) => name.endsWith(`.zip${PARTIAL_SUFFIX}`);

/** A work folder or partial file, and the task it is of when its name says (every name ours makes does). */
interface Unfinished {
  path: string;
  taskId: string | undefined;
}

/** Every work folder and partial file of the export folder: at its top, and in task folders (uuid false). */
async function unfinishedEntries(directory: string): Promise<Unfinished[]> {
  const found: Unfinished[] = [];
  const taskOf = (name: string) => UUID.exec(name)?.[0];
  for (const name of await readdir(directory)) {
    if (WORK_FOLDER.test(name) || isPartial(name)) found.push({ path: join(directory, name), taskId: taskOf(name) });
  }
  for (const folder of await taskFolders(directory)) {
    for (const name of (await readdir(join(directory, folder))).filter(isPartial)) found.push({ path: join(directory, folder, name), taskId: folder });
  }
  return found;
}

/** The exports in `directory`, served from it. */
export function localArtifacts(directory: string): ArtifactStore {
  const workPath = (taskId: string) => join(directory, `.${taskId}.work`);
  const path = (download: string) => join(directory, download);
  return {
    async workFolder(taskId) {
      // Removed first in case a crash left it.
      await rm(workPath(taskId), { recursive: true, force: true });
      await mkdir(workPath(taskId), { recursive: true });
      return workPath(taskId);
    },
    removeWorkFolder: (taskId) => rm(workPath(taskId), { recursive: true, force: true }),
    async stagingPath(download) {
      await mkdir(dirname(path(download)), { recursive: true });
      return path(download);
    },
    async publish(file, download) {
      const target = path(download);
      await mkdir(dirname(target), { recursive: true });
      // On the same disk: the file appears whole or not at all.
      if (file !== target) await rename(file, target);
      return (await stat(target)).size;
    },
    async stat(download) {
      if (!isDownloadPath(download) || !reachedWithoutLinks(directory, download)) return null;
      const found = await lstat(path(download)).catch(() => null);
      return found?.isFile() ? { size: found.size, modified: found.mtime } : null;
    },
    read: (download, range) => createReadStream(path(download), range),
    async publishedBefore(before) {
      const old: string[] = [];
      // A file is renamed into place as its task finishes: its last change is when the task ended.
      for (const download of await downloads(directory)) if ((await stat(path(download))).mtime < before) old.push(download);
      return old;
    },
    // A task's own folder (uuid false) holds its one file: both go.
    delete: (download) => rm(join(directory, download.split("/")[0]!), { recursive: true, force: true }),
    removeLeftovers: (before) => removeEmptyTaskFolders(directory, before),
    async removeUnfinished() {
      for (const { path } of await unfinishedEntries(directory)) await rm(path, { recursive: true, force: true });
      await removeEmptyTaskFolders(directory, new Date());
    },
    unfinishedTasks: async () => [...new Set((await unfinishedEntries(directory)).flatMap(({ taskId }) => (taskId === undefined ? [] : [taskId])))],
    async removeUnfinishedOf(taskId) {
      for (const { path } of (await unfinishedEntries(directory)).filter((entry) => entry.taskId === taskId)) await rm(path, { recursive: true, force: true });
    },
  };
}

/**
 * True when `download` under `root` is a file of the folder itself, with no symbolic link on the
 * way (the file, or a folder it would be read through). The workers write files, never links: a
 * link was put there by someone else and may lead anywhere on the machine.
 */
function reachedWithoutLinks(root: string, download: string): boolean {
  try {
    return realpathSync(join(root, download)) === join(realpathSync(root), download);
  } catch {
    // Missing or unreadable: not served, and the not-found answer says so.
    return false;
  }
}
