/**
 * What the tests of the browser build run wherever the library runs (test/validator/browser.test.ts):
 * in Node from the sources, and bundled in a page, a JavaScript context without Node, or a bundle
 * for Node. It uses nothing but what it is given, and its results are plain data to compare.
 * It is bundled into pages: it imports nothing.
 */
import type * as Basemodel from "../../src/index.js";

export type Library = typeof Basemodel;

export interface Fixture {
  /** Its path in the repository. */
  name: string;
  text: string;
}

/** The options a page would validate with: each fixture is validated with every one. */
export const OPTION_SETS = {
  base: {},
  stac: { stac: true, maxErrors: Infinity },
  fairCi: { profile: "fair-ci" },
  auto: { rules: "auto", fairChecks: true },
  prefix: { prefix: "svc" },
} as const satisfies Record<string, Basemodel.ValidatorOptions>;

/** Every fixture validated as text with every option set, each after loadFor has loaded what it needs: as a page does. */
export async function validateFixtures(basemodel: Library, fixtures: readonly Fixture[]): Promise<unknown[]> {
  const results = [];
  for (const { name, text } of fixtures) {
    const bySet: Record<string, unknown> = { name };
    for (const [set, options] of Object.entries(OPTION_SETS)) {
      await basemodel.loadFor(text, options);
      bySet[set] = basemodel.validateDocumentText(text, options);
    }
    results.push(bySet);
  }
  return results;
}

/** What validating an item with each option set says before anything is loaded: the message, or "valid" / "invalid". */
export function beforeLoading(basemodel: Library, item: unknown): Record<string, string> {
  return Object.fromEntries(
    Object.entries(OPTION_SETS).map(([set, options]) => {
      try {
        return [set, basemodel.validateItem(item, options).valid ? "valid" : "invalid"];
      } catch (error) {
        return [set, (error as Error).message];
      }
    }),
  );
}

/** What the options that read or write local files say where there are none: the message, or "no error". */
export async function withoutFiles(basemodel: Library, item: unknown): Promise<Record<string, string>> {
  const outcome = async (run: () => unknown) => {
    try {
      await run();
      return "no error";
    } catch (error) {
      return (error as Error).message;
    }
  };
  return {
    schemaMap: await outcome(() => basemodel.validateItem(item, { stac: true, schemaMap: { "https://example.com/sar/v1.0.0/schema.json": "sar.json" } })),
    schemaCache: await outcome(() => basemodel.validateItem(item, { stac: true, schemaCache: true })),
    fetchSchemas: await outcome(() => basemodel.fetchSchemas([item])),
  };
}
