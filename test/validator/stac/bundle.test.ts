/**
 * The official schemas bundled in schema/stac/: each is the published file, unchanged (its
 * sha256 is the one provenance.json records), with its source and licence; nothing of fAIr's
 * own schemas (AGPL-3.0); and every core and extension URL reaches a compiled check.
 */
import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { bundledCheck, bundledSchema, compiled, coreSchemas, extensionSchemas } from "../../../src/validator/stac/registry.js";

const BUNDLE = path.resolve(__dirname, "../../../schema/stac");

interface Entry {
  file: string;
  url: string;
  role: "core" | "extension" | "dependency";
  origin: string;
  licence: string;
  sha256: string;
}

const { schemas } = JSON.parse(readFileSync(path.join(BUNDLE, "provenance.json"), "utf8")) as { schemas: Entry[] };
const filesOnDisk = (readdirSync(BUNDLE, { recursive: true }) as string[]).filter((name) => name.endsWith(".json") && name !== "provenance.json").sort();

describe("schema/stac", () => {
  it("holds exactly the files provenance.json lists, each at the path of its URL", () => {
    expect(schemas.map((entry) => entry.file).sort()).toEqual(filesOnDisk);
    for (const entry of schemas) expect(entry.url).toBe(`https://${entry.file}`);
  });

  it.each(schemas.map((entry) => [entry.file, entry] as const))("%s is the official file: its sha256, source and licence are recorded", (file, entry) => {
    const sha256 = createHash("sha256").update(readFileSync(path.join(BUNDLE, file))).digest("hex");
    expect(sha256).toBe(entry.sha256);
    expect(entry.origin).toMatch(/^https:\/\//);
    expect(["Apache-2.0", "MIT"]).toContain(entry.licence);
  });

  it("ships the licences the schemas are published under (Apache-2.0; MIT with its notices), and none of fAIr's (AGPL-3.0) schemas", () => {
    expect(readFileSync(path.join(BUNDLE, "LICENSE-Apache-2.0.txt"), "utf8")).toContain("Apache License\n                           Version 2.0, January 2004");
    expect(readFileSync(path.join(BUNDLE, "LICENSE-MIT-geojson-schema.md"), "utf8")).toContain("Copyright (c) 2018 Tim Schaub");
    expect(readFileSync(path.join(BUNDLE, "LICENSE-MIT-PROJ.txt"), "utf8")).toContain("The above copyright notice and this permission notice shall be included");
    expect(filesOnDisk.filter((file) => file.includes("hotosm"))).toEqual([]);
  });

  it("bundles what fAIr's items use: core 1.0.0 and 1.1.0, MLM 1.0.0 to 1.5.2 at both addresses, and the other extensions (datacube and projection with the PROJJSON versions they name)", () => {
    expect(coreSchemas.map((schema) => schema.version).sort()).toEqual(["1.0.0", "1.1.0"]);
    const versions = (family: string) => [...new Set(extensionSchemas.filter((schema) => schema.family === family).map((schema) => schema.version))].sort();
    expect(versions("mlm")).toEqual(["1.0.0", "1.1.0", "1.2.0", "1.3.0", "1.4.0", "1.5.0", "1.5.1", "1.5.2"]);
    for (const version of ["1.0.0", "1.1.0", "1.2.0", "1.3.0"]) {
      expect(bundledSchema(`https://crim-ca.github.io/mlm-extension/v${version}/schema.json`)).toBeDefined();
      expect(bundledSchema(`https://stac-extensions.github.io/mlm/v${version}/schema.json`)).toBeDefined();
    }
    expect(versions("classification")).toEqual(["1.0.0", "1.1.0", "2.0.0"]);
    expect(versions("file")).toEqual(expect.arrayContaining(["2.0.0", "2.1.0"]));
    expect(versions("raster")).toEqual(["1.0.0", "1.1.0", "2.0.0"]);
    expect(versions("version")).toEqual(["1.0.0", "1.1.0", "1.2.0"]);
    expect(versions("processing")).toEqual(["1.0.0", "1.1.0", "1.2.0"]);
    expect(versions("datacube")).toEqual(["1.0.0", "2.0.0", "2.1.0", "2.2.0", "2.3.0"]);
    expect(versions("label")).toEqual(["1.0.0", "1.0.1"]);
    expect(versions("eo")).toContain("2.0.0");
    expect(versions("projection")).toEqual(["1.0.0", "1.1.0", "1.2.0", "2.0.0"]);
  });

  it("answers each URL an item may write, with an empty fragment too, from a compiled check", () => {
    for (const schema of [...coreSchemas, ...extensionSchemas]) {
      expect(bundledSchema(`${schema.url}#`)).toBe(schema);
      expect(typeof compiled(schema)).toBe("function");
      expect(typeof bundledCheck(schema).passes).toBe("function");
    }
    expect(bundledSchema("https://hotosm.github.io/fAIr-models/schemas/v1.0.0/base-model/schema.json")).toBeUndefined();
  });
});
