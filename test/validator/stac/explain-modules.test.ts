/**
 * The explaining modules the build writes (scripts/build-stac.mjs) compile each part the expanded
 * schemas share once, and place every failure a part passes up at the schema path it has in the
 * expanded schema. Each bundled schema's module runs here beside what it replaces: the schema
 * expand() makes of it, compiled whole by Ajv now. Both must report the same failures, in the same
 * order, with the same schema paths and parameters, on every fixture and on mutations of the
 * realistic fixture (every member down to three levels dropped, or given a value of another type),
 * each listing the schema under test.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { AJV_OPTIONS, expand } from "../../../src/validator/stac/expand.js";
import { bundledSchema, compiled } from "../../../src/validator/stac/registry.js";
import { allPaths, set, type Json, type JsonObject } from "../../support/json-edit.js";
import { jsonFiles, readJson } from "../../support/json-files.js";

const require = createRequire(import.meta.url);
const Ajv = (require("ajv") as typeof import("ajv")).default;
const addFormats = require("ajv-formats") as typeof import("ajv-formats").default;

const ROOT = path.resolve(__dirname, "../../..");
const BUNDLE = path.join(ROOT, "schema/stac");

interface Entry {
  file: string;
  url: string;
  role: "core" | "extension" | "dependency";
  sha256: string;
}

const { schemas: entries } = JSON.parse(readFileSync(path.join(BUNDLE, "provenance.json"), "utf8")) as { schemas: Entry[] };
const documents = new Map(entries.map((entry) => [entry.url, JSON.parse(readFileSync(path.join(BUNDLE, entry.file), "utf8")) as unknown]));
/** One schema per file: a file published at two addresses has one module. */
const roots = entries.filter((entry, index) => entry.role !== "dependency" && entries.findIndex((other) => other.sha256 === entry.sha256) === index);

/** The bundled files as the build registers them: each under the URL it is published at. */
const ajv = new Ajv({ ...AJV_OPTIONS });
addFormats(ajv, ["date-time"]);
for (const [url, doc] of documents) ajv.addSchema({ ...(doc as object), $id: url });

const fixtures = ["valid", "warning", "invalid", "stac-invalid"]
  .flatMap((folder) => jsonFiles(path.join(ROOT, "fixtures", folder)))
  .map((file) => readJson(file))
  .filter((item): item is Json => item !== undefined);
const realistic = readJson(path.join(ROOT, "fixtures/valid/realistic-segmentation.json")) as JsonObject;
const mutants = allPaths(realistic)
  .filter((at) => at.length <= 3)
  .flatMap((at) => [undefined, 42, "x", null].map((value) => set(realistic, at, value)));

describe.each(roots.map((entry) => [entry.url] as const))("%s", (url) => {
  it("explains every failure as the expanded schema compiled whole does", () => {
    const ours = compiled(bundledSchema(url)!);
    const whole = ajv.compile({ ...(expand((target) => documents.get(target), url).schema as object), $id: `urn:test:${url}` });
    const items = [...fixtures, ...mutants].map((item) => {
      if (item === null || typeof item !== "object" || Array.isArray(item)) return item;
      const listed = (item as JsonObject).stac_extensions;
      return { ...item, stac_extensions: [...(Array.isArray(listed) ? listed : []), url] };
    });
    let failing = 0;
    for (const item of items) {
      const verdict = whole(item);
      if (!verdict) failing++;
      expect({ valid: ours(item), errors: ours.errors ?? null }).toEqual({ valid: verdict, errors: whole.errors ?? null });
    }
    // The mutations reach the schema's rules.
    expect(failing).toBeGreaterThan(items.length / 10);
  });
});
