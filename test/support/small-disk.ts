/**
 * A folder on a file system of its own that holds only so many bytes (a tmpfs), for tests of a
 * full disk: a write past it fails with ENOSPC, as on a real disk. Unmounted and removed after
 * the test file. Mounting needs root (see runsAsRoot).
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterFile } from "./cleanup.js";

export function smallDisk(bytes: number): string {
  const dir = mkdtempSync(join(tmpdir(), "basemodel-small-disk-"));
  // Mode 0755: the processes under test may run as another user.
  execFileSync("mount", ["-t", "tmpfs", "-o", `size=${bytes},mode=0755`, "tmpfs", dir]);
  afterFile(() => {
    execFileSync("umount", [dir]);
    rmdirSync(dir);
  });
  return dir;
}
