/**
 * Clean-up that runs once the test file is done, wherever it was registered. Vitest silently
 * drops an afterAll() called inside a beforeAll() or a test, and helpers are called from both.
 */
import { afterAll } from "vitest";

const cleanups: Array<() => unknown> = [];

// Registered when a test file first imports this module (each file gets its own copy).
// Removing a folder of thousands of files can take minutes on a slow, shared CI machine.
afterAll(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
}, 600_000);

/** Runs `cleanup` after the current test file; the last registered runs first. */
export function afterFile(cleanup: () => unknown): void {
  cleanups.push(cleanup);
}
