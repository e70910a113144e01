/**
 * One scratch directory per test run, shared by every test file and removed at the end: the
 * place for data that several files build lazily and only once (the Monaco import).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TestProject } from "vitest/node";

declare module "vitest" {
  export interface ProvidedContext {
    runDirectory: string;
  }
}

export default function setup(project: TestProject): () => void {
  const directory = mkdtempSync(join(tmpdir(), "basemodel-run-"));
  project.provide("runDirectory", directory);
  return () => rmSync(directory, { recursive: true, force: true });
}
