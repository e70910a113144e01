/**
 * Where finished exports are published in the export folder, under the names raw-data-api gives
 * them: `<fileName>_<outputType>_uid_<taskId>.<ext>`, or without the task id (uuid false)
 * `<taskId>/<fileName>_<outputType>.<ext>`, a folder per task so that two exports of one name
 * never overwrite each other. `<ext>` is zip, or the format's own for a bare file (bindZip
 * false). Nothing else of the folder is ever served or deleted as an export.
 */
import { readdir, rmdir, stat } from "node:fs/promises";
import { join } from "node:path";
import { BARE_FORMATS } from "../formats/types.js";

const UUID = "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}";
const NAME = "[\\p{L}\\p{M}\\p{N}_]+_[a-z]+";
const EXTENSION = `(?:zip|${BARE_FORMATS.join("|")})`;
const NAMED_BY_TASK = new RegExp(`^${NAME}_uid_${UUID}\\.${EXTENSION}$`, "u");
const TASK_FOLDER = new RegExp(`^${UUID}$`);
const IN_TASK_FOLDER = new RegExp(`^${NAME}\\.${EXTENSION}$`, "u");

export interface DownloadName {
  /** Sanitised (src/server/exports/file-name.ts). */
  fileName: string;
  outputType: string;
  taskId: string;
  /** Whether the task id is part of the file's name (raw-data-api's `uuid`). */
  uuid: boolean;
  /** "zip", or the bare file's own extension. */
  extension: string;
}

/** The published file's path in the export folder, "/"-separated. */
export function downloadPath({ fileName, outputType, taskId, uuid, extension }: DownloadName): string {
  return uuid ? `${fileName}_${outputType}_uid_${taskId}.${extension}` : `${taskId}/${fileName}_${outputType}.${extension}`;
}

/** True for a path that downloadPath() can make: only such paths are served. */
export function isDownloadPath(path: string): boolean {
  const parts = path.split("/");
  if (parts.length === 1) return NAMED_BY_TASK.test(parts[0]!);
  return parts.length === 2 && TASK_FOLDER.test(parts[0]!) && IN_TASK_FOLDER.test(parts[1]!);
}

/** The task folders of the export folder (uuid false), as real folders, links not followed. */
export async function taskFolders(directory: string): Promise<string[]> {
  const entries = await readdir(directory, { withFileTypes: true });
  return entries.filter((entry) => entry.isDirectory() && TASK_FOLDER.test(entry.name)).map((entry) => entry.name);
}

/** Every published file of the export folder (regular files; links are no export of ours), as downloadPath() names it. */
export async function downloads(directory: string): Promise<string[]> {
  const top = (await readdir(directory, { withFileTypes: true })).filter((entry) => entry.isFile() && isDownloadPath(entry.name)).map((entry) => entry.name);
  const inFolders = await Promise.all(
    (await taskFolders(directory)).map(async (folder) =>
      (await readdir(join(directory, folder), { withFileTypes: true })).filter((entry) => entry.isFile() && isDownloadPath(`${folder}/${entry.name}`)).map((entry) => `${folder}/${entry.name}`),
    ),
  );
  return [...top, ...inFolders.flat()];
}

/**
 * Removes the task folders left empty (their export deleted, or never published) and last
 * changed before `before`: a task about to publish into a folder it has just made keeps it.
 */
export async function removeEmptyTaskFolders(directory: string, before: Date): Promise<void> {
  for (const folder of await taskFolders(directory)) {
    const path = join(directory, folder);
    if ((await stat(path)).mtime >= before) continue;
    // rmdir removes only an empty folder; one that holds an export stays.
    await rmdir(path).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== "ENOTEMPTY" && error.code !== "EEXIST" && error.code !== "ENOENT") throw error;
    });
  }
}
