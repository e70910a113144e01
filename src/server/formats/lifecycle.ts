import { rm } from "node:fs/promises";
import type { ExportFeature, ExportWriter } from "./types.js";

/** What a format module provides; `guard` adds the state checks and clean-up that all formats share. */
export interface FormatWriter {
  write(feature: ExportFeature): Promise<void> | void;
  finish(): Promise<string[]>;
  /** Releases open handles without completing anything. */
  close(): Promise<void> | void;
  /** Every path the writer may have created so far, temporary files included. */
  paths(): string[];
}

export function guard(format: FormatWriter): ExportWriter {
  // A failed write or finish leaves the files in no known state: only abort() makes sense then.
  let state: "open" | "finished" | "failed" | "aborted" = "open";
  const run = async <T>(call: string, action: () => Promise<T> | T): Promise<T> => {
    if (state !== "open") throw new Error(`export writer: ${call}() after the export ${state}`);
    try {
      return await action();
    } catch (error) {
      state = "failed";
      throw error;
    }
  };
  return {
    write: (feature) => run("write", () => format.write(feature)),
    async finish() {
      const files = await run("finish", () => format.finish());
      state = "finished";
      return files;
    },
    async abort() {
      if (state === "aborted") return;
      state = "aborted";
      await format.close();
      await Promise.all(format.paths().map((path) => rm(path, { force: true })));
    },
  };
}
