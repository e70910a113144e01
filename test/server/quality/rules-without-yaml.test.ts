import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, it, vi } from "vitest";
import { afterFile } from "../../support/cleanup.js";

// As if the optional dependency were not installed.
vi.mock("yaml", () => {
  throw new Error("Cannot find package 'yaml'");
});

const folder = mkdtempSync(join(tmpdir(), "basemodel-quality-noyaml-"));
afterFile(() => rmSync(folder, { recursive: true, force: true }));

it("reads JSON quality rules without the yaml package, and says how to get it for YAML", async () => {
  const { loadQualityRules } = await import("../../../src/server/quality/rules.js");
  const json = join(folder, "rules.json");
  writeFileSync(json, JSON.stringify({ sources: { building: { valid: true } } }));
  expect((await loadQualityRules(json)).sources.map(({ source }) => source)).toEqual(["building"]);
  expect((await loadQualityRules()).sources.length).toBeGreaterThan(0);
  const yaml = join(folder, "rules.yaml");
  writeFileSync(yaml, "sources:\n  building:\n    valid: true\n");
  await expect(loadQualityRules(yaml)).rejects.toThrow(
    `Reading the YAML quality rules file ${yaml} needs the optional dependency yaml: run \`npm install yaml@2\`, or write the quality rules as JSON`,
  );
});
