import { randomBytes } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { readItemFile } from "../../src/cli/read.js";
import { scratchDir } from "./helpers.js";

const dir = scratchDir();

describe("readItemFile", () => {
  it("returns every byte of regular files of any size", () => {
    for (const size of [0, 1, 4095, 4096, 65_537, 3_000_000]) {
      const bytes = randomBytes(size);
      const path = join(dir, `${size}.json`);
      writeFileSync(path, bytes);
      const read = readItemFile(path);
      expect("bytes" in read && Buffer.compare(read.bytes, bytes), `${size} bytes`).toBe(0);
    }
  });

  it("reads a file whose size is not known ahead to its end", () => {
    // /proc files report a size of 0 and still have content.
    const read = readItemFile("/proc/self/status");
    expect("bytes" in read && read.bytes.toString("utf8")).toMatch(/^Name:/);
  });

  it("refuses what is not a regular file, without reading it", () => {
    mkdirSync(join(dir, "folder.json"), { recursive: true });
    expect(readItemFile(join(dir, "folder.json"))).toEqual({ error: "is a folder, not a file" });
    expect(readItemFile("/dev/zero")).toEqual({ error: "is a device, not a file" });
    expect(readItemFile(join(dir, "missing.json"))).toEqual({ error: "no such file or directory" });
  });
});
