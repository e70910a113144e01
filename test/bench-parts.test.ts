/**
 * bench/parts.mjs switches parts of the built command line off by replacing pieces of its bundle;
 * a change to the code that moved a piece would stop that benchmark only when someone runs it.
 * This test says so as the change is made.
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
// @ts-expect-error: a benchmark script, plain JavaScript without declarations.
import * as untyped from "../bench/parts.mjs";

const { PARTS, filesMatching } = untyped as {
  PARTS: Array<{ name: string; replace: Array<[RegExp, string]> }>;
  filesMatching: (bundle: string, pattern: RegExp) => string[];
};
const bundle = join(new URL("..", import.meta.url).pathname, "dist/cli-bundle");

describe("bench/parts.mjs", () => {
  it("finds each part's piece exactly once in the built bundle", () => {
    expect(PARTS.length).toBeGreaterThanOrEqual(4);
    for (const part of PARTS) {
      for (const [pattern] of part.replace) expect(filesMatching(bundle, pattern), part.name).toHaveLength(1);
    }
  });
});
